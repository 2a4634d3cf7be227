import Ripple
import RippleTestSupport
import XCTest

/// `Presenter`, `Viewable` and the view lifecycle.
///
/// Tests that install a `Diagnostics` handler restore the default in `tearDown`.
final class PresenterTests: DiagnosticsTestCase {
    // MARK: - Fixtures

    /// What the presenter may ask of its view.
    private protocol BookListView: Viewable {
        func show(title: String)
    }

    private final class BookListViewSpy: BookListView {
        var titles: [String] = []
        func show(title: String) { titles.append(title) }
    }

    /// A presenter that records its hooks, and shows a title when it appears.
    private final class BookListPresenter: Presenter<any BookListView> {
        var hooks: [String] = []
        override func viewCreated() { hooks.append("created") }
        override func viewWillAppear() {
            hooks.append("willAppear")
            view?.show(title: "Books")
        }
        override func viewDidAppear() { hooks.append("didAppear") }
        override func viewWillDisappear() { hooks.append("willDisappear") }
        override func viewDidDisappear() { hooks.append("didDisappear") }
        override func viewDestroyed() { hooks.append("destroyed") }
    }

    // MARK: - View

    func test_view_isTypedByTheViewProtocol_withNoCastAtTheCallSite() {
        MainActor.assumeIsolated {
            let view = BookListViewSpy()
            let presenter = BookListPresenter()
            presenter.injectView(view)
            presenter.view?.show(title: "Hello")
            XCTAssertEqual(view.titles, ["Hello"])
            XCTAssertTrue(presenter.hasView)
        }
    }

    func test_view_isHeldWeakly() {
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            do {
                let view = BookListViewSpy()
                presenter.injectView(view)
                XCTAssertNotNil(presenter.view)
            }
            XCTAssertNil(presenter.view)
            XCTAssertFalse(presenter.hasView)
        }
    }

    func test_injectView_replacesTheView_andRemoveViewDetachesIt() {
        MainActor.assumeIsolated {
            let first = BookListViewSpy()
            let second = BookListViewSpy()
            let presenter = BookListPresenter()
            presenter.injectView(first)
            presenter.injectView(second)
            presenter.view?.show(title: "x")
            XCTAssertEqual(first.titles, [])
            XCTAssertEqual(second.titles, ["x"])
            presenter.removeView()
            XCTAssertNil(presenter.view)
        }
    }

    func test_viewControllerOwningItsPresenter_makesNoCycle() {
        MainActor.assumeIsolated {
            @MainActor
            final class Screen: BookListView {
                let presenter = BookListPresenter()
                init() { presenter.injectView(self) }
                func show(title: String) {}
            }
            assertDeallocated {
                let screen = Screen()
                screen.presenter.receive(.created)
                return weakReferences(screen, screen.presenter)
            }
        }
    }

    func test_aPresenterOfAConcreteClass_works() {
        MainActor.assumeIsolated {
            final class Cell: Viewable {}
            let cell = Cell()
            let presenter = Presenter<Cell>()
            presenter.injectView(cell)
            XCTAssertTrue(presenter.view === cell)
        }
    }

    // MARK: - Lifecycle

    func test_lifecycle_callsEachHookInOrder_andTracksTheState() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            presenter.injectView(BookListViewSpy())
            XCTAssertEqual(presenter.lifecycle, .initial)
            let events: [(ViewLifecycleEvent, ViewLifecycleState)] = [
                (.created, .hidden), (.willAppear, .appearing), (.didAppear, .visible),
                (.willDisappear, .disappearing), (.didDisappear, .hidden),
                (.willAppear, .appearing), (.didAppear, .visible), (.destroyed, .destroyed),
            ]
            for (event, state) in events {
                presenter.receive(event)
                XCTAssertEqual(presenter.lifecycle, state, "after \(event)")
            }
            XCTAssertEqual(
                presenter.hooks,
                [
                    "created", "willAppear", "didAppear", "willDisappear", "didDisappear", "willAppear", "didAppear",
                    "destroyed",
                ])
            XCTAssertEqual(diagnostics.takeAll(), [])
        }
    }

    func test_isViewVisible_onlyBetweenDidAppearAndWillDisappear() {
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            var visible: [Bool] = []
            for event in [ViewLifecycleEvent.created, .willAppear, .didAppear, .willDisappear, .didDisappear] {
                presenter.receive(event)
                visible.append(presenter.isViewVisible)
            }
            XCTAssertEqual(visible, [false, false, true, false, false])
        }
    }

    func test_interruptedTransitions_areAllowed_asUIKitSendsThem() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            // A swipe-back that is cancelled half-way: will disappear, then will appear again.
            for event in [ViewLifecycleEvent.created, .willAppear, .didAppear, .willDisappear, .willAppear, .didAppear]
            {
                presenter.receive(event)
            }
            XCTAssertEqual(presenter.lifecycle, .visible)
            // An appearance interrupted before it finished.
            presenter.receive(.willDisappear)
            presenter.receive(.didDisappear)
            presenter.receive(.willAppear)
            presenter.receive(.willDisappear)
            XCTAssertEqual(presenter.lifecycle, .disappearing)
            XCTAssertEqual(diagnostics.takeAll(), [])
        }
    }

    func test_eventOutOfOrder_isReportedAndIgnored_neverTraps() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            presenter.receive(.didAppear)
            XCTAssertEqual(presenter.lifecycle, .initial)
            XCTAssertEqual(presenter.hooks, [])
            presenter.receive(.created)
            presenter.receive(.created)
            presenter.receive(.destroyed)
            presenter.receive(.destroyed)
            XCTAssertEqual(presenter.hooks, ["created", "destroyed"])
            let reports = diagnostics.takeAll()
            XCTAssertEqual(reports.map(\.kind), [.lifecycleOutOfOrder, .lifecycleOutOfOrder, .lifecycleOutOfOrder])
            XCTAssertEqual(reports.first?.message, "didAppear arrived while the view is initial; ignored")
            XCTAssertTrue(reports.first?.source.hasSuffix(".receive(_:)") ?? false)
        }
    }

    func test_transitionTable_matchesUIKitsOrder() {
        MainActor.assumeIsolated {
            let allowed: [ViewLifecycleState: [ViewLifecycleEvent: ViewLifecycleState]] = [
                .initial: [.created: .hidden, .destroyed: .destroyed],
                .hidden: [.willAppear: .appearing, .destroyed: .destroyed],
                .appearing: [.didAppear: .visible, .willDisappear: .disappearing, .destroyed: .destroyed],
                .visible: [.willDisappear: .disappearing, .destroyed: .destroyed],
                .disappearing: [.didDisappear: .hidden, .willAppear: .appearing, .destroyed: .destroyed],
                .destroyed: [:],
            ]
            for (state, transitions) in allowed {
                for event in ViewLifecycleEvent.allCases {
                    XCTAssertEqual(state.next(after: event), transitions[event], "\(state) + \(event)")
                }
            }
        }
    }

    // MARK: - Tokens

    func test_visibilityTokens_areCancelledOnDisappear_lifetimeTokensOnDestroy() {
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            let emitter = Emitter<Int>()
            let seen = EventRecorder<String>()
            presenter.receive(.created)
            emitter.subscribe(on: .synchronous) { seen.record("lifetime \($0)") }.store(in: presenter.lifetimeTokens)
            presenter.receive(.willAppear)
            emitter.subscribe(on: .synchronous) { seen.record("visible \($0)") }.store(in: presenter.visibilityTokens)
            presenter.receive(.didAppear)
            emitter.send(1)
            presenter.receive(.willDisappear)
            presenter.receive(.didDisappear)
            emitter.send(2)
            presenter.receive(.destroyed)
            emitter.send(3)
            XCTAssertEqual(seen.takeAll(), ["lifetime 1", "visible 1", "lifetime 2"])
        }
    }

    func test_destroyedPresenter_isReleasedWithItsSubscriptions() {
        MainActor.assumeIsolated {
            assertDeallocated {
                let presenter = BookListPresenter()
                presenter.injectView(BookListViewSpy())
                let emitter = Emitter<Int>()
                emitter.subscribe(on: .synchronous) { [presenter] _ in _ = presenter }.store(
                    in: presenter.lifetimeTokens)
                presenter.receive(.created)
                presenter.receive(.destroyed)
                return weakReferences(presenter, emitter)
            }
        }
    }
}

extension PresenterTests {
    func test_receiveDisappearance_destroysOnlyWhenLeavingForGood() {
        MainActor.assumeIsolated {
            let presenter = BookListPresenter()
            for event in [ViewLifecycleEvent.created, .willAppear, .didAppear, .willDisappear] {
                presenter.receive(event)
            }
            presenter.receiveDisappearance(leavingForGood: false)
            XCTAssertEqual(presenter.lifecycle, .hidden)
            presenter.receive(.willAppear)
            presenter.receive(.didAppear)
            presenter.receive(.willDisappear)
            presenter.receiveDisappearance(leavingForGood: true)
            XCTAssertEqual(presenter.lifecycle, .destroyed)
            XCTAssertEqual(presenter.hooks.suffix(2), ["didDisappear", "destroyed"])
        }
    }
}

// MARK: - With commands and collections

/// The shape STT's users write: a presenter with a command bound to itself and a list of cell
/// presenters. It must compile under Swift 6 with no casts and no `@unchecked`.
private final class LoginPresenter: Presenter<any Viewable> {
    private(set) var logins = 0
    var canLogin = true
    let rows = ObservableCollection<RowPresenter>()

    private(set) lazy var login = Command(
        delegate: self,
        perform: { $0.onLogin() },
        canExecute: { $0.canLogin })

    private func onLogin() {
        logins += 1
        rows.append(RowPresenter())
    }
}

private final class RowPresenter: Presenter<any Viewable> {}

extension PresenterTests {
    func test_commandBoundToAPresenter_runsOnTheMainActor_andHoldsItWeakly() {
        MainActor.assumeIsolated {
            weak var weakPresenter: LoginPresenter?
            do {
                let presenter = LoginPresenter()
                weakPresenter = presenter
                XCTAssertNil(presenter.login.execute().refusal)
                XCTAssertEqual(presenter.logins, 1)
                XCTAssertEqual(presenter.rows.count, 1)
                presenter.canLogin = false
                XCTAssertFalse(presenter.login.canExecute())
            }
            XCTAssertNil(weakPresenter)
        }
    }
}

// MARK: - A view controller injects itself

/// A presenter that counts its injections and checks that its view is there when it is created.
private final class CountingPresenter: Presenter<any PresenterTestsScreenView> {
    private(set) var injections = 0
    private(set) var viewAtCreation: (any PresenterTestsScreenView)?
    override func injectView(_ view: any PresenterTestsScreenView) {
        injections += 1
        super.injectView(view)
    }
    override func viewCreated() { viewAtCreation = view }
}

@MainActor private protocol PresenterTestsScreenView: Viewable {}

/// What `ViewController`'s `viewDidLoad` does, without UIKit: the same call.
@MainActor private final class FakeViewController<P: PresenterType> {
    var presenter: P!
    func viewDidLoad() { presenter?.receiveCreation(of: self) }
}

extension FakeViewController: PresenterTestsScreenView {}

/// A presenter that conforms to `PresenterType` directly, with no view of its own.
@MainActor private final class BarePresenter: PresenterType {
    var events: [ViewLifecycleEvent] = []
    func receive(_ event: ViewLifecycleEvent) { events.append(event) }
}

extension PresenterTests {
    func test_receiveCreation_injectsAControllerThatFits_beforeViewCreated() {
        MainActor.assumeIsolated {
            let controller = FakeViewController<CountingPresenter>()
            controller.presenter = CountingPresenter()
            controller.viewDidLoad()
            XCTAssertTrue(controller.presenter.view === controller)
            XCTAssertTrue(controller.presenter.viewAtCreation === controller, "the view is there in viewCreated()")
            XCTAssertEqual(controller.presenter.injections, 1)
            XCTAssertEqual(controller.presenter.lifecycle, .hidden)
        }
    }

    func test_adoptView_doesNotInjectTheSameViewTwice() {
        MainActor.assumeIsolated {
            let controller = FakeViewController<CountingPresenter>()
            let presenter = CountingPresenter()
            presenter.injectView(controller)
            XCTAssertEqual(presenter.injections, 1)
            controller.presenter = presenter
            controller.viewDidLoad()
            XCTAssertEqual(presenter.injections, 1, "already its view: not injected again")
            XCTAssertTrue(presenter.adoptView(controller))
            XCTAssertEqual(presenter.injections, 1)
        }
    }

    func test_adoptView_replacesADifferentView() {
        MainActor.assumeIsolated {
            let earlier = FakeViewController<CountingPresenter>()
            let controller = FakeViewController<CountingPresenter>()
            let presenter = CountingPresenter()
            presenter.injectView(earlier)
            XCTAssertTrue(presenter.adoptView(controller))
            XCTAssertTrue(presenter.view === controller)
            XCTAssertEqual(presenter.injections, 2)
        }
    }

    func test_adoptView_leavesTheViewAlone_whenTheCandidateDoesNotFit() {
        MainActor.assumeIsolated {
            let view = BookListViewSpy()
            let presenter = BookListPresenter()
            presenter.injectView(view)
            let controller = FakeViewController<BookListPresenter>()  // not a BookListView
            controller.presenter = presenter
            controller.viewDidLoad()
            XCTAssertTrue(presenter.view === view)
            XCTAssertEqual(presenter.hooks, ["created"], "created is forwarded all the same")
            XCTAssertFalse(presenter.adoptView(controller))

            let unattached = BookListPresenter()
            XCTAssertFalse(unattached.adoptView(controller))
            XCTAssertFalse(unattached.hasView)
        }
    }

    func test_aDirectPresenterType_adoptsNothing_andStillHearsCreated() {
        MainActor.assumeIsolated {
            let controller = FakeViewController<BarePresenter>()
            controller.presenter = BarePresenter()
            controller.viewDidLoad()
            XCTAssertFalse(controller.presenter.adoptView(controller))
            XCTAssertEqual(controller.presenter.events, [.created])
        }
    }
}
