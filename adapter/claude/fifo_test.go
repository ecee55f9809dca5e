//go:build unix

package claude

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A sub-agent's sidecar (<agent>.meta.json) or a task file that is a FIFO
// is never opened: opening it would wait for a writer, and the indexer
// with it (SECURITY.md: never a FIFO opened as a file).
func TestSidecars_aFIFOInTheirPlaceIsNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "agent-a1.meta.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for name, read := range map[string]func() bool{
		"subAgentName": func() bool { return subAgentName(filepath.Join(dir, "agent-a1.jsonl")) != "" },
		"readTaskFile": func() bool { _, _, err := readTaskFile(filepath.Join(dir, "agent-a1.meta.json")); return err == nil },
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
