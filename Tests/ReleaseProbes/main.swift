// Release probes: what an app does with Ripple, compiled as an app would be (`swiftc -O`, in a
// module of its own, against the release build of the libraries, no `-enable-testing`), each case
// in a process of its own. `.ci/release-probes` builds and runs them; a case that loses data
// exits with a message, and one that crashes fails its process.
//
// Issue 34: a release build emptied or crashed on these while every debug test passed, and the
// same cases inside the test suite, built with `-enable-testing`, did not show it.

import Ripple
import RippleDiff

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints `line` at once (a pipe would otherwise hold it until exit, out of order with the other
/// processes' lines).
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Fails the case: prints `message` and exits 1.
func fail(_ message: String) -> Never {
    say("error: \(message)")
    exit(1)
}

/// Checks that `list` holds `expected`, read every way: count, iteration, subscript and chunks.
func expect<C: Collection>(_ list: C, _ expected: [Int], _ what: String) where C.Element == Int, C.Index == Int {
    if list.count != expected.count { fail("\(what): count \(list.count), expected \(expected.count)") }
    var iterated: [Int] = []
    for value in list { iterated.append(value) }
    if iterated != expected { fail("\(what): iteration gave \(iterated.count) elements, expected \(expected.count)") }
    for offset in expected.indices where list[offset] != expected[offset] {
        fail("\(what): [\(offset)] is \(list[offset]), expected \(expected[offset])")
    }
}

/// A reference-counted element that counts its live instances.
final class Counted {
    nonisolated(unsafe) static var alive = 0
    let value: Int
    init(_ value: Int) {
        self.value = value
        Counted.alive += 1
    }
    deinit { Counted.alive -= 1 }
}

/// The snapshots a synchronous subscriber received.
final class Delivered: @unchecked Sendable {
    // Safe: written by a `.synchronous` handler, which runs on the thread that mutates, the only
    // thread of the probe, and read on it after the mutations.
    var snapshots: [ListSnapshot<Int>] = []
}

let cases: [(name: String, run: () -> Void)] = [
    (
        "ListSnapshot.remove(at:) of the last of 257",
        {
            var list = ListSnapshot(Array(0..<257))
            list.remove(at: 256)
            expect(list, Array(0..<256), "remove(at: 256)")
        }
    ),
    (
        "ListSnapshot.removeLast() of 257",
        {
            var list = ListSnapshot(Array(0..<257))
            _ = list.removeLast()
            expect(list, Array(0..<256), "removeLast()")
        }
    ),
    (
        "ListSnapshot.popLast() of 257",
        {
            var list = ListSnapshot(Array(0..<257))
            _ = list.popLast()
            expect(list, Array(0..<256), "popLast()")
        }
    ),
    (
        "ListSnapshot.removeSubrange(256..<257) of 257",
        {
            var list = ListSnapshot(Array(0..<257))
            list.removeSubrange(256..<257)
            expect(list, Array(0..<256), "removeSubrange")
        }
    ),
    (
        "ListSnapshot.replaceSubrange(256..<257, with: []) of 257",
        {
            var list = ListSnapshot(Array(0..<257))
            list.replaceSubrange(256..<257, with: [])
            expect(list, Array(0..<256), "replaceSubrange")
        }
    ),
    (
        "257 appends, then remove(at: 256)",
        {
            var list = ListSnapshot<Int>()
            for value in 0..<257 { list.append(value) }
            list.remove(at: 256)
            expect(list, Array(0..<256), "appends, remove(at: 256)")
        }
    ),
    (
        "8,447 elements, removeLast(256)",
        {
            var list = ListSnapshot(Array(0..<8_447))
            list.removeLast(256)
            expect(list, Array(0..<8_191), "removeLast(256)")
        }
    ),
    (
        "insert(contentsOf:at: 0) of 8,447, then removeAll(where:)",
        {
            var list = ListSnapshot<Int>()
            list.insert(contentsOf: Array(0..<8_447), at: 0)
            list.removeAll { $0 % 33 == 17 }
            expect(list, (0..<8_447).filter { $0 % 33 != 17 }, "removeAll(where:)")
        }
    ),
    (
        "removing from the front of 16,387 down to empty",
        {
            var list = ListSnapshot(Array(0..<16_387))
            var expected = Array(0..<16_387)
            while !list.isEmpty {
                let step = min(list.count, 97)
                list.removeSubrange(0..<step)
                expected.removeSubrange(0..<step)
                if list.count < 600 { expect(list, expected, "removeSubrange(0..<\(step)) down to \(list.count)") }
            }
        }
    ),
    (
        "class elements: released once through a collapse",
        {
            do {
                var list = ListSnapshot((0..<8_447).map(Counted.init))
                list.removeLast(256)
                list.remove(at: 0)
                if list.map(\.value) != Array(1..<8_191) { fail("class elements: the list changed") }
                if Counted.alive != 8_190 { fail("class elements: \(Counted.alive) alive, expected 8,190") }
            }
            if Counted.alive != 0 { fail("class elements: \(Counted.alive) alive after the list is gone") }
        }
    ),
    (
        "an iterator that is the only holder of its list, dropped part-way through a leaf",
        {
            var iterator = ListSnapshot(Array(0..<773)).makeIterator()
            for expected in 0..<265 where iterator.next() != expected { fail("iterator: not \(expected)") }
            var rest = 0
            while iterator.next() != nil { rest += 1 }
            if rest != 773 - 265 { fail("iterator: \(rest) elements after the first 265, expected \(773 - 265)") }
        }
    ),
    (
        "reading one element of a list nothing else holds",
        {
            for offset in [0, 256, 5_000, 10_239] where ListSnapshot(Array(0..<10_240))[offset] != offset {
                fail("subscript of a temporary at \(offset)")
            }
        }
    ),
    (
        "appends past two levels of inner nodes, each snapshot held",
        {
            // Every append finds its right edge shared with the snapshot before, so it copies the
            // inner nodes on the path (one allocation each, retaining their children).
            var list = ListSnapshot<Int>()
            var held: [ListSnapshot<Int>] = []
            for value in 0..<70_000 {
                list.append(value)
                if value % 2 == 0 { held.append(list) }
                if held.count > 4 { held.removeFirst(held.count - 4) }
            }
            list._checkInvariants()
            expect(list, Array(0..<70_000), "70,000 appends")
            for snapshot in held { expect(snapshot, Array(0..<snapshot.count), "a held snapshot") }
        }
    ),
    (
        "a shared root collapses while the other copy keeps it",
        {
            var list = ListSnapshot(Array(0..<257))
            let before = list
            list.remove(at: 256)
            list.remove(at: 0)
            expect(list, Array(1..<256), "the collapsed copy")
            expect(before, Array(0..<257), "the copy that kept the root")
            list._checkInvariants()
            before._checkInvariants()
        }
    ),
    (
        "class elements: inner nodes copied and freed release each child once",
        {
            do {
                var list = ListSnapshot((0..<20_000).map(Counted.init))
                var held = list
                for step in 0..<600 {
                    list.insert(Counted(-step), at: (step * 7_919) % list.count)
                    list.remove(at: (step * 104_729) % list.count)
                    if step % 3 == 0 { held = list }
                }
                if held.count != 20_000 { fail("class elements: a held copy of \(held.count) elements") }
                held = ListSnapshot()
                if Counted.alive != 20_000 { fail("class elements: \(Counted.alive) alive, expected 20,000") }
                list._checkInvariants()
            }
            if Counted.alive != 0 { fail("class elements: \(Counted.alive) alive after the lists are gone") }
        }
    ),
    (
        "_dump() and _checkInvariants() from an app module",
        {
            let list = ListSnapshot(Array(0..<300))
            list._checkInvariants()
            let dump = list._dump()
            let expected =
                "inner height 1, 300 elements, 2 children\n  [0] ..256 leaf 256/256\n  [1] ..300 leaf 44/256\n"
            if dump != expected { fail("_dump(): \(dump)") }
        }
    ),
    (
        "ObservableCollection.remove(at:) of the last of 257",
        {
            let rows = ObservableCollection(Array(0..<257))
            rows.remove(at: 256)
            expect(Array(rows), Array(0..<256), "ObservableCollection.remove(at: 256)")
        }
    ),
    (
        "SectionedCollection: a delivered snapshot never changes",
        {
            let collection = SectionedCollection<String, Int>([SectionData("A", items: Array(0..<257))])
            let delivered = Delivered()
            let token = collection.subscribe(on: .synchronous) { delivered.snapshots.append($0.snapshot[0].items) }
            var expected = Array(0..<257)
            var copies: [[Int]] = []
            for _ in 0..<4 {
                expected.removeLast()
                collection.removeItem(at: ElementPath(item: expected.count, section: 0))
                copies.append(expected)
            }
            expected.append(-1)
            collection.appendItem(-1, toSection: 0)
            copies.append(expected)
            token.cancel()
            if delivered.snapshots.count != copies.count {
                fail("SectionedCollection: \(delivered.snapshots.count) events")
            }
            for (snapshot, copy) in zip(delivered.snapshots, copies) { expect(snapshot, copy, "a delivered snapshot") }
        }
    ),
]

// With an argument, runs that case; without, runs each case in a process of its own.
let arguments = CommandLine.arguments
if arguments.count > 1, let index = Int(arguments[1]) {
    cases[index].run()
    exit(0)
}
var failed = 0
for (index, probe) in cases.enumerated() {
    var pid: pid_t = 0
    var argv: [UnsafeMutablePointer<CChar>?] = [strdup(arguments[0]), strdup(String(index)), nil]
    defer { for pointer in argv { free(pointer) } }
    guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { fail("posix_spawn failed") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let exited = status & 0x7f == 0
    let code = (status >> 8) & 0xff
    if exited && code == 0 {
        say("ok: \(probe.name)")
    } else {
        failed += 1
        say(exited ? "FAILED: \(probe.name) (exit \(code))" : "FAILED: \(probe.name) (signal \(status & 0x7f))")
    }
}
say("\(cases.count - failed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
