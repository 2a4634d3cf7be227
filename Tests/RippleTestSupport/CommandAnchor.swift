import Ripple

/// The owner (`delegate:`) of test commands that need none: it lives as long as the test process,
/// so such a command never loses its owner. Commands in presenters pass `self` instead.
public final class CommandAnchor: Sendable {
    public init() {}
}

/// The one ``CommandAnchor`` the tests share.
public let commandAnchor = CommandAnchor()
