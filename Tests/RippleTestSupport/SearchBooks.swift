import Ripple
import RippleTesting

/// What a searched book's cell shows: the search screens of the derived lists' tests.
@MainActor
public protocol SearchBookView: Viewable {
    /// Shows the book's title.
    func show(title: String)
}

/// A row of the search screen: a book's presenter.
public final class SearchBookPresenter: Presenter<any SearchBookView> {
    public nonisolated let id: Int
    public nonisolated let title: String

    public nonisolated init(id: Int, title: String) {
        self.id = id
        self.title = title
        super.init()
    }

    override public func injectView(_ view: any SearchBookView) {
        super.injectView(view)
        view.show(title: title)
    }
}

/// The search screen's headless cell.
public final class SearchBookCell: HeadlessCell<SearchBookPresenter>, SearchBookView {
    public var title = ""
    public func show(title: String) { self.title = title }
}
