//go:build unix

package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// nonblock makes opening a FIFO return at once.
const nonblock = unix.O_NONBLOCK

// Dir is a folder opened by OpenDir: every name below it is reached from
// its descriptor, so the folder cannot be swapped for a link under Tally.
type Dir struct {
	fd   int
	path string
}

func openRoot(root string) (*Dir, error) {
	fd, err := retry(func() (int, error) {
		return unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if errors.Is(err, unix.ENOTDIR) {
		return nil, refused(root, reasonNotDir)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	d := &Dir{fd: fd, path: root}
	if err := d.checkSelf(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Dir opens the folder name in d, without following a link; create makes
// it (mode 0755) if it is missing.
func (d *Dir) Dir(name string, create bool) (*Dir, error) {
	if err := checkName(d, name); err != nil {
		return nil, err
	}
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	open := func() (int, error) { return retry(func() (int, error) { return unix.Openat(d.fd, name, flags, 0) }) }
	fd, err := open()
	if errors.Is(err, unix.ENOENT) && create {
		if err = unix.Mkdirat(d.fd, name, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
			fd, err = open()
		}
	}
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return nil, refused(d.join(name), d.reasonOf(name, reasonNotDir))
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.join(name), Err: err}
	}
	sub := &Dir{fd: fd, path: d.join(name)}
	if err := sub.checkSelf(); err != nil {
		sub.Close()
		return nil, err
	}
	return sub, nil
}

// checkSelf checks the opened folder: the user's, and no other user's to
// write in.
func (d *Dir) checkSelf() error {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: d.path, Err: err}
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return refused(d.path, reasonNotDir)
	case int(st.Uid) != os.Geteuid():
		return refused(d.path, reasonOwner)
	case st.Mode&0o002 != 0, st.Mode&0o020 != 0 && int(st.Gid) != os.Getegid():
		return refused(d.path, reasonWritable)
	}
	return nil
}

// reasonOf says why name in d could not be opened as what was wanted:
// a link, or what it is instead (dflt when that says nothing more).
func (d *Dir) reasonOf(name, dflt string) string {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		return notRegular(modeOf(uint32(st.Mode)))
	}
	return dflt
}

func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFCHR:
		return fs.ModeCharDevice | fs.ModeDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFREG:
		return 0
	}
	return fs.ModeIrregular
}

// checkFile checks a file's stat: a regular file of the user's, with one
// name when single is set.
func checkFile(path string, st *unix.Stat_t, single bool) error {
	switch {
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		// Not a hazard, a mistake: a folder cannot be written through,
		// and opening it waits on nothing.
		return &fs.PathError{Op: "open", Path: path, Err: unix.EISDIR}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return refused(path, notRegular(modeOf(uint32(st.Mode))))
	case int(st.Uid) != os.Geteuid():
		return refused(path, reasonOwner)
	case single && st.Nlink > 1:
		return refused(path, reasonLinks)
	}
	return nil
}

// stat is name's stat in d, not following a link.
func (d *Dir) stat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return st, &fs.PathError{Op: "stat", Path: d.join(name), Err: err}
	}
	return st, nil
}

// openFile opens name in d with flags, never following a link or waiting
// on a FIFO, and checks what was opened (see checkFile).
func (d *Dir) openFile(name string, flags int, perm uint32, single bool) (*os.File, error) {
	if err := checkName(d, name); err != nil {
		return nil, err
	}
	st, err := d.stat(name)
	switch {
	case err == nil:
		if err := checkFile(d.join(name), &st, single); err != nil {
			return nil, err
		}
	case !errors.Is(err, fs.ErrNotExist) || flags&unix.O_CREAT == 0:
		return nil, err
	}
	fd, err := retry(func() (int, error) {
		return unix.Openat(d.fd, name, flags|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, perm)
	})
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENXIO) {
		return nil, refused(d.join(name), d.reasonOf(name, reasonLink))
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.join(name), Err: err}
	}
	if err := unix.Fstat(fd, &st); err == nil {
		err = checkFile(d.join(name), &st, single)
		if err == nil {
			err = unix.SetNonblock(fd, false)
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), d.join(name)), nil
}

// Open opens name in d for reading: a regular file of the user's, reached
// without following a link and opened without waiting.
func (d *Dir) Open(name string) (*os.File, error) {
	return d.openFile(name, unix.O_RDONLY, 0, false)
}

// OpenOwn opens name in d for reading, as Open, when it is a file Tally
// writes in place (see Append): it must also have no other name.
func (d *Dir) OpenOwn(name string) (*os.File, error) {
	return d.openFile(name, unix.O_RDONLY, 0, true)
}

// Append opens name in d for appending (and reading), creating it with
// perm if it is missing: a regular file of the user's with no other name.
func (d *Dir) Append(name string, perm fs.FileMode) (*os.File, error) {
	return d.openFile(name, unix.O_RDWR|unix.O_APPEND|unix.O_CREAT, uint32(perm.Perm()), true)
}

// TempSuffix ends the name of a file WriteAtomic is writing; RemoveTemps
// removes what a crashed writer left.
const TempSuffix = ".tally-tmp"

// WriteAtomic replaces name in d with data: a temporary file in d,
// synced, renamed over name, then d synced. The file keeps its
// permissions (perm when it is new). A name holding anything but a
// regular file of the user's is refused.
func (d *Dir) WriteAtomic(name string, data []byte, perm fs.FileMode) error {
	if err := checkName(d, name); err != nil {
		return err
	}
	st, err := d.stat(name)
	switch {
	case err == nil:
		if err := checkFile(d.join(name), &st, false); err != nil {
			return err
		}
		perm = fs.FileMode(st.Mode).Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	tmp := "." + name + "." + hex.EncodeToString(b[:]) + TempSuffix
	fd, err := retry(func() (int, error) {
		return unix.Openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	})
	if err != nil {
		return &fs.PathError{Op: "create", Path: d.join(tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.join(tmp))
	fail := func(err error) error {
		f.Close()
		unix.Unlinkat(d.fd, tmp, 0) //nolint:errcheck // best effort: RemoveTemps clears it later
		return err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		unix.Unlinkat(d.fd, tmp, 0) //nolint:errcheck
		return err
	}
	if err := unix.Renameat(d.fd, tmp, d.fd, name); err != nil {
		unix.Unlinkat(d.fd, tmp, 0) //nolint:errcheck
		return &fs.PathError{Op: "rename", Path: d.join(name), Err: err}
	}
	return d.Sync()
}

// Sync makes d's entries durable (a rename in it, say).
func (d *Dir) Sync() error { return unix.Fsync(d.fd) }

// ReadDir lists d's entries (links as links).
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	fd, err := retry(func() (int, error) {
		return unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.ReadDir(-1)
}

// RemoveTemps removes the temporary files a crashed WriteAtomic left in d.
func (d *Dir) RemoveTemps() {
	des, err := d.ReadDir()
	if err != nil {
		return
	}
	for _, de := range des {
		if n := de.Name(); strings.HasPrefix(n, ".") && strings.HasSuffix(n, TempSuffix) && de.Type().IsRegular() {
			unix.Unlinkat(d.fd, n, 0) //nolint:errcheck // a temporary file is never read
		}
	}
}

// Exists tells whether name in d is there, whatever it is.
func (d *Dir) Exists(name string) bool {
	_, err := d.stat(name)
	return err == nil
}

// ErrLocked is TryLock's answer when another holds the lock.
var ErrLocked = errors.New("locked")

// TryLock takes an exclusive flock on d itself, or returns ErrLocked.
func (d *Dir) TryLock() error {
	err := unix.Flock(d.fd, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// Unlock lets go of TryLock's lock (closing d does too).
func (d *Dir) Unlock() { unix.Flock(d.fd, unix.LOCK_UN) } //nolint:errcheck // closing releases it too

// Close closes d.
func (d *Dir) Close() error {
	if d == nil || d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// checkName refuses a name that is not one entry of d.
func checkName(d *Dir, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		return refused(d.join(name), reasonOutside+" ("+d.path+")")
	}
	return nil
}

// retry runs an open again while a signal interrupts it.
func retry(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// AppendPath opens path for appending, creating it with perm: the last
// name is not followed if it is a link, a FIFO is not waited on, and only
// a regular file of the user's is opened. It is for Tally's own files
// (its log) in a folder the user named.
func AppendPath(path string, perm fs.FileMode) (*os.File, error) {
	fd, err := retry(func() (int, error) {
		return unix.Open(path, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, uint32(perm.Perm()))
	})
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENXIO) {
		reason := reasonLink
		if errors.Is(err, unix.ENXIO) {
			reason = notRegular(fs.ModeNamedPipe)
		}
		return nil, refused(path, reason)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err = unix.Fstat(fd, &st); err == nil {
		if err = checkFile(path, &st, false); err == nil {
			err = unix.SetNonblock(fd, false)
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}
