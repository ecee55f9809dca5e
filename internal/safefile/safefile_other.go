//go:build !unix

package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// nonblock: opening never waits off Unix.
const nonblock = 0

// Dir is a folder opened by OpenDir. Off Unix it is checked by path.
type Dir struct{ path string }

func openRoot(root string) (*Dir, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, refused(root, reasonNotDir)
	}
	return &Dir{path: root}, nil
}

// Dir opens the folder name in d, refusing a link; create makes it.
func (d *Dir) Dir(name string, create bool) (*Dir, error) {
	if err := checkName(d, name); err != nil {
		return nil, err
	}
	p := d.join(name)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.Mkdir(p, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
			fi, err = os.Lstat(p)
		}
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, refused(p, notRegular(fi.Mode()))
	}
	return &Dir{path: p}, nil
}

func (d *Dir) checkFile(name string, single bool) (fs.FileInfo, error) {
	if err := checkName(d, name); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(d.join(name))
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: d.join(name), Err: errors.New("is a directory")}
	}
	if !fi.Mode().IsRegular() {
		return nil, refused(d.join(name), notRegular(fi.Mode()))
	}
	return fi, nil
}

// Open opens name in d for reading: a regular file, not a link.
func (d *Dir) Open(name string) (*os.File, error) {
	if _, err := d.checkFile(name, false); err != nil {
		return nil, err
	}
	return os.Open(d.join(name))
}

// OpenOwn opens name in d for reading, as Open.
func (d *Dir) OpenOwn(name string) (*os.File, error) { return d.Open(name) }

// Append opens name in d for appending, creating it with perm.
func (d *Dir) Append(name string, perm fs.FileMode) (*os.File, error) {
	if _, err := d.checkFile(name, true); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return os.OpenFile(d.join(name), os.O_RDWR|os.O_APPEND|os.O_CREATE, perm)
}

// TempSuffix ends the name of a file WriteAtomic is writing.
const TempSuffix = ".tally-tmp"

// WriteAtomic replaces name in d with data (see the Unix version).
func (d *Dir) WriteAtomic(name string, data []byte, perm fs.FileMode) error {
	fi, err := d.checkFile(name, false)
	switch {
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	tmp := d.join("." + name + "." + hex.EncodeToString(b[:]) + TempSuffix)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	fail := func(err error) error { f.Close(); os.Remove(tmp); return err }
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
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, d.join(name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Sync is a no-op: Windows makes a rename durable without it.
func (d *Dir) Sync() error { return nil }

// ReadDir lists d's entries.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) { return os.ReadDir(d.path) }

// RemoveTemps removes the temporary files a crashed WriteAtomic left.
func (d *Dir) RemoveTemps() {
	des, _ := d.ReadDir()
	for _, de := range des {
		if n := de.Name(); strings.HasPrefix(n, ".") && strings.HasSuffix(n, TempSuffix) {
			os.Remove(d.join(n))
		}
	}
}

// Exists tells whether name in d is there.
func (d *Dir) Exists(name string) bool {
	_, err := os.Lstat(d.join(name))
	return err == nil
}

// Close does nothing off Unix.
func (d *Dir) Close() error { return nil }

func checkName(d *Dir, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || filepath.VolumeName(name) != "" {
		return refused(d.join(name), reasonOutside+" ("+d.path+")")
	}
	return nil
}

// AppendPath opens path for appending, creating it with perm, refusing a
// link or anything but a regular file.
func AppendPath(path string, perm fs.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, refused(path, notRegular(fi.Mode()))
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}
