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

// Gemini CLI's own small files read beside its logs (projects.json, a
// project's .project_root, a tracker task, a log's head) are opened only
// when regular: a FIFO put in one's place is never waited on.
func TestSmallFiles_aFIFOInTheirPlaceIsNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "projects.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for name, read := range map[string]func() bool{
		"readSmall":       func() bool { return readSmall(fifo) != nil },
		"readTrackerTask": func() bool { _, ok := readTrackerTask(fifo); return ok },
		"readHead":        func() bool { _, err := readHead(fifo); return err == nil },
	} {
		done := make(chan bool, 1)
		go func() { done <- read() }()
		select {
		case ok := <-done:
			if ok {
				t.Errorf("%s read a FIFO", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s waited on a FIFO", name)
		}
	}
}
