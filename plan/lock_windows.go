//go:build windows

package plan

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// openLock opens what writers lock. Windows cannot lock a folder, so the
// ledger is locked, at a byte range far past its end: Windows locks are
// mandatory, and a lock over bytes the ledger holds would stop readers.
func openLock(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, LedgerFile), os.O_RDWR|os.O_CREATE, 0o644)
}

const lockOffsetHigh = 0x7fffffff

func tryLock(f *os.File) error {
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}

func unlockFile(f *os.File) {
	ol := windows.Overlapped{OffsetHigh: lockOffsetHigh}
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol) //nolint:errcheck // closing releases it too
}

// syncDir: Windows makes a rename durable without syncing the folder, and
// cannot open a folder to sync it.
func syncDir(string) error { return nil }
