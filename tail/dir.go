package tail

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
)

// StatDir reads what tells the version of a directory laid out as
// tally.LayoutDirectory: the names, sizes and modification times of the
// files in it that member accepts (given each file's path). Any of them
// written, replaced, added or removed gives another Identity; files member
// refuses (lock files, temporary files) change nothing. Size is the
// members' total. A directory holding no member is gone (fs.ErrNotExist),
// as a walk that finds none of its files sees it.
func StatDir(dir string, member func(path string) bool) (File, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return File{}, err
	}
	if !fi.IsDir() {
		return File{}, fmt.Errorf("%s: not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return File{}, err
	}
	h := fnv.New64a()
	var size int64
	n := 0
	var num [16]byte
	for _, e := range entries { // ReadDir sorts by name: the hash is stable
		path := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !member(path) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed since the listing
		}
		n++
		size += info.Size()
		h.Write([]byte(e.Name()))
		binary.LittleEndian.PutUint64(num[:8], uint64(info.Size()))
		binary.LittleEndian.PutUint64(num[8:], uint64(info.ModTime().UnixNano()))
		h.Write(num[:])
	}
	if n == 0 {
		return File{}, &fs.PathError{Op: "stat", Path: dir, Err: fs.ErrNotExist}
	}
	return File{Path: dir, Size: size, Identity: fmt.Sprintf("%s@%d:%x", identity(fi), n, h.Sum64())}, nil
}
