// Package column holds what both stores (store/sqlite, store/postgres)
// do alike around their columns, whatever the database:
//
//   - Time: an instant as the int64 nanoseconds a time column holds,
//     clamped to the ends of what it can hold so that order is kept.
//   - Skips: the rows a read skipped as damaged, counted, with the
//     diagnostics of the newest; a read goes on without them, since one
//     damaged row must not hide every other session.
//   - JSON: rows of (key, JSON) decoded, a damaged one skipped; so are
//     the rows of changes (Changed), markers (FoundMarkers, MarkerStates)
//     and tokens (Token, Tokens).
//   - Pushed: which records of a pushed batch are written, and which
//     refused.
//   - Resignal and Waiting: a hook's signal on a stored record, and the
//     needs-input rule a commit applies.
//   - Wrap: a driver's error as a *tally.Error naming its database.
package column
