import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Measures how far a piece of work raises the process's peak resident memory, where the platform
/// tells (Linux: `/proc/self/status`, with the peak reset through `/proc/self/clear_refs`).
///
/// Free heap memory is returned to the system first (`malloc_trim`), so that the work's
/// allocations show up as new resident pages instead of reusing pages that are already counted.
enum MemoryProbe {
    /// The bytes by which the peak resident set rose above the resident set before `work`, or
    /// `nil` where the platform does not tell (`work` still runs).
    static func peakGrowth(_ work: () -> Void) -> Int? {
        #if os(Linux)
        trimHeap()
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil,
            let before = statusBytes("VmRSS")
        else {
            work()
            return nil
        }
        work()
        return statusBytes("VmHWM").map { $0 - before }
        #else
        work()
        return nil
        #endif
    }

    /// The bytes by which the resident set grew across `work`, with what `work` made still alive
    /// (free heap memory returned to the system before and after), or `nil` where the platform
    /// does not tell (`work` still runs).
    static func heldGrowth(_ work: () -> Void) -> Int? {
        #if os(Linux)
        trimHeap()
        guard let before = statusBytes("VmRSS") else {
            work()
            return nil
        }
        work()
        trimHeap()
        return statusBytes("VmRSS").map { $0 - before }
        #else
        work()
        return nil
        #endif
    }

    /// Calls glibc's `malloc_trim(0)`, which the `Glibc` module does not export.
    private static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
        #endif
    }

    /// A `kB` line of `/proc/self/status`, in bytes.
    private static func statusBytes(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }
}
