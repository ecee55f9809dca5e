package tail

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tallyhq/tally"
)

// Found is a log file an adapter claimed.
type Found struct {
	Adapter tally.Adapter
	Root    string
	Info    tally.FileInfo
}

// Walked is what a walk found, and what it could not look into.
type Walked struct {
	Found []Found
	// Walked are the roots that could be walked: a file under one of them
	// that was not found is gone, unless it is under an Unreadable
	// directory.
	Walked map[string]bool
	// Unreadable are the directories under a root that could not be
	// listed, each error naming its directory (a *fs.PathError).
	Unreadable []error
	// Err is for the roots that could not be walked. A root that does not
	// exist is not an error: the agent may simply not be installed.
	Err error
}

// Covers tells whether a walk looked everywhere path could be: its root
// was walked, and no directory above it was unreadable.
func (w *Walked) Covers(root, path string) bool {
	if !w.Walked[root] {
		return false
	}
	for _, err := range w.Unreadable {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			if rel, err := filepath.Rel(pe.Path, path); err == nil && filepath.IsLocal(rel) {
				return false
			}
		}
	}
	return true
}

// Walk lists every file under the adapters' roots that an adapter claims.
// Links are followed: to a directory, which is walked under the name the
// links give it (names decides which, when there are several; nil walks
// with a table of its own), and to a file elsewhere, which is read under
// the link's name. A link back to an ancestor is walked once.
//
// onDir, if not nil, is called with each directory before its entries are
// listed: a watch added there sees every file created after the listing,
// so nothing falls between the walk and the watch.
func Walk(adapters []tally.Adapter, names *Names, onDir func(string)) Walked {
	if names == nil {
		names = NewNames()
	}
	w := Walked{Walked: make(map[string]bool)}
	for _, a := range adapters {
		for _, root := range a.Roots() {
			fi, err := os.Stat(root)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue
			case err != nil:
				w.Err = errors.Join(w.Err, err)
				continue
			case !fi.IsDir():
				w.Err = errors.Join(w.Err, fmt.Errorf("%s: not a directory", root))
				continue
			}
			names.own(root, fi)
			t := tree{a: a, root: root, names: names, onDir: onDir, w: &w, seen: make(map[string]bool)}
			t.walk(root, fi)
			w.Walked[root] = true
		}
	}
	return w
}

// tree is one root's walk.
type tree struct {
	a     tally.Adapter
	root  string
	names *Names
	onDir func(string)
	w     *Walked
	// seen are the directories this walk went into, by identity: a link
	// back to one ends there.
	seen map[string]bool
}

func (t *tree) walk(dir string, fi os.FileInfo) {
	id := dirID(dir, fi)
	if t.seen[id] || !t.names.Claim(dir, fi) {
		return
	}
	t.seen[id] = true
	if t.onDir != nil {
		t.onDir(dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.w.Unreadable = append(t.w.Unreadable, err)
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		typ, ok := entryType(path, e)
		if !ok {
			continue // a dangling link
		}
		if e.Type()&fs.ModeSymlink != 0 && typ.IsRegular() && linkedInside(t.root, path) {
			continue
		}
		switch {
		case typ.IsDir():
			if skips(t.a, t.root, path) {
				continue
			}
			sub, err := os.Stat(path)
			if err != nil {
				continue // gone since the listing
			}
			t.walk(path, sub)
		case typ.IsRegular():
			if fi, ok := t.a.Match(t.root, path); ok {
				t.w.Found = append(t.w.Found, Found{Adapter: t.a, Root: t.root, Info: fi})
			}
		}
	}
}

// Claim finds the adapter that claims path, if any. A link to a file under
// the same root is no name of its own, as for Walk.
func Claim(adapters []tally.Adapter, path string) (Found, bool) {
	for _, a := range adapters {
		for _, root := range a.Roots() {
			rel, err := filepath.Rel(root, path)
			if err != nil || rel == "." || !filepath.IsLocal(rel) {
				continue
			}
			if fi, ok := a.Match(root, path); ok {
				if lfi, err := os.Lstat(path); err == nil && lfi.Mode()&fs.ModeSymlink != 0 && linkedInside(root, path) {
					return Found{}, false
				}
				return Found{Adapter: a, Root: root, Info: fi}, true
			}
		}
	}
	return Found{}, false
}

func skips(a tally.Adapter, root, dir string) bool {
	sk, ok := a.(tally.DirSkipper)
	return ok && sk.SkipDir(root, dir)
}

// Skipped tells whether an adapter whose root holds dir leaves dir out.
func Skipped(adapters []tally.Adapter, dir string) bool {
	for _, a := range adapters {
		for _, root := range a.Roots() {
			rel, err := filepath.Rel(root, dir)
			if err != nil || rel == "." || !filepath.IsLocal(rel) {
				continue
			}
			// Any directory on the way down being skipped skips dir.
			for p := dir; p != root && p != "." && p != "/"; p = filepath.Dir(p) {
				if skips(a, root, p) {
					return true
				}
			}
		}
	}
	return false
}

// entryType is the type of directory entry e at path, a link's being its
// target's; ok is false for a link that leads nowhere.
func entryType(path string, e fs.DirEntry) (typ fs.FileMode, ok bool) {
	typ = e.Type()
	if typ&fs.ModeSymlink == 0 {
		return typ, true
	}
	target, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	return target.Mode().Type(), true
}
