//go:build unix

package kimi

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where kimi.json should be is never opened: opening it would wait
// for a writer, and the indexer with it (SECURITY.md: never a FIFO opened
// as a file). The session's folder is then not known.
func TestFolder_aFIFOInPlaceOfKimiJSONIsNotWaitedOn(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "kimi.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	a := New(Options{Home: home})
	done := make(chan string, 1)
	go func() { done <- a.folder("e4f623c3280339cc0da2a48c752f5607") }()
	select {
	case got := <-done:
		if got != "" {
			t.Errorf("folder = %q from a FIFO", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the sessions' folders waited on a FIFO")
	}
}
