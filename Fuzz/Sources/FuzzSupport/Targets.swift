// The fuzz targets: one C-callable function each, which libFuzzer calls once per input through the
// `LLVMFuzzerTestOneInput` of the target's `main.c`.

import RippleDiff

/// Runs `body` on one input; libFuzzer expects 0.
private func withInput(_ data: UnsafePointer<UInt8>?, _ size: Int, _ body: (inout FuzzBytes) -> Void) -> Int32 {
    var bytes = FuzzBytes(data, size)
    body(&bytes)
    return 0
}

/// Flat diff and staging: pairs of lists, with repeated identifiers or as edits of unique ones.
@_cdecl("ripple_fuzz_flat")
public func fuzzFlat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        let (source, target) = bytes.flatPair()
        fuzzTrace("\(source) → \(target)")
        checkFlat(source, target)
    }
}

/// Sectioned diff and staging: pairs of sectioned lists, with repeated identifiers at both levels
/// or as edits of unique ones.
@_cdecl("ripple_fuzz_sectioned")
public func fuzzSectioned(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        let (source, target) = bytes.sectionedPair()
        fuzzTrace("\(source) → \(target)")
        checkSectioned(source, target)
    }
}

/// Raw, possibly invalid batches of table and collection view calls, for the validator and the
/// headless views.
@_cdecl("ripple_fuzz_batch")
public func fuzzBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        let calls = bytes.rawBatch()
        // Counts a view could show (small), or any Int for the validator alone.
        let realCounts = bytes.byte() < 192
        func counts(_ bytes: inout FuzzBytes) -> [Int] {
            (0..<bytes.int(below: 4)).map { _ in realCounts ? bytes.int(below: 6) : bytes.extremeOrSmall() }
        }
        let before = counts(&bytes)
        let after = counts(&bytes)
        fuzzTrace("\(calls), before \(before), after \(after)")
        checkRawBatch(calls, before: before, after: after, countsFromViews: realCounts)
    }
}

/// `SequentialChangeset`: raw change-sets (mostly invalid), change-sets folded from origins, and
/// diffs, turned into sequential calls.
@_cdecl("ripple_fuzz_sequential")
public func fuzzSequential(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        switch bytes.int(below: 3) {
        case 0:
            let changes = bytes.rawChangeset()
            fuzzTrace("\(changes)")
            checkRawChangeset(changes)
        case 1:
            let changes = bytes.originsChangeset()
            fuzzTrace("\(changes)")
            checkRawChangeset(changes, mustBeValid: true)
        default:
            let (source, target) = bytes.flatPair()
            fuzzTrace("\(source) → \(target)")
            checkSequential(Changeset(from: source, to: target), from: source, to: target)
        }
    }
}

/// `ListSnapshot` against `Array`: operations that build lists of several levels and remove across
/// leaf and level boundaries, with copies held and re-checked (`Storage.swift`).
@_cdecl("ripple_fuzz_storage")
public func fuzzStorage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in checkStorage(&bytes) }
}
