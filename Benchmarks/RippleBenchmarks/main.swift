import RippleDiff
struct A: Identifiable, Equatable { var id: Int; var v: Int }
struct B: Identifiable, Hashable { var id: Int; var v: Int }
final class C {}
final class D: Identifiable { let id: Int; init(_ i: Int) { id = i } }
final class E: Identifiable, Equatable { let id: Int; var v = 0; init(_ i: Int) { id = i }; static func == (l: E, r: E) -> Bool { l.v == r.v } }
final class F: Hashable { static func == (l: F, r: F) -> Bool { true }; func hash(into h: inout Hasher) {} }
final class G: Identifiable, Hashable { let id: Int; init(_ i: Int) { id = i }; static func == (l: G, r: G) -> Bool { true }; func hash(into h: inout Hasher) {} }
print(Changeset(from: [A(id: 1, v: 1), A(id: 2, v: 2)], to: [A(id: 2, v: 3), A(id: 1, v: 1)]))
print(Changeset(from: [B(id: 1, v: 1), B(id: 2, v: 2)], to: [B(id: 2, v: 3), B(id: 1, v: 1)]))
let c1 = C(), c2 = C()
print(Changeset(from: [c1, c2], to: [c2]))
print(Changeset(from: [D(1), D(2)], to: [D(2)]))
print(Changeset(from: [E(1), E(2)], to: [E(2)]))
print(Changeset(from: [F(), F()], to: [F()]))
print(Changeset(from: [G(1), G(2)], to: [G(2)]))
print(Changeset(from: ["a", "a", "b"], to: ["b", "a", "a", "a"]))
print(StagedChangeset(from: [A(id: 1, v: 1), A(id: 2, v: 2), A(id: 3, v: 2)], to: [A(id: 3, v: 3), A(id: 1, v: 1), A(id: 2, v: 5)]))
