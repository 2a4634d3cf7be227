// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// The short form `register(Cell.self)` shows every row in the cell: the cell's item type must be
// the list's element type. A cell typed on another type would never be used (its rows would trap
// at their first layout as uncovered), so it must not compile; before, it was accepted in silence
// while the long form was refused (issue 43). A heterogeneous list names the type with `for:`.

import Ripple
import RippleTesting

struct Book: Sendable {}
struct Author: Sendable {}
protocol ShelfRow: Sendable {}
struct BookRow: ShelfRow {}

final class BookCell: HeadlessCell<Book> {}
final class AuthorCell: HeadlessCell<Author> {}
final class BookRowCell: HeadlessCell<BookRow> {}

@MainActor
func registerCells(books: HeadlessTableScreen<Book>, shelf: HeadlessCollectionScreen<any ShelfRow>) {
    books.register(BookCell.self)  // fine
    // expected-error: instance method 'register(_:where:)' requires the types 'ListSource<Book>.Item' (aka 'Book') and 'Author' be equivalent
    books.register(AuthorCell.self)
    shelf.register(BookRowCell.self, for: BookRow.self)  // a heterogeneous list names the type: fine
    // expected-error: instance method 'register(_:where:)' requires the types 'ListSource<any ShelfRow>.Item' (aka 'any ShelfRow') and 'BookRow' be equivalent
    shelf.register(BookRowCell.self)
}
