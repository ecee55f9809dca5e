package tail

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Watcher turns file-system notifications under the agents' homes into
// paths that may have changed. Linux has no recursive watch, so every
// directory is watched on its own, and new directories are added as they
// appear. Notifications can be lost (a full kernel queue); the owner runs a
// periodic scan as well, so a lost one delays a change but never loses it.
type Watcher struct {
	w       *fsnotify.Watcher
	mu      sync.Mutex
	watched map[string]bool
	// Changed receives paths of files written or created, and of
	// directories created (their files are new too).
	Changed chan string
	// Errors receives what the watcher could not do (a full queue, a
	// directory that cannot be watched): worth a log line, never fatal.
	Errors chan error
	// Skip, if set, names directories never to watch (see
	// tally.DirSkipper); set it before Run.
	Skip func(dir string) bool
	// names decides the name a directory is watched under: the one the
	// walk reads it under, so that notifications name files as the walk
	// does.
	names *Names
}

// NewWatcher makes a watcher that watches directories under the names
// names gives them (the walk's).
func NewWatcher(names *Names) (*Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	return &Watcher{w: w, watched: make(map[string]bool), Changed: make(chan string, 1024), Errors: make(chan error, 16), names: names}, nil
}

// Add watches dir (idempotent). A directory watched under another name
// (links) is not watched again under this one: a notification names a
// file by the directory watched.
func (w *Watcher) Add(dir string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watched[dir] {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !w.names.Claim(dir, fi) {
		return nil
	}
	if err := w.w.Add(dir); err != nil {
		return err
	}
	w.watched[dir] = true
	return nil
}

// Run forwards notifications until ctx ends.
func (w *Watcher) Run(ctx context.Context) {
	defer w.w.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			if ev.Op&(fsnotify.Create|fsnotify.Write|fsnotify.Rename|fsnotify.Remove) == 0 {
				continue
			}
			if ev.Op&(fsnotify.Rename|fsnotify.Remove) != 0 {
				// The kernel drops the watch of a directory that goes: one
				// made again under the name must be watched again.
				w.mu.Lock()
				delete(w.watched, filepath.Clean(ev.Name))
				w.mu.Unlock()
			}
			if ev.Op&fsnotify.Create != 0 {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					w.addTree(ctx, ev.Name, make(map[string]bool))
					continue
				}
			}
			w.send(ctx, filepath.Clean(ev.Name))
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			select {
			case w.Errors <- err:
			default:
			}
		}
	}
}

// addTree watches a new directory and its subdirectories, links
// followed as the walk follows them, and reports the files already in
// them: they were created before the watch took hold, so no notification
// will name them.
func (w *Watcher) addTree(ctx context.Context, dir string, seen map[string]bool) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() || (w.Skip != nil && w.Skip(dir)) {
		return
	}
	id := dirID(dir, fi)
	if seen[id] || !w.names.Claim(dir, fi) {
		return // a link back to an ancestor, or to a directory read under another name
	}
	seen[id] = true
	if err := w.Add(dir); err != nil {
		w.report(err)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.report(err)
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		typ, ok := entryType(path, e)
		if !ok {
			continue
		}
		switch {
		case typ.IsDir():
			w.addTree(ctx, path, seen)
		case typ.IsRegular():
			w.send(ctx, path)
		}
	}
}

func (w *Watcher) report(err error) {
	select {
	case w.Errors <- err:
	default:
	}
}

func (w *Watcher) send(ctx context.Context, path string) {
	select {
	case w.Changed <- path:
	case <-ctx.Done():
	}
}
