/// A command that takes a typed parameter and produces no value: `CommandWithResult<Parameter, Void>`.
///
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
/// ``CommandWithResult/run(_:)``, the policies, the streams and cancellation.
public typealias CommandWithParameter<Parameter: Sendable> = CommandWithResult<Parameter, Void>
