//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bounded fails the test if fn has not returned within a few seconds: an
// open that waits on a FIFO never returns.
func bounded(t *testing.T, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting after 5 s")
	}
	return nil
}

// Every way a name can be something other than a regular file of the
// user's is refused, by every way of opening it, without waiting and
// without touching what it points at.
func TestDir_refusesWhatIsNotTheUsersRegularFile(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, dir, victim string) string // returns the name in dir
		says string
		// writeOnly: only opening to write refuses it.
		writeOnly bool
	}{
		{"link to a file", func(t *testing.T, dir, victim string) string {
			must(t, os.Symlink(victim, filepath.Join(dir, "f")))
			return "f"
		}, "is a symbolic link", false},
		{"dangling link", func(t *testing.T, dir, _ string) string {
			must(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "f")))
			return "f"
		}, "is a symbolic link", false},
		{"FIFO", func(t *testing.T, dir, _ string) string {
			must(t, syscall.Mkfifo(filepath.Join(dir, "f"), 0o644))
			return "f"
		}, "named pipe", false},
		{"device", func(t *testing.T, dir, _ string) string {
			if err := syscall.Mknod(filepath.Join(dir, "f"), syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Skipf("mknod: %v", err)
			}
			return "f"
		}, "is a device", false},
		{"another user's file", func(t *testing.T, dir, _ string) string {
			must(t, os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o666))
			chown(t, filepath.Join(dir, "f"))
			return "f"
		}, "belongs to another user", false},
		{"hard link", func(t *testing.T, dir, victim string) string {
			must(t, os.Link(victim, filepath.Join(dir, "f")))
			return "f"
		}, "has other names", true},
		{"a path, not a name", func(t *testing.T, dir, _ string) string {
			return "../f"
		}, "is outside", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim")
			must(t, os.WriteFile(victim, []byte("keep\n"), 0o644))
			name := c.make(t, root, victim)
			d, err := OpenDir(root, ".", false)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			opens := map[string]func() error{
				"Open":    func() error { f, err := d.Open(name); closeIf(f); return err },
				"OpenOwn": func() error { f, err := d.OpenOwn(name); closeIf(f); return err },
				"Append":  func() error { f, err := d.Append(name, 0o644); closeIf(f); return err },
				"WriteAtomic": func() error {
					if c.writeOnly {
						return refused(name, c.says) // replacing a hard link writes through nothing
					}
					return d.WriteAtomic(name, []byte("new\n"), 0o644)
				},
			}
			for how, open := range opens {
				err := bounded(t, open)
				if c.writeOnly && how == "Open" {
					if err != nil {
						t.Errorf("Open: %v", err)
					}
					continue
				}
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.says) {
					t.Errorf("%s: %v, want a refusal saying %q", how, err, c.says)
				}
			}
			if got, _ := os.ReadFile(victim); string(got) != "keep\n" {
				t.Errorf("the victim now holds %q", got)
			}
		})
	}
}

// A folder on the way that is a link, another user's, or one other users
// can write to is refused; so is a folder outside the root.
func TestOpenDir_refusesFoldersOnTheWay(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, root, outside string)
		rel  string
		says string
	}{
		{"a link to a folder outside", func(t *testing.T, root, outside string) {
			must(t, os.Symlink(outside, filepath.Join(root, "docs")))
		}, "docs/por", "is a symbolic link"},
		{"a link at the end", func(t *testing.T, root, outside string) {
			must(t, os.Mkdir(filepath.Join(root, "docs"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(root, "docs", "por")))
		}, "docs/por", "is a symbolic link"},
		{"writable by others", func(t *testing.T, root, _ string) {
			must(t, os.MkdirAll(filepath.Join(root, "docs", "por"), 0o755))
			must(t, os.Chmod(filepath.Join(root, "docs"), 0o777))
		}, "docs/por", "other users can write to"},
		{"another user's", func(t *testing.T, root, _ string) {
			must(t, os.MkdirAll(filepath.Join(root, "docs", "por"), 0o755))
			chown(t, filepath.Join(root, "docs", "por"))
		}, "docs/por", "belongs to another user"},
		{"the root writable by others", func(t *testing.T, root, _ string) {
			must(t, os.MkdirAll(filepath.Join(root, "docs", "por"), 0o755))
			must(t, os.Chmod(root, 0o1777))
		}, "docs/por", "other users can write to"},
		{"outside the root", func(*testing.T, string, string) {}, "../x", "is outside"},
		{"a file", func(t *testing.T, root, _ string) {
			must(t, os.WriteFile(filepath.Join(root, "docs"), nil, 0o644))
		}, "docs/por", "is not a folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			must(t, os.Mkdir(filepath.Join(outside, "por"), 0o755))
			c.make(t, root, outside)
			for _, create := range []bool{false, true} {
				_, err := OpenDir(root, c.rel, create)
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.says) {
					t.Errorf("create=%v: %v, want a refusal saying %q", create, err, c.says)
				}
			}
			if des, _ := os.ReadDir(filepath.Join(outside, "por")); len(des) != 0 {
				t.Errorf("something was made outside: %v", des)
			}
		})
	}
}

// What may be written is: a missing folder made, a file appended to and
// replaced keeping its mode, nothing left behind.
func TestDir_writes(t *testing.T) {
	root := t.TempDir()
	d, err := OpenDir(root, "docs/por", true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, err := d.Append("ledger.jsonl", 0o640)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	must(t, d.WriteAtomic("scope.yaml", []byte("a\n"), 0o600))
	must(t, os.Chmod(filepath.Join(root, "docs/por/scope.yaml"), 0o664))
	must(t, d.WriteAtomic("scope.yaml", []byte("b\n"), 0o600))
	fi, err := os.Stat(filepath.Join(root, "docs/por/scope.yaml"))
	if err != nil || fi.Mode().Perm() != 0o664 {
		t.Fatalf("scope.yaml: %v %v", fi.Mode(), err)
	}
	data, err := d.ReadFile("scope.yaml", 10)
	if err != nil || string(data) != "b\n" {
		t.Fatalf("read back %q %v", data, err)
	}
	if _, err := d.ReadFile("ledger.jsonl", 2); err == nil {
		t.Fatal("a file over the bound was read")
	}
	des, _ := d.ReadDir()
	if len(des) != 2 {
		t.Fatalf("entries: %v", des)
	}
	if _, err := d.Open("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// OpenRegular follows a person's link to a regular file, and refuses a
// FIFO at once.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "real.json"), []byte("{}"), 0o644))
	must(t, os.Symlink(filepath.Join(dir, "real.json"), filepath.Join(dir, "settings.json")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644))
	if data, err := ReadRegular(filepath.Join(dir, "settings.json"), 10); err != nil || string(data) != "{}" {
		t.Fatalf("through the link: %q %v", data, err)
	}
	err := bounded(t, func() error { _, err := ReadRegular(filepath.Join(dir, "fifo.json"), 10); return err })
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("FIFO: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func chown(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	if err := os.Lchown(path, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
}
