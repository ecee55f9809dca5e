package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// sharedDir is a directory another user can enter, for tests that run
// tally as someone without write permission.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tally-e2e-shared")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// asOther runs tally as a user whom file permissions bind: nobody when
// the tests run as root (root ignores them), else the user running them.
func asOther(t *testing.T, home string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(tallyBin, args...)
	cmd.Env = testhome.Environ(home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A command that should end on its own and does not (watch) is ended,
	// and reads as killed.
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// readableHome is a Claude Code home of n sessions every user can read.
func readableHome(t *testing.T, dir string, n int) string {
	t.Helper()
	home := filepath.Join(dir, "claude")
	copyTree(t, claudeHome(t, n), home)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return home
}

// TestSessions_AReadOnlyStoreInAReadOnlyFolderIsRead: listing reads the
// store and needs no write, so a store its reader cannot write (a file
// and folder of another user, a read-only disk) is listed; a command that
// writes says that the store cannot be written and what to do.
func TestSessions_AReadOnlyStoreInAReadOnlyFolderIsRead(t *testing.T) {
	dir := sharedDir(t)
	home := readableHome(t, dir, 3)
	db := filepath.Join(dir, "store", "tally.db")
	tally(t, home, db, "scan")
	os.Chmod(db, 0o444)
	os.Chmod(filepath.Dir(db), 0o555)
	if _, err := os.Stat(db + "-wal"); err == nil {
		t.Fatal("the store's -wal is still there after the scan ended: the test would not show a folder where none can be made")
	}

	code, out, errOut := asOther(t, dir, "sessions", "--json", "--db", db)
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 3 {
		t.Fatalf("sessions on a read-only store: exit %d, %d sessions\n%s", code, len(list), errOut)
	}

	os.WriteFile(filepath.Join(home, "projects", "-work-pa", "99999999-0000-4000-8000-000000000009.jsonl"),
		[]byte(`{"type":"user","timestamp":"2026-11-22T10:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), 0o644)
	code, out, errOut = asOther(t, dir, "scan", "--db", db, "--claude-dir", home)
	if code != 5 || !strings.Contains(errOut, "cannot be written") || !strings.Contains(errOut, db) {
		t.Errorf("scan into a read-only store: exit %d, stderr %q; want 5 and a store that cannot be written named", code, errOut)
	}
	// Said once, with no summary of a scan whose work could not be kept,
	// and no SQLite error number.
	if out != "" || strings.Count(errOut, "cannot be written") != 1 || regexp.MustCompile(`\(\d+\)`).MatchString(errOut) {
		t.Errorf("scan into a read-only store: stdout %q, stderr %q; want no summary and the error once, in words", out, errOut)
	}
	// watch says it once and ends, rather than say it again every round.
	code, _, errOut = asOther(t, dir, "watch", "--db", db, "--claude-dir", home)
	if code != 5 || strings.Count(errOut, "cannot be written") != 1 {
		t.Errorf("watch on a read-only store: exit %d, stderr %q; want 5 and the error once", code, errOut)
	}
	if strings.Contains(errOut, "sqlite.") || strings.Contains(errOut, "sqlite:") {
		t.Errorf("scan into a read-only store: stderr %q names Tally's own operations", errOut)
	}
}

// TestScan_AnUnreadableFolderIsNamed: a project folder the user cannot
// read is reported by name; every other session is indexed.
func TestScan_AnUnreadableFolderIsNamed(t *testing.T) {
	dir := sharedDir(t)
	home := readableHome(t, dir, 14) // two sessions in each of 7 projects
	locked := filepath.Join(home, "projects", "-work-pb")
	os.Chmod(locked, 0o700)
	if os.Geteuid() != 0 {
		os.Chmod(locked, 0o000)
	}
	store := filepath.Join(dir, "store")
	os.Mkdir(store, 0o777)
	os.Chmod(store, 0o777)
	db := filepath.Join(store, "tally.db")
	_, _, errOut := asOther(t, dir, "scan", "--db", db, "--claude-dir", home)
	if !strings.Contains(errOut, locked) || !strings.Contains(errOut, "permission denied") {
		t.Errorf("stderr does not name the folder it could not read:\n%s", errOut)
	}
	_, out, _ := asOther(t, dir, "sessions", "--json", "--db", db)
	var list []map[string]any
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 12 {
		t.Errorf("%d sessions indexed, want the 12 outside the locked folder", len(list))
	}
}

// TestWatch_AStoreDeletedUnderItEndsItWithAMessage: the store deleted (or
// replaced) while watch runs would take every later change into a file
// nobody reads: watch notices and exits, saying so.
func TestWatch_AStoreDeletedUnderItEndsItWithAMessage(t *testing.T) {
	claude := t.TempDir()
	os.MkdirAll(filepath.Join(claude, "projects", "-work-p"), 0o755)
	first := session(t, claude, "-work-p", "11111111-0000-4000-8000-000000000001")
	db := filepath.Join(t.TempDir(), "tally.db")
	w := startWatch(t, claude, db)
	w.waitFor("11111111-0000-4000-8000-000000000001", "a line appended to the first session", func() { appendLine(t, first) })
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Remove(p)
	}
	appendLine(t, first)
	exited := make(chan error, 1)
	go func() { exited <- w.cmd.Wait() }()
	select {
	case err := <-exited:
		ee, ok := err.(*exec.ExitError)
		if msg := w.stderr.String(); !ok || ee.ExitCode() != 5 || !strings.Contains(msg, db) || !strings.Contains(msg, "deleted") {
			t.Errorf("watch ended with %v, stderr %q; want exit 5 and the deleted store named", err, msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch went on with its store deleted")
	}
}
