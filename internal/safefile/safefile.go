package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrRefused is what every refusal wraps: errors.Is(err, ErrRefused).
var ErrRefused = errors.New("refused")

// RefusedError says which path was refused and why, in words a person can
// act on: "docs/por/ledger.jsonl is a symbolic link".
type RefusedError struct {
	Path   string
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s %s: Tally does not read or write it", e.Path, e.Reason)
}

func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

func refused(path, reason string) error { return &RefusedError{Path: path, Reason: reason} }

// Reasons, shared by both implementations.
const (
	reasonLink     = "is a symbolic link"
	reasonNotDir   = "is not a folder"
	reasonOwner    = "belongs to another user"
	reasonWritable = "is a folder other users can write to"
	reasonLinks    = "has other names (hard links)"
	reasonOutside  = "is outside the folder it must be in"
)

// notRegular is the reason for a file of mode m that is not a regular one.
func notRegular(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return reasonLink
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO), not a file"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "is a device, not a file"
	case m&fs.ModeSocket != 0:
		return "is a socket, not a file"
	case m.IsDir():
		return "is a folder, not a file"
	}
	return "is not a regular file"
}

// Inside tells whether dir lies at or below root, both as written (not
// resolved: resolving is what opening a Dir does, link by link), and
// returns dir relative to root.
func Inside(root, dir string) (string, bool) {
	rel, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}

// OpenDir opens the folder rel below root: root as the caller names it
// (links in it are the user's own layout), then each name of rel without
// following a link, each one a folder owned by the user that no other
// user can write; root itself must be such a folder too. create makes the
// folders of rel that are missing (mode 0755). A missing folder is
// fs.ErrNotExist.
func OpenDir(root, rel string, create bool) (*Dir, error) {
	rel = filepath.Clean(rel)
	if rel != "." && !filepath.IsLocal(rel) {
		return nil, refused(filepath.Join(root, rel), reasonOutside+" ("+root+")")
	}
	d, err := openRoot(root)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return d, nil
	}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		next, err := d.Dir(name, create)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// ReadFile reads name in d (see Open), refusing more than max bytes.
func (d *Dir) ReadFile(name string, max int64) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes it may have", d.join(name), max)
	}
	return data, nil
}

func (d *Dir) join(name string) string { return filepath.Join(d.path, name) }

// Path is the folder's path as it was opened.
func (d *Dir) Path() string { return d.path }

// OpenRegular opens path for reading, following links (a person's own
// settings file may be one), but only if it is a regular file: it never
// waits on a FIFO and never reads a device. A missing file is
// fs.ErrNotExist.
func OpenRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, refused(path, notRegular(fi.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err == nil && !fi.Mode().IsRegular() {
		err = refused(path, notRegular(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadRegular reads the regular file at path (see OpenRegular), refusing
// more than max bytes.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes it may have", path, max)
	}
	return data, nil
}
