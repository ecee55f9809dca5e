// Package tail reads agent logs as they grow: it finds them under the
// agents' homes, reads only the bytes appended since the saved offset,
// leaves a half-written last line for the next read, notices a file that
// shrank or was replaced, and reports changes from file-system
// notifications (fsnotify), with a periodic scan as the safety net for the
// notifications it misses.
//
// It knows nothing of formats: bytes go to a tally.Decoder through
// tally.FileState.Feed.
package tail
