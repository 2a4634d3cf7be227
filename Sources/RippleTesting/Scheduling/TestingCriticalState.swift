#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A value protected by a lock that is allocated together with it, for ``TestScheduler`` and the leak checks.
///
/// Ripple's own `LockedState` is internal to Ripple, and RippleTesting does not import Foundation,
/// so this is a small copy of the same idea (async-algorithms' `ManagedCriticalState`): the only
/// way in is ``withCriticalRegion(_:)``. Mutate the state inside, return what to do, and do it
/// after the closure has returned. Never run scheduled work inside the closure.
///
/// The lock is `os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere (error-checking in
/// debug builds, so that re-entry crashes instead of hanging) and `SRWLOCK` on Windows.
struct TestingCriticalState<State> {
    final class Storage: ManagedBuffer<State, Primitive> {
        deinit {
            withUnsafeMutablePointers { _, lock in
                TestingCriticalState.destroy(lock)
            }
        }
    }

    #if canImport(Darwin)
    typealias Primitive = os_unfair_lock
    #elseif canImport(Glibc) || canImport(Musl)
    typealias Primitive = pthread_mutex_t
    #elseif canImport(WinSDK)
    typealias Primitive = SRWLOCK
    #endif

    private let storage: Storage

    /// Creates the lock around an initial state.
    ///
    /// - Parameter initial: The state.
    init(_ initial: State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in initial }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { TestingCriticalState.initialize($0) }
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or mutates the state; must not call out or take this lock again.
    /// - Returns: What `body` returns.
    func withCriticalRegion<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, lock in
            TestingCriticalState.lock(lock)
            defer { TestingCriticalState.unlock(lock) }
            return try body(&state.pointee)
        }
    }

    private static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #elseif canImport(Glibc) || canImport(Musl)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if DEBUG
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let result = pthread_mutex_init(lock, &attributes)
        precondition(result == 0, "TestingCriticalState: pthread_mutex_init failed with \(result)")
        pthread_mutexattr_destroy(&attributes)
        #elseif canImport(WinSDK)
        InitializeSRWLock(lock)
        #endif
    }

    private static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Glibc) || canImport(Musl)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
    }

    private static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #elseif canImport(Glibc) || canImport(Musl)
        let result = pthread_mutex_lock(lock)
        precondition(result == 0, "TestingCriticalState: lock failed with \(result); the lock was re-entered")
        #elseif canImport(WinSDK)
        AcquireSRWLockExclusive(lock)
        #endif
    }

    private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #elseif canImport(Glibc) || canImport(Musl)
        let result = pthread_mutex_unlock(lock)
        precondition(result == 0, "TestingCriticalState: unlock failed with \(result)")
        #elseif canImport(WinSDK)
        ReleaseSRWLockExclusive(lock)
        #endif
    }
}

// @unchecked: every access to `State` goes through `withCriticalRegion`, which holds the lock.
extension TestingCriticalState: @unchecked Sendable where State: Sendable {}
