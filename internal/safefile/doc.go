// Package safefile opens the files Tally reads and writes in places a
// hostile party may have shaped: a project's plan folder (a cloned
// repository can hold links, an agent can make a FIFO), an agent's
// settings, Tally's own log.
//
// What it promises:
//
//   - A Dir is opened from a root the caller trusts, one name at a time,
//     never following a link (openat with O_NOFOLLOW, so a name swapped
//     for a link between a check and a use is refused too); each folder on
//     the way must be a folder owned by the user running Tally that no
//     other user can write (a folder another user can write is one where
//     they can put a link or a FIFO at any moment).
//   - A file is opened in its Dir without following a link and without
//     waiting (O_NONBLOCK: a FIFO opens at once instead of waiting for a
//     writer), then checked on the open descriptor: it must be a regular
//     file owned by the user. A FIFO, a device, a socket, a link and
//     another user's file are refused with ErrRefused, naming the path
//     and why, and are never read or written.
//   - WriteAtomic replaces a file by a new one (a temporary file in the
//     same folder, synced, renamed over the name, the folder synced), so a
//     link at the name is never written through; a name that holds
//     anything but a regular file of the user's is refused, not replaced.
//     Append refuses a file with more than one name (a hard link), which
//     appending would write through.
//   - OpenRegular is for a path a person gave (a settings file a dotfiles
//     manager links): links are followed, but only a regular file is
//     opened, never with a wait.
//
// Off Unix (Windows), the same checks are made by path, which a name
// swapped between the check and the use can defeat; owners are not
// checked there.
package safefile
