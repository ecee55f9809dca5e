package codex

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tallyhq/tally/adapter/adaptertest"
)

func TestAdapter_Suite(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	for _, path := range append(rollouts(t), execStreams(t)...) {
		rel, _ := filepath.Rel(fixtures, path)
		t.Run(rel, func(t *testing.T) {
			adaptertest.Run(t, a, fileInfo(t, a, path), read(t, path))
		})
	}
}

// FuzzDecoder starts from the interesting lines of the captures: plan calls
// and their answers, session_meta, and exec todo_list events.
func FuzzDecoder(f *testing.F) {
	a := New(Options{Home: f.TempDir()})
	// Small seeds: the fuzzer minimises every new input it finds, which
	// takes minutes on whole captures.
	var seeds [][]byte
	for _, path := range append(rollouts(f), execStreams(f)...) {
		var run []byte // the file's small selected lines together: calls with their answers
		for _, line := range bytes.SplitAfter(read(f, path), []byte("\n")) {
			if len(line) < 1024 && (scan(line, nil) != 0 || execOf(line) != execNone || bytes.Contains(line, []byte("function_call_output"))) {
				seeds = append(seeds, line)
				run = append(run, line...)
			}
		}
		seeds = append(seeds, run)
	}
	seeds = append(seeds, []byte(planCallLine("01", "c", `[{"step":"a","status":"done"}]`)+"\n"+outputLine("02", "c", `"Plan updated"`)+"\n"))
	var planMode []byte
	for _, l := range append(planTurn("1"), turnContext("20", "default")) {
		planMode = append(planMode, l+"\n"...)
	}
	seeds = append(seeds, planMode)
	adaptertest.Fuzz(f, a, fileInfoFor("01a20394-9b6f-7950-b4c0-0ce93fabcd83"), seeds...)
}
