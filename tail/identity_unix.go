//go:build unix

package tail

import (
	"fmt"
	"os"
	"syscall"
)

// identity names the file object behind a path: a file replaced by another
// of the same name (an editor's save, a rotation) gets a new one.
func identity(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}
