//go:build !unix && !windows

package plan

import (
	"errors"

	"github.com/tallyhq/tally/internal/safefile"
)

type folderLock struct{}

func openLock(*safefile.Dir) (folderLock, error) { return folderLock{}, nil }

func (folderLock) tryLock() error { return errors.ErrUnsupported }

func (folderLock) unlock() {}

func (folderLock) close() {}
