package tail

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/tallyhq/tally"
)

// Found is a log file an adapter claimed.
type Found struct {
	Adapter tally.Adapter
	Root    string
	Info    tally.FileInfo
}

// Walk lists every file under the adapters' roots that an adapter claims.
// A root that does not exist is not an error: the agent may simply not be
// installed. It also returns the roots it could walk, so a caller can tell
// a file that is gone from a root that was not readable.
//
// onDir, if not nil, is called with each directory before its entries are
// listed: a watch added there sees every file created after the listing,
// so nothing falls between the walk and the watch.
func Walk(adapters []tally.Adapter, onDir func(string)) (found []Found, walked map[string]bool, err error) {
	walked = make(map[string]bool)
	for _, a := range adapters {
		for _, root := range a.Roots() {
			werr := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					if path == root {
						return err
					}
					return nil // an unreadable corner; the rest still counts
				}
				if d.IsDir() {
					if path != root && skips(a, root, path) {
						return filepath.SkipDir
					}
					if onDir != nil {
						onDir(path)
					}
					return nil
				}
				if !d.Type().IsRegular() {
					return nil
				}
				if fi, ok := a.Match(root, path); ok {
					found = append(found, Found{Adapter: a, Root: root, Info: fi})
				}
				return nil
			})
			switch {
			case werr == nil:
				walked[root] = true
			case errors.Is(werr, fs.ErrNotExist):
			default:
				err = errors.Join(err, werr)
			}
		}
	}
	return found, walked, err
}

// Claim finds the adapter that claims path, if any.
func Claim(adapters []tally.Adapter, path string) (Found, bool) {
	for _, a := range adapters {
		for _, root := range a.Roots() {
			rel, err := filepath.Rel(root, path)
			if err != nil || rel == "." || !filepath.IsLocal(rel) {
				continue
			}
			if fi, ok := a.Match(root, path); ok {
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
