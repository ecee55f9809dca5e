package tail

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A directory's version changes when one of its member files is written,
// replaced, added or removed, and not when anything else in it changes.
func TestStatDir_VersionIsItsMembers(t *testing.T) {
	dir := t.TempDir()
	member := func(p string) bool { return strings.HasSuffix(p, ".json") }
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := StatDir(dir, member); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a directory with no member: %v, want it gone", err)
	}
	write("1.json", `{"status":"pending"}`)
	f1, err := StatDir(dir, member)
	if err != nil {
		t.Fatal(err)
	}
	write(".lock", "")
	os.Mkdir(filepath.Join(dir, "1.json.lock"), 0o755)
	if f, _ := StatDir(dir, member); f.Identity != f1.Identity {
		t.Error("a lock file changed the version")
	}
	// Replaced by rename, same size, a later time.
	time.Sleep(10 * time.Millisecond)
	write("1.json.tmp", `{"status":"started"}`)
	os.Rename(filepath.Join(dir, "1.json.tmp"), filepath.Join(dir, "1.json"))
	f2, _ := StatDir(dir, member)
	if f2.Identity == f1.Identity {
		t.Error("a rewritten member left the version unchanged")
	}
	write("2.json", `{}`)
	f3, _ := StatDir(dir, member)
	if f3.Identity == f2.Identity || f3.Size != f2.Size+2 {
		t.Errorf("an added member: %+v after %+v", f3, f2)
	}
	os.Remove(filepath.Join(dir, "2.json"))
	if f, _ := StatDir(dir, member); f.Identity != f2.Identity {
		t.Error("removing the added member did not give the version back")
	}
}
