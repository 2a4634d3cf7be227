import RippleDiff

/// An element of 320 bytes: `ListSnapshot` puts 16 in a leaf (its floor), so a few hundred make
/// a tree of three levels and 16,385 one of four, within a fuzz input's reach.
struct Wide: Equatable {
    var value: Int
    var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    var more:
        (
            Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
            Int, Int, Int, Int, Int
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    init(_ value: Int) { self.value = value }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}

/// Reads the input as operations on a `ListSnapshot` and on an `Array` of the same values, and
/// checks after each that the two agree, and at the end that every copy held along the way still
/// equals the array copy of its moment.
///
/// The first byte picks the element: `Int` (256 to a leaf) or `Wide` (16 to a leaf). Builds take
/// up to 76,500 elements, past the 65,536 `Int`s of a third level, and removals of a leaf's worth
/// from the end or the front cross leaf and level boundaries.
func checkStorage(_ bytes: inout FuzzBytes) {
    if bytes.byte() % 2 == 0 {
        checkStorage(&bytes, leaf: 256, make: { $0 }, value: { $0 })
    } else {
        checkStorage(&bytes, leaf: 16, make: Wide.init, value: \.value)
    }
}

/// `leaf` is the number of elements in a leaf (`ListSnapshot`'s 4 KiB, 16 to 256 elements): the
/// sizes and removals are drawn around its multiples.
private func checkStorage<E>(_ bytes: inout FuzzBytes, leaf: Int, make: (Int) -> E, value: (E) -> Int) {
    var list = ListSnapshot<E>()
    var model: [Int] = []
    var held: [(ListSnapshot<E>, [Int])] = []
    var next = 0
    func fresh(_ count: Int) -> [Int] {
        defer { next += count }
        return Array(next..<(next + count))
    }
    func agree(_ list: ListSnapshot<E>, _ model: [Int], _ what: String) {
        fuzzCheck(list.count == model.count, "\(what): count \(list.count), expected \(model.count)")
        var offset = 0
        for element in list {
            fuzzCheck(
                value(element) == model[offset], "\(what): [\(offset)] is \(value(element)), expected \(model[offset])")
            offset += 1
        }
        fuzzCheck(offset == model.count, "\(what): iteration stopped after \(offset) of \(model.count)")
    }

    var steps = 0
    while !bytes.isExhausted && steps < 64 {
        steps += 1
        let count = model.count
        let operation: String
        switch bytes.int(below: 12) {
        case 0:
            // A build: around a leaf or level boundary, or any size up to 76,500.
            let size: Int
            switch bytes.int(below: 4) {
            case 0: size = leaf * bytes.int(in: 1...3) + bytes.int(in: 0...2) - 1
            case 1: size = 32 * leaf * bytes.int(in: 1...2) + bytes.int(in: 0...2) - 1
            case 2: size = bytes.int(below: 256) * 300
            default: size = bytes.int(below: 1_000)
            }
            model = fresh(size)
            list = ListSnapshot(model.map(make))
            operation = "build \(size)"
        case 1:
            let values = fresh(bytes.int(below: 3 * leaf))
            list.append(contentsOf: values.map(make))
            model.append(contentsOf: values)
            operation = "append \(values.count)"
        case 2:
            let offset = bytes.int(in: 0...count)
            let value = fresh(1)[0]
            list.insert(make(value), at: offset)
            model.insert(value, at: offset)
            operation = "insert at \(offset)"
        case 3 where count > 0:
            let offset = bytes.chance(128) ? count - 1 : bytes.int(below: count)
            let removed = value(list.remove(at: offset))
            let expected = model.remove(at: offset)
            fuzzCheck(removed == expected, "remove(at: \(offset)) returned \(removed), expected \(expected)")
            operation = "remove at \(offset)"
        case 4 where count > 0:
            let removing = Swift.min(count, bytes.int(in: 1...(leaf + 2)))
            list.removeLast(removing)
            model.removeLast(removing)
            operation = "removeLast(\(removing))"
        case 5 where count > 0:
            let removing = Swift.min(count, bytes.int(in: 1...(leaf + 2)))
            list.removeFirst(removing)
            model.removeFirst(removing)
            operation = "removeFirst(\(removing))"
        case 6:
            let lower = bytes.int(in: 0...count)
            let length = Swift.min(count - lower, bytes.int(below: 4 * leaf))
            let values = fresh(bytes.int(below: 2 * leaf))
            list.replaceSubrange(lower..<(lower + length), with: values.map(make))
            model.replaceSubrange(lower..<(lower + length), with: values)
            operation = "replaceSubrange(\(lower)..<\(lower + length), with: \(values.count))"
        case 7 where count > 0:
            let source = bytes.int(below: count)
            let destination = bytes.int(below: count)
            list.move(fromOffset: source, toOffset: destination)
            model.insert(model.remove(at: source), at: destination)
            operation = "move(fromOffset: \(source), toOffset: \(destination))"
        case 8 where count > 0:
            let offset = bytes.int(below: count)
            let value = fresh(1)[0]
            list[offset] = make(value)
            model[offset] = value
            operation = "[\(offset)] = \(value)"
        case 9 where count > 0:
            let modulus = bytes.int(in: 2...40)
            list.removeAll { value($0) % modulus == 1 }
            model.removeAll { $0 % modulus == 1 }
            operation = "removeAll(where: % \(modulus) == 1)"
        case 10:
            held.append((list, model))
            operation = "hold a copy"
        default:
            continue
        }
        agree(list, model, "after \(operation)")
    }
    list._checkInvariants()
    for (index, (copy, copyModel)) in held.enumerated() {
        copy._checkInvariants()
        agree(copy, copyModel, "held copy \(index)")
    }
}
