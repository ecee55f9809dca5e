//go:build unix

package setup

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// folderLockWait bounds the wait for another tally setup to finish with a
// folder: it holds it for milliseconds.
const folderLockWait = 10 * time.Second

// lockFolder takes an exclusive flock of the folder dir: tally setup runs
// take turns on it (no lock file is left in the agent's folder).
func lockFolder(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(folderLockWait)
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) || time.Now().After(deadline) {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("another tally setup holds it for more than %v", folderLockWait)
			}
			return nil, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
