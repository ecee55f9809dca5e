//go:build unix

package codex

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where config.toml should be is never opened: opening it would
// wait for a writer, and building the adapter with it (SECURITY.md: never
// a FIFO opened as a file). update_plan is then not known to be enabled.
func TestPlanToolEnabled_aFIFOInPlaceOfTheConfigIsNotWaitedOn(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan bool, 1)
	go func() { done <- planToolEnabled(home) }()
	select {
	case on := <-done:
		if on {
			t.Error("a FIFO enabled update_plan")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the config waited on a FIFO")
	}
}
