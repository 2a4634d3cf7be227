// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// Headers and footers map to sections one way, typed, as cells map to rows (issue 46): the short
// form `register(header: View.self)` shows every section in the view, so the view's item type must
// be the section type. A header typed on another type would never show; it must not compile. A
// view for a subclass of the section type names it with `for:`.

import Ripple
import RippleTesting

class Shelf: @unchecked Sendable {}
final class FeaturedShelf: Shelf, @unchecked Sendable {}
struct Author: Sendable {}
struct Book: Sendable {}

final class ShelfHeader: HeadlessCell<Shelf> {}
final class FeaturedShelfHeader: HeadlessCell<FeaturedShelf> {}
final class AuthorFooter: HeadlessCell<Author> {}

@MainActor
func registerHeaders(shelves: HeadlessTableScreenWithSection<Shelf, Book>) {
    shelves.register(header: ShelfHeader.self)  // fine
    shelves.register(header: FeaturedShelfHeader.self, for: FeaturedShelf.self)  // a subclass names its type: fine
    // expected-error: instance method 'register(header:where:)' requires that 'ListSourceWithSection<Shelf, Book>' inherit from 'ListSourceWithSection<FeaturedShelf, Book>'
    shelves.register(header: FeaturedShelfHeader.self)
    // expected-error: instance method 'register(footer:where:)' requires that 'ListSourceWithSection<Shelf, Book>' inherit from 'ListSourceWithSection<Author, Book>'
    shelves.register(footer: AuthorFooter.self)
}
