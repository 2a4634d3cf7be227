#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A value protected by a lock that is allocated together with it.
///
/// `package` access: RippleTesting's scheduler and leak checks use it too.
///
/// The only way in is ``withLock(_:)``: mutate the state inside, return what to do, and act on it
/// after the closure returns, when the lock is free. Never call out (to subscribers, handlers or
/// views) from inside the closure.
///
/// The lock is `os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere, and `SRWLOCK` on
/// Windows. It is not recursive: re-entering it from the same thread is a programming error.
@usableFromInline
package struct LockedState<State>: @unchecked Sendable {
    // @unchecked: every access to `State` goes through `withLock`, which holds the lock.

    @usableFromInline
    internal final class Storage: ManagedBuffer<State, LockedState.Primitive> {
        deinit {
            withUnsafeMutablePointers { _, lock in
                LockedState.destroy(lock)
            }
        }
    }

    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #elseif canImport(Glibc) || canImport(Musl)
    @usableFromInline typealias Primitive = pthread_mutex_t
    #elseif canImport(WinSDK)
    @usableFromInline typealias Primitive = SRWLOCK
    #endif

    @usableFromInline let storage: Storage

    /// Creates the lock around an initial state.
    @inlinable
    package init(_ initial: State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in initial }
        // Safe: `Storage.create` is the class method of ManagedBuffer, called on `Storage`; it
        // allocates an instance of `Storage` itself and returns it typed as the base class.
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { LockedState.initialize($0) }
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameter body: Reads or mutates the state. It must not call out to user code, and must
    ///   not take this lock again.
    /// - Returns: What `body` returns. Return what must be released (an old value, a removed
    ///   subscriber) instead of dropping it inside `body`: a `deinit` that runs under the lock and
    ///   takes it again would trap or deadlock. The result is discardable so that such a value can
    ///   simply be ignored, and is then released after unlocking.
    @inlinable
    @discardableResult
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, lock in
            LockedState.lock(lock)
            defer { LockedState.unlock(lock) }
            return try body(&state.pointee)
        }
    }

    @usableFromInline
    static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #elseif canImport(Glibc) || canImport(Musl)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if DEBUG
        // Debug builds detect re-entry and unlock-by-another-thread instead of hanging.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let result = pthread_mutex_init(lock, &attributes)
        precondition(result == 0, "LockedState: pthread_mutex_init failed with \(result)")
        pthread_mutexattr_destroy(&attributes)
        #elseif canImport(WinSDK)
        InitializeSRWLock(lock)
        #endif
    }

    @usableFromInline
    static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Glibc) || canImport(Musl)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
    }

    @inlinable
    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #elseif canImport(Glibc) || canImport(Musl)
        let result = pthread_mutex_lock(lock)
        precondition(
            result == 0, "LockedState: lock failed with \(result); a lock was re-entered from the thread that holds it")
        #elseif canImport(WinSDK)
        AcquireSRWLockExclusive(lock)
        #endif
    }

    @inlinable
    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #elseif canImport(Glibc) || canImport(Musl)
        let result = pthread_mutex_unlock(lock)
        precondition(result == 0, "LockedState: unlock failed with \(result)")
        #elseif canImport(WinSDK)
        ReleaseSRWLockExclusive(lock)
        #endif
    }
}
