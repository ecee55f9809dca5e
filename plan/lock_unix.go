//go:build unix

package plan

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openLock opens what writers lock: the plan folder itself, so that taking
// turns leaves no file in the user's repository.
func openLock(dir string) (*os.File, error) { return os.Open(dir) }

func tryLock(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

func unlockFile(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_UN) } //nolint:errcheck // closing releases it too

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
