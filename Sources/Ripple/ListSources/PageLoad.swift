/// What loading a page tells a list source's pagination: whether more pages follow.
///
/// A pagination command that returns it (`CommandWithResult<Void, PageLoad>`) says "last page"
/// through the pagination API itself, in order with the run that loaded the page:
///
/// ```swift
/// import Ripple
///
/// struct Page: Sendable { var titles: [String]; var isLast: Bool }
///
/// @MainActor
/// final class FeedPresenter {
///     let titles = ObservableCollection<String>()
///     var fetch: (Int) async throws -> Page = { _ in Page(titles: [], isLast: true) }
///
///     private(set) lazy var loadMore = CommandWithResult<Void, PageLoad>(delegate: self, task: { owner in
///         let page = try await owner.fetch(owner.titles.count)
///         owner.titles.append(contentsOf: page.titles)
///         return page.isLast ? .lastPage : .morePages
///     })
/// }
/// ```
public enum PageLoad: Sendable, Hashable {
    /// More pages follow: a row displayed near the end loads the next one.
    case morePages
    /// This was the last page: the pagination loads no more.
    case lastPage
}
