#if canImport(SwiftUI)
import SwiftUI

// Thin SwiftUI glue; the logic it calls (`receiveOnAppear()`, `ObservedCommand`) is tested on
// Linux.

extension View {
    /// Forwards this view's appearance and disappearance to `presenter`
    /// (`Presenter.receiveOnAppear()`, `Presenter.receiveOnDisappear()`), so that its
    /// `viewCreated()`, appearance hooks and `visibilityTokens` work as behind a view controller.
    ///
    /// - Parameter presenter: The presenter that backs this view.
    /// - Returns: The view, forwarding its lifecycle.
    @MainActor
    public func lifecycle<ViewType>(of presenter: Presenter<ViewType>) -> some View {
        onAppear {
            // SwiftUI calls `onAppear` and `onDisappear` on the main thread.
            MainActor.assumeIsolated { presenter.receiveOnAppear() }
        }
        .onDisappear {
            // SwiftUI calls `onAppear` and `onDisappear` on the main thread.
            MainActor.assumeIsolated { presenter.receiveOnDisappear() }
        }
    }
}

/// A button bound to a command without a parameter: enabled when the command can execute, a tap
/// executes it, and an optional progress view shows while it runs.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct CommandButton<Output: Sendable, Label: View>: View {
    private let state: ObservedCommand<Void, Output>
    private let showsProgress: Bool
    private let label: Label

    /// Creates a button for `state`'s command.
    ///
    /// - Parameters:
    ///   - state: The command's observed state.
    ///   - showsProgress: Whether a progress view replaces the label while the command executes.
    ///   - label: The button's label.
    public init(_ state: ObservedCommand<Void, Output>, showsProgress: Bool = false, @ViewBuilder label: () -> Label) {
        self.state = state
        self.showsProgress = showsProgress
        self.label = label()
    }

    /// The button.
    public var body: some View {
        Button {
            // A SwiftUI button's action runs on the main thread.
            MainActor.assumeIsolated { _ = state.command.execute() }
        } label: {
            if showsProgress && state.isExecuting { ProgressView() } else { label }
        }
        .disabled(!state.canExecute)
    }
}
#endif
