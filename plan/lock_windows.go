//go:build windows

package plan

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"

	"github.com/tallyhq/tally/internal/safefile"
)

// folderLock is what writers lock. Windows cannot lock a folder, so the
// ledger is locked, at a byte range far past its end: Windows locks are
// mandatory, and a lock over bytes the ledger holds would stop readers.
type folderLock struct{ f *os.File }

func openLock(d *safefile.Dir) (folderLock, error) {
	f, err := os.OpenFile(filepath.Join(d.Path(), LedgerFile), os.O_RDWR|os.O_CREATE, 0o644)
	return folderLock{f}, err
}

const lockOffsetHigh = 0x7fffffff

func (l folderLock) tryLock() error {
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(l.f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}

func (l folderLock) unlock() {
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	windows.UnlockFileEx(windows.Handle(l.f.Fd()), 0, 1, 0, &ol) //nolint:errcheck // closing releases it too
	l.f.Close()
}

func (l folderLock) close() { l.f.Close() }
