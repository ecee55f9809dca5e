package plan

import (
	"errors"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// tempSuffix marks a file being written. One left behind was a writer that
// crashed: writers hold the folder's lock, so whoever holds it next may
// remove it (safefile.Dir.RemoveTemps).
const tempSuffix = safefile.TempSuffix

// LockTimeout is how long a writer waits for another to finish with the
// plan folder before giving up: writers hold the lock for milliseconds.
const LockTimeout = 10 * time.Second

// lock takes the plan folder's lock: an exclusive flock on the folder
// itself (see tryLock), so that writers in this process and in others
// take turns. The lock is released by the returned function, or by the
// kernel if the process dies.
func lock(d *safefile.Dir) (unlock func(), err error) {
	l, err := openLock(d)
	if err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "lock plan folder", Err: err}
	}
	deadline := time.Now().Add(LockTimeout)
	wait := time.Millisecond
	for {
		err := l.tryLock()
		if err == nil {
			return l.unlock, nil
		}
		if !errors.Is(err, errLocked) || time.Now().After(deadline) {
			l.close()
			if errors.Is(err, errLocked) {
				return nil, tally.Errorf(tally.CodeUnavailable, "lock plan folder", "%s is held by another writer for more than %v", d.Path(), LockTimeout)
			}
			return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "lock plan folder", Err: err}
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}

var errLocked = errors.New("locked")
