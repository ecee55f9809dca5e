//go:build unix

package gemini

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where settings.json should be is never opened: opening it would
// wait for a writer, and building the adapter with it (SECURITY.md: never
// a FIFO opened as a file). The tracker's setting is then unknown.
func TestTrackerEnabled_aFIFOInPlaceOfTheSettingsIsNotWaitedOn(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "settings.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan bool, 1)
	go func() { _, ok := trackerEnabled(home); done <- ok }()
	select {
	case ok := <-done:
		if ok {
			t.Error("a FIFO's setting was taken as known")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the settings waited on a FIFO")
	}
}
