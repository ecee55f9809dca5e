//go:build !unix && !windows

package plan

import (
	"errors"
	"os"
)

func openLock(dir string) (*os.File, error) { return os.Open(dir) }

func tryLock(*os.File) error { return errors.ErrUnsupported }

func unlockFile(*os.File) {}

func syncDir(string) error { return nil }
