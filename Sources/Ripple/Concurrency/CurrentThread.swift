#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling thread, as a key for bookkeeping by thread (a command's sync runs nested on one
/// thread). Never dereferenced.
enum CurrentThread {
    /// The calling thread's `pthread_self()`, as a number: unique among the threads alive now.
    static var id: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
