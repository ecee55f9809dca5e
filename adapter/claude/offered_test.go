package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// A session whose log shows no list tool offered (Claude Code 2.1.330 on
// its default model, without CLAUDE_CODE_ENABLE_TODO_TOOLS) is recorded as
// such, transcript and stream alike; one that had them (the capture runs
// on an older model) or used one, as having had them; a log that does not
// say (1.0.x) says nothing.
func TestDecoder_ListToolsOffered(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		if f.info.List != "" {
			continue
		}
		st := foldAll(t, f.info, read(t, f.path))
		var want tally.ListTools
		switch {
		case strings.Contains(f.path, "default-model-no-todo-tools"):
			want = tally.ListToolsNone
		case strings.Contains(f.path, "claude-code-2.1.330"), st.Lists[""] != nil:
			want = tally.ListToolsOffered
		}
		name := strings.TrimPrefix(f.path, captured)
		if st.ListTools != want {
			t.Errorf("%s: list tools %q, want %q", name, st.ListTools, want)
		}
		if (st.ListToolsHint != "") != (want == tally.ListToolsNone) || want == tally.ListToolsNone && !strings.Contains(st.ListToolsHint, "CLAUDE_CODE_ENABLE_TODO_TOOLS=1") {
			t.Errorf("%s: hint %q", name, st.ListToolsHint)
		}
	}
}

// The fact is read from the first lines only: read in pieces, with the
// decoder rebuilt from its state, it is the same.
func TestDecoder_ListToolsResume(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(captured, "default-model-no-todo-tools/config/projects/*/*.jsonl"))
	if len(paths) != 1 {
		t.Fatalf("capture: %v", paths)
	}
	st := adaptertest.Fold(t, New(Options{}), tally.FileInfo{Path: paths[0], Session: "s"}, read(t, paths[0]), 97)
	if st.ListTools != tally.ListToolsNone {
		t.Errorf("list tools %q, want none", st.ListTools)
	}
}
