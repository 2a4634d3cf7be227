/// The bytes of one fuzz input, read front to back as small numbers. Reading past the end gives
/// zeros, so every input, however short, describes some case.
struct FuzzBytes {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// Wraps the bytes libFuzzer hands to a target; valid for the length of one call.
    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// Whether every byte has been read.
    var isExhausted: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    /// A number in `0..<bound`: one byte for bounds up to 256, two above.
    mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "FuzzBytes.int(below:): bound \(bound) must be positive")
        let raw = bound <= 256 ? byte() : byte() << 8 | byte()
        return raw % bound
    }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// `true` with probability `numerator / 256`.
    mutating func chance(_ numerator: Int) -> Bool { byte() < numerator }

    /// A value of `Int` near an edge or small: the extremes, around zero, or a small count. For
    /// inputs that must never trap on arithmetic.
    mutating func extremeOrSmall() -> Int {
        let picks = [Int.min, Int.min + 1, -2, -1, Int.max - 1, Int.max]
        let choice = byte()
        return choice < picks.count * 8 ? picks[choice % picks.count] : choice % 12
    }
}

/// Fails the fuzz input: prints `message` and traps, which libFuzzer records as a crash together
/// with the input that caused it.
func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz check failed: \(message())", file: file, line: line)
}

/// Fails the fuzz input when `condition` is false.
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fuzzFailure(message(), file: file, line: line) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `RIPPLE_FUZZ_PRINT` is set: each case is then printed before it runs, so that a crash
/// the checks do not catch (an AddressSanitizer report, a trap) can be read as a case too.
private let printsCases = getenv("RIPPLE_FUZZ_PRINT") != nil

/// Prints `description` to standard error when `RIPPLE_FUZZ_PRINT` is set.
func fuzzTrace(_ description: @autoclosure () -> String) {
    guard printsCases else { return }
    var line = "fuzz case: \(description())\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
