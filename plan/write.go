package plan

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/tallyhq/tally"
)

// tempSuffix marks a file being written. One left behind was a writer that
// crashed: writers hold the folder's lock, so whoever holds it next may
// remove it.
const tempSuffix = ".tally-tmp"

// writeAtomic replaces path with data so that a reader, or a crash at any
// moment, sees the old file or the new one, never a mix: the data goes to
// a temporary file in the same folder, is synced, and is renamed over
// path; then the folder is synced so the rename itself is durable. The
// file keeps its permissions. Every file Tally writes in a plan folder,
// except the append-only ledger, is written here.
func writeAtomic(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".*"+tempSuffix)
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
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
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// removeTemps removes what crashed writers left in dir: the plan folder
// when its lock is taken, a task folder before its file is written. Only
// the lock holder calls it. A temporary file is hidden and never read, so
// one left in a task folder Tally does not write again is harmless.
func removeTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, ".*"+tempSuffix))
	for _, m := range matches {
		os.Remove(m)
	}
}

// LockTimeout is how long a writer waits for another to finish with the
// plan folder before giving up: writers hold the lock for milliseconds.
const LockTimeout = 10 * time.Second

// lock takes the plan folder's lock: an exclusive flock on the folder
// itself (see openLock), so that writers in this process and in others
// take turns. The lock is released by the returned function, or by the
// kernel if the process dies.
func lock(dir string) (unlock func(), err error) {
	f, err := openLock(dir)
	if err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "lock plan folder", Err: err}
	}
	deadline := time.Now().Add(LockTimeout)
	wait := time.Millisecond
	for {
		err := tryLock(f)
		if err == nil {
			return func() { unlockFile(f); f.Close() }, nil
		}
		if !errors.Is(err, errLocked) || time.Now().After(deadline) {
			f.Close()
			if errors.Is(err, errLocked) {
				return nil, tally.Errorf(tally.CodeUnavailable, "lock plan folder", "%s is held by another writer for more than %v", dir, LockTimeout)
			}
			return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "lock plan folder", Err: err}
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}

var errLocked = errors.New("locked")
