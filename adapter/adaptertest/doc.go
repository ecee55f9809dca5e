// Package adaptertest is the suite every adapter passes: the properties the
// rest of Tally relies on, checked the same way for every format (the
// litestream pattern: one contract, one suite, many implementations).
//
// What it promises:
//
//   - Run checks one file against the contract of a line reader: replay,
//     resume from saved decoder state, duplicated and malformed lines,
//     bytes that are not UTF-8, a file cut mid-line (see Run).
//   - Fuzz feeds an adapter arbitrary bytes: it never panics, consumes
//     every complete line, and leaves a state that encodes.
//   - Fold and Folder fold a file the way the indexer does (through
//     tally.FileState.Feed), so an adapter's tests see what a user would.
package adaptertest
