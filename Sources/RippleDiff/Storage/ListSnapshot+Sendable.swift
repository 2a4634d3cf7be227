// Sendable policy: a list is Sendable when its elements are (declared in ListSnapshot.swift, as
// the compiler requires of a checked conformance), because its nodes are (below). The iterator is
// not Sendable (see ListSnapshot+Collection.swift).

// @unchecked: a node has mutable stored properties, yet it is safe to share between threads
// because it is never mutated once it is shared. A node is mutated only on the path of a
// mutating method of one `ListSnapshot` value (which the language gives exclusive access to),
// and only after `isKnownUniquelyReferenced` confirmed that this path is its sole reference: the
// root is checked from the list's own stored property, and every other node from its parent's
// `children` array after the parent was made unique (`_Node._uniqueChild(_:)`). A node that
// another list, iterator or thread can reach has a second reference, fails the check and is copied
// instead, so every node reachable from two places is only ever read. (The reference count is
// atomic, as for `Array`'s buffer: a reference dropped on another thread either is seen, and
// forces a copy, or was dropped before the check, and then that thread no longer reads the node.)
// The arrays inside a node follow `Array`'s own copy-on-write. The elements themselves are
// Sendable by the `where` clause.
extension ListSnapshot._Node: @unchecked Sendable where Element: Sendable {}
