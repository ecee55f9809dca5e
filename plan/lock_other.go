//go:build !unix && !windows

package plan

import (
	"errors"
	"os"
)

func tryLock(*os.File) error { return errors.ErrUnsupported }

func unlockFile(*os.File) {}

func syncDir(string) error { return nil }
