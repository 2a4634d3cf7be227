/// Which elements of a list pass a filter, in list order, with the counts that map a list offset to
/// its offset among the passing elements: what a filtered list keeps of its source.
///
/// The flags are bits in chunks of at most ``chunkCapacity``, and two Fenwick trees over the chunks
/// count their flags and their passes. Finding an offset's chunk and counting the passes before it
/// is a descent of the trees plus a count inside one chunk.
///
/// - Complexity: Reads, inserts, removals and ``rank(of:)`` cost O(log *n* + *c*/64) for *n* flags
///   in chunks of *c*; a chunk that splits or empties rebuilds the trees, in O(*n*/*c*), at most
///   once per *c*/2 inserts or removals.
struct PassCounts: Sendable {
    /// The most flags a chunk holds; a fuller one splits in two halves.
    static let chunkCapacity = 2_048

    /// A run of consecutive flags.
    private struct Chunk: Sendable {
        /// The flags, 64 to a word, the first flag in the lowest bit of the first word.
        var words: [UInt64]
        /// How many flags the chunk holds.
        var count: Int
        /// How many of them pass.
        var passes: Int

        init(_ flags: some Collection<Bool>) {
            words = Array(repeating: 0, count: (flags.count + 63) / 64)
            count = 0
            passes = 0
            for flag in flags {
                if flag {
                    words[count >> 6] |= 1 << UInt64(count & 63)
                    passes += 1
                }
                count += 1
            }
        }

        subscript(offset: Int) -> Bool { words[offset >> 6] & (1 << UInt64(offset & 63)) != 0 }

        /// The passes before `offset`.
        func passes(before offset: Int) -> Int {
            var total = 0
            for word in 0..<(offset >> 6) { total += words[word].nonzeroBitCount }
            let bits = offset & 63
            if bits > 0 { total += (words[offset >> 6] & ((1 << UInt64(bits)) - 1)).nonzeroBitCount }
            return total
        }

        /// Inserts `flag` at `offset`, shifting the flags after it up by one.
        mutating func insert(_ flag: Bool, at offset: Int) {
            if count == words.count * 64 { words.append(0) }
            var word = offset >> 6
            let bit = UInt64(offset & 63)
            // The flag that leaves each word through its top goes into the next word's bottom.
            var carry = words[word] >> 63
            let low = bit == 0 ? 0 : words[word] & ((1 << bit) - 1)
            let high = bit == 0 ? words[word] : words[word] & ~((1 << bit) - 1)
            words[word] = low | (high << 1) | (flag ? 1 << bit : 0)
            word += 1
            while word < words.count {
                let next = words[word] >> 63
                words[word] = (words[word] << 1) | carry
                carry = next
                word += 1
            }
            count += 1
            if flag { passes += 1 }
        }

        /// Removes the flag at `offset`, shifting the flags after it down by one; returns it.
        mutating func remove(at offset: Int) -> Bool {
            let flag = self[offset]
            var word = words.count - 1
            var carry: UInt64 = 0
            let target = offset >> 6
            while word > target {
                let next = words[word] & 1
                words[word] = (words[word] >> 1) | (carry << 63)
                carry = next
                word -= 1
            }
            let bit = UInt64(offset & 63)
            let low = bit == 0 ? 0 : words[target] & ((1 << bit) - 1)
            let high = bit == 63 ? 0 : (words[target] >> (bit + 1)) << bit
            words[target] = low | high | (carry << 63)
            count -= 1
            if flag { passes -= 1 }
            return flag
        }

        /// Sets the flag at `offset`; returns the old one.
        mutating func set(_ flag: Bool, at offset: Int) -> Bool {
            let old = self[offset]
            guard old != flag else { return old }
            words[offset >> 6] ^= 1 << UInt64(offset & 63)
            passes += flag ? 1 : -1
            return old
        }

        /// The flags, in order.
        var flags: [Bool] { (0..<count).map { self[$0] } }
    }

    /// A Fenwick tree of counts, one per chunk.
    private struct Counts: Sendable {
        /// 1-based; `tree[i]` sums the counts of chunks `i - (i & -i) ..< i`.
        private var tree: [Int]

        init(_ counts: some Collection<Int>) {
            tree = [0] + counts
            for index in 1..<tree.count {
                let parent = index + (index & -index)
                if parent < tree.count { tree[parent] += tree[index] }
            }
        }

        /// Adds `delta` to chunk `chunk`'s count.
        mutating func add(_ delta: Int, at chunk: Int) {
            var index = chunk + 1
            while index < tree.count {
                tree[index] += delta
                index += index & -index
            }
        }

        /// The sum of the counts of the chunks before `chunk`.
        func sum(before chunk: Int) -> Int {
            var total = 0
            var index = chunk
            while index > 0 {
                total += tree[index]
                index -= index & -index
            }
            return total
        }

        /// The chunk that holds position `offset` of the counted sequence (the last chunk when
        /// `offset` is its end), and the counts before it.
        func chunk(holding offset: Int) -> (chunk: Int, before: Int) {
            var index = 0
            var before = 0
            var step = 1
            while step * 2 < tree.count { step *= 2 }
            while step > 0 {
                let next = index + step
                if next < tree.count && before + tree[next] <= offset {
                    index = next
                    before += tree[next]
                }
                step /= 2
            }
            // `index` chunks end at or before `offset`: it is in chunk `index`, unless that is
            // past the last chunk (then `offset` is the end of the sequence).
            if index == tree.count - 1 && index > 0 { return (index - 1, sum(before: index - 1)) }
            return (index, before)
        }
    }

    private var chunks: [Chunk]
    private var sizes: Counts
    private var passCounts: Counts

    /// The number of flags.
    private(set) var count: Int

    /// The number of flags that pass.
    private(set) var passCount: Int

    /// Flags for `flags`, in order.
    ///
    /// - Complexity: O(*n*).
    init(_ flags: some Sequence<Bool>) {
        let all = Array(flags)
        let half = Self.chunkCapacity / 2
        chunks = stride(from: 0, to: all.count, by: half).map { Chunk(all[$0..<min($0 + half, all.count)]) }
        sizes = Counts(chunks.map(\.count))
        passCounts = Counts(chunks.map(\.passes))
        count = all.count
        passCount = chunks.reduce(0) { $0 + $1.passes }
    }

    /// Every flag, in order.
    ///
    /// - Complexity: O(*n*).
    var flags: [Bool] { chunks.flatMap(\.flags) }

    /// The flag at `offset`.
    subscript(offset: Int) -> Bool {
        let (chunk, before) = sizes.chunk(holding: offset)
        return chunks[chunk][offset - before]
    }

    /// The number of passing flags before `offset`, in `0...count`: the offset among the passing
    /// elements that the element at `offset` has if it passes, or that one inserted there gets.
    func rank(of offset: Int) -> Int {
        guard offset < count else { return passCount }
        let (chunk, before) = sizes.chunk(holding: offset)
        return passCounts.sum(before: chunk) + chunks[chunk].passes(before: offset - before)
    }

    /// The flag at `offset`, in `0..<count`, and ``rank(of:)`` of it, in one descent.
    func flagAndRank(at offset: Int) -> (passes: Bool, rank: Int) {
        let (chunk, before) = sizes.chunk(holding: offset)
        let local = offset - before
        return (chunks[chunk][local], passCounts.sum(before: chunk) + chunks[chunk].passes(before: local))
    }

    /// Inserts `flag` at `offset`, in `0...count`.
    mutating func insert(_ flag: Bool, at offset: Int) {
        count += 1
        if flag { passCount += 1 }
        guard !chunks.isEmpty else {
            chunks = [Chunk([flag])]
            rebuildCounts()
            return
        }
        let (chunk, before) = sizes.chunk(holding: offset)
        chunks[chunk].insert(flag, at: offset - before)
        if chunks[chunk].count > Self.chunkCapacity {
            let flags = chunks[chunk].flags
            let half = flags.count / 2
            chunks[chunk] = Chunk(flags[..<half])
            chunks.insert(Chunk(flags[half...]), at: chunk + 1)
            rebuildCounts()
        } else {
            sizes.add(1, at: chunk)
            if flag { passCounts.add(1, at: chunk) }
        }
    }

    /// Removes the flag at `offset`, in `0..<count`, and returns it.
    @discardableResult
    mutating func remove(at offset: Int) -> Bool {
        let (chunk, before) = sizes.chunk(holding: offset)
        let flag = chunks[chunk].remove(at: offset - before)
        count -= 1
        if flag { passCount -= 1 }
        if chunks[chunk].count == 0 {
            chunks.remove(at: chunk)
            rebuildCounts()
        } else {
            sizes.add(-1, at: chunk)
            if flag { passCounts.add(-1, at: chunk) }
        }
        return flag
    }

    /// Sets the flag at `offset`, in `0..<count`, and returns the old one.
    @discardableResult
    mutating func set(_ flag: Bool, at offset: Int) -> Bool {
        let (chunk, before) = sizes.chunk(holding: offset)
        let old = chunks[chunk].set(flag, at: offset - before)
        if old != flag {
            passCount += flag ? 1 : -1
            passCounts.add(flag ? 1 : -1, at: chunk)
        }
        return old
    }

    /// Rebuilds both trees after chunks came or went.
    private mutating func rebuildCounts() {
        sizes = Counts(chunks.map(\.count))
        passCounts = Counts(chunks.map(\.passes))
    }
}
