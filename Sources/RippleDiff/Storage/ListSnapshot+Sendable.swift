// Sendable policy: a list is Sendable when its elements are. The iterator is not Sendable (see
// ListSnapshot+Collection.swift).
//
// @unchecked: the compiler cannot check it, because a node is a `ManagedBuffer`, which the
// standard library marks as not Sendable (it gives raw access to its memory). Sharing a list
// between threads is safe all the same, because a node is never mutated once it is shared. A node
// is mutated only on the path of a mutating method of one `ListSnapshot` value (which the language
// gives exclusive access to), and only after `isKnownUniquelyReferenced` confirmed that this path
// is its sole reference: the root is checked from the list's own stored property, and every other
// node from its parent's `children` array after the parent was made unique
// (`_Node._uniqueChild(_:)`). A node that another list, iterator or thread can reach has a second
// reference, fails the check and is copied instead, so every node reachable from two places is
// only ever read. (The reference count is atomic, as for `Array`'s buffer: a reference dropped on
// another thread either is seen, and forces a copy, or was dropped before the check, and then that
// thread no longer reads the node.) The arrays in an inner node's header follow `Array`'s own
// copy-on-write. No user closure is stored in a list: the conformance carries only elements, and
// those are Sendable by the `where` clause.
extension ListSnapshot: @unchecked Sendable where Element: Sendable {}
