// Package tail reads agent logs as they grow: it finds them under the
// agents' homes, reads only the bytes appended since the saved offset,
// leaves a half-written last line for the next read, notices a file that
// shrank or was replaced, and reports changes from file-system
// notifications (fsnotify), with a periodic scan as the safety net for the
// notifications it misses. A directory holding one list as many small
// files (tally.LayoutDirectory) is versioned by its member files' names,
// sizes and times (StatDir).
//
// Only regular files are opened, and never with a wait: a named pipe
// where a log would be is refused before and after opening. Links are
// followed, to directories (a home kept on another disk) and to logs kept
// elsewhere; a file reached by several names has one, decided by Names for
// the walk and the watcher alike, so a notification and a scan name it the
// same way. A directory that cannot be listed is reported, not skipped in
// silence.
//
// It knows nothing of formats: bytes go to a tally.Decoder through
// tally.FileState.Feed.
package tail
