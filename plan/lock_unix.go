//go:build unix

package plan

import (
	"errors"

	"github.com/tallyhq/tally/internal/safefile"
)

// folderLock is the open plan folder itself: taking turns leaves no file
// in the user's repository.
type folderLock struct{ d *safefile.Dir }

func openLock(d *safefile.Dir) (folderLock, error) { return folderLock{d}, nil }

func (l folderLock) tryLock() error {
	err := l.d.TryLock()
	if errors.Is(err, safefile.ErrLocked) {
		return errLocked
	}
	return err
}

func (l folderLock) unlock() { l.d.Unlock() }

func (l folderLock) close() {}
