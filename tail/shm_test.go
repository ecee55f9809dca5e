package tail

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO named like a database's -shm file is never waited on: the
// database's version is read without its wal-index header, as when there
// is no -shm (SECURITY.md: never a FIFO opened as a file).
func TestStat_aFIFOInPlaceOfTheSHMIsNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	for _, p := range []string{db, db + "-wal"} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(db+"-shm", 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Cleanup(func() { // a reader stuck in open goes when a writer comes
		if w, err := os.OpenFile(db+"-shm", os.O_RDWR, 0); err == nil {
			w.Close()
		}
	})
	done := make(chan error, 1)
	go func() { _, err := Stat(db, true); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Stat of the database: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stat waited on a FIFO in place of the -shm file")
	}
}
