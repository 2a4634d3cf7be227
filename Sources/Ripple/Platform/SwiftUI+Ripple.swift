#if canImport(SwiftUI) && canImport(Combine)
import Combine
import SwiftUI

// Thin glue: every decision lives in the presenter's SwiftUI lifecycle (`receiveOnAppear(of:)`),
// the observed lists' rows (`ObservedRows`: pagination, selection) and the command's state
// (`ObservedCommandObject`), all tested on Linux. These only hook them to SwiftUI's `onAppear`,
// `onDisappear`, taps and `Button`, from iOS 13 and macOS 10.15.

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension View {
    /// Gives `presenter` its view while this SwiftUI view shows, and forwards its appearance to
    /// the presenter's lifecycle hooks: the one way to connect a presenter to a SwiftUI screen or
    /// row.
    ///
    /// `view` is the object that adopts the presenter's view protocol, usually an `@Observable`
    /// (or `ObservableObject`) model that this SwiftUI view keeps in `@State` and reads. On
    /// `onAppear` the presenter gets it (``Presenter/receiveOnAppear(of:)``: `viewCreated()` the
    /// first time, then the appearance hooks); on `onDisappear` it hears the disappearance and lets
    /// it go (``Presenter/receiveOnDisappear(of:)``). The view is identified by the presenter, so
    /// a row whose presenter a refresh replaced appears again with the fresh one, which takes
    /// over the row.
    ///
    /// - Parameters:
    ///   - presenter: The presenter behind this view.
    ///   - view: What the presenter talks to, held weakly by it.
    /// - Returns: The view, tied to the presenter.
    @MainActor
    public func presenter<ViewProtocol>(_ presenter: Presenter<ViewProtocol>, view: ViewProtocol) -> some View {
        onAppear { presenter.receiveOnAppear(of: view) }
            .onDisappear { presenter.receiveOnDisappear(of: view) }
            .id(ObjectIdentifier(presenter))
    }

    /// Makes this view the row at `path` of `list`: its appearance drives the list's pagination
    /// (``ObservedRows/rowAppeared(at:)``), and a tap selects it (``ObservedRows/select(at:)``),
    /// as `willDisplay` and `didSelectRow` do for a UIKit list source.
    ///
    /// <!-- swift
    /// import SwiftUI
    /// struct Book: Identifiable, Sendable { let id: Int; var title: String }
    /// -->
    /// ```swift swiftui
    /// @available(iOS 17.0, macOS 14.0, *)
    /// struct BookList: View {
    ///     let books: ObservedList<Book>
    ///
    ///     var body: some View {
    ///         List {
    ///             ForEach(books.rows) { row in
    ///                 Text(row.element.title).row(row.path, of: books)
    ///             }
    ///             if books.isLoadingPage { Text("Loading…") }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The row's path (section 0 in a flat list).
    ///   - list: The observed list the row belongs to.
    /// - Returns: The row.
    @MainActor
    public func row(_ path: ElementPath, of list: some ObservedRows) -> some View {
        onAppear { list.rowAppeared(at: path) }
            .contentShape(Rectangle())
            .onTapGesture { list.select(at: path) }
    }
}

/// A button bound to a command: enabled exactly while the command can execute, a tap executes it,
/// and a progress view shows while it runs (iOS 14 and macOS 11 on; iOS 13 shows the label
/// alone). Its state follows the command through ``ObservedCommandObject`` on every version; read
/// the last error from an ``ObservedCommand`` (or the object) of your own.
///
/// From iOS 14 and macOS 11 the button keeps one ``ObservedCommandObject`` for as long as it shows
/// the same command (`@StateObject`): a parent that renders again makes no new object and no new
/// subscription. iOS 13 and macOS 10.15 have no `@StateObject`: there the button makes its object
/// when SwiftUI asks for its body, and the object, with its three subscriptions, lives as long as
/// that body; a parent that renders again makes a new one.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor
public struct CommandButton<Parameter: Sendable, Output: Sendable, Label: View>: View {
    private let command: CommandWithResult<Parameter, Output>
    private let parameter: () -> Parameter
    private let showsProgress: Bool
    private let label: Label

    /// Creates a button for `command`. Creating it subscribes to nothing: the state is made
    /// and kept as the type's documentation says.
    ///
    /// - Parameters:
    ///   - command: The command a tap executes.
    ///   - parameter: Returns the parameter for each check and run, such as a text field's text.
    ///   - showsProgress: Whether a progress view shows beside the label while the command runs.
    ///   - label: The button's label.
    public init(
        _ command: CommandWithResult<Parameter, Output>, parameter: @escaping () -> Parameter,
        showsProgress: Bool = true, @ViewBuilder label: () -> Label
    ) {
        self.command = command
        self.parameter = parameter
        self.showsProgress = showsProgress
        self.label = label()
    }

    /// The button.
    public var body: some View {
        if #available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *) {
            CommandButtonKeepingState(
                command: command, parameter: parameter, showsProgress: showsProgress, label: label
            )
            .id(ObjectIdentifier(command))
        } else {
            CommandButtonFace(
                state: ObservedCommandObject(command), parameter: parameter, showsProgress: showsProgress,
                label: label)
        }
    }
}

/// A ``CommandButton`` that keeps its command's state across renders of its parent.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor
private struct CommandButtonKeepingState<Parameter: Sendable, Output: Sendable, Label: View>: View {
    @StateObject private var state: ObservedCommandObject<Parameter, Output>
    let parameter: () -> Parameter
    let showsProgress: Bool
    let label: Label

    init(
        command: CommandWithResult<Parameter, Output>, parameter: @escaping () -> Parameter, showsProgress: Bool,
        label: Label
    ) {
        // Evaluated once per button identity: SwiftUI keeps the first object.
        _state = StateObject(wrappedValue: ObservedCommandObject(command))
        self.parameter = parameter
        self.showsProgress = showsProgress
        self.label = label
    }

    var body: some View {
        CommandButtonFace(state: state, parameter: parameter, showsProgress: showsProgress, label: label)
    }
}

/// What a ``CommandButton`` shows for a command's state.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor
private struct CommandButtonFace<Parameter: Sendable, Output: Sendable, Label: View>: View {
    @ObservedObject var state: ObservedCommandObject<Parameter, Output>
    let parameter: () -> Parameter
    let showsProgress: Bool
    let label: Label

    var body: some View {
        Button(action: { _ = state.command.execute(parameter: parameter()) }) {
            HStack {
                label
                if showsProgress && state.isExecuting {
                    if #available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *) { ProgressView() }
                }
            }
        }
        .disabled(!state.canExecute(parameter: parameter()))
    }
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension CommandButton where Parameter == Void {
    /// Creates a button for a command without a parameter.
    ///
    /// - Parameters:
    ///   - command: The command a tap executes.
    ///   - showsProgress: Whether a progress view shows beside the label while the command runs.
    ///   - label: The button's label.
    public init(
        _ command: CommandWithResult<Void, Output>, showsProgress: Bool = true, @ViewBuilder label: () -> Label
    ) {
        self.init(command, parameter: {}, showsProgress: showsProgress, label: label)
    }
}
#endif
