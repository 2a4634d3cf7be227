// Ripple's public API is built on RippleDiff's types: `ElementPath` (item events, `cellSize(at:)`,
// `moveItem(from:to:)`), `Changeset` and `StagedChangeset` (collection events), `SectionedChangeset`
// and the identity protocols. Re-exporting the module lets `import Ripple` alone reach every type
// Ripple's API uses, instead of a "cannot find type 'ElementPath' in scope" with no hint that
// another import is needed. RippleDiff stays a product of its own for code that wants only the diff.
@_exported import RippleDiff
