// Sendable policy: a list is Sendable when its elements are. The iterator is not Sendable (see
// ListSnapshot+Iterator.swift).
//
// @unchecked: the compiler cannot check it, because a node is a class whose memory is reached
// through `ManagedBufferPointer`, which the standard library marks as not Sendable (it gives raw
// access to that memory). Sharing a list between threads is safe all the same, because a node is
// never mutated once it is shared. A node is mutated only on the path of a mutating method of one
// `ListSnapshot` value (which the language gives exclusive access to), and only after
// `isKnownUniquelyReferenced` confirmed that this path is its sole reference: the list's one
// stored reference (its tail, or its root when it has no tail) is checked where the list holds
// it, the root of a list with a tail once it is lent out of the tail that was made unique first,
// and every other node from its parent's slot after the parent was made unique
// (`_ListInnerHandle.makeChildUnique(_:)`). A node that
// another list, iterator or thread can reach has a second reference, fails the check and is copied
// instead, so every node reachable from two places is only ever read. (The reference count is
// atomic, as for `Array`'s buffer: a reference dropped on another thread either is seen, and
// forces a copy, or was dropped before the check, and then that thread no longer reads the node.)
// No user closure is stored in a list: the conformance carries only elements, and those are
// Sendable by the `where` clause.
extension ListSnapshot: @unchecked Sendable where Element: Sendable {}
