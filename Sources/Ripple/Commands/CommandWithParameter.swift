/// A command that takes a typed parameter and produces no value: `CommandWithResult<Parameter, Void>`.
///
/// <!-- swift
/// struct Book: Sendable { var title = "" }
/// protocol ShelfView: Viewable { func show(_ book: Book) }
/// extension ShelfPresenter {
///     func isAvailable(_ book: Book) -> Bool { true }
/// }
/// let presenter = ShelfPresenter()
/// let book = Book()
/// -->
/// ```swift
/// @MainActor final class ShelfPresenter: Presenter<any ShelfView> {
///     private(set) lazy var open = CommandWithParameter<Book>(
///         delegate: self,
///         perform: { owner, book in owner.view?.show(book) },
///         canExecute: { owner, book in owner.isAvailable(book) })
/// }
///
/// presenter.open.execute(parameter: book)
/// ```
///
/// Everything is ``CommandWithResult``'s: the initializers, ``CommandWithResult/execute(parameter:)``,
/// ``CommandWithResult/run(parameter:)``, the policies, the streams and cancellation.
public typealias CommandWithParameter<Parameter: Sendable> = CommandWithResult<Parameter, Void>
