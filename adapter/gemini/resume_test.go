package gemini

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// testdata/resumed-0.61.0.jsonl is a chat record of the real Gemini CLI
// 0.61.0 (made with the capture tool's run_gemini.sh, paths rewritten):
// a run that wrote a write_todos list and then marked its first item
// completed, then `gemini -p "/compress" --resume latest`. The resume
// rewrote the record with {"$set":{"messages":…}} checkpoints in which the
// calls are functionCall parts of the messages' content, their results
// functionResponse parts, and no message has toolCalls any more.
//
// The list survives the resume: it is the one the last write_todos call
// said, as Gemini CLI's own result for that call reads.
func TestChat_aResumedRecordKeepsTheListItsCheckpointHoldsAsFunctionCalls(t *testing.T) {
	path := "testdata/resumed-0.61.0.jsonl"
	lines := adaptertest.Lines(read(t, path))
	var exp []want
	checkpoints := 0
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte(`{"$set":{"messages":`)) && bytes.Contains(l, []byte(`"functionCall":{"id":"write_todos`)) {
			checkpoints++
		}
		var m struct {
			ToolCalls []struct {
				Name string
				Args struct {
					Todos []struct{ Description, Status string }
				}
			} `json:"toolCalls"`
		}
		if json.Unmarshal(l, &m) != nil {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.Name == "write_todos" {
				exp = exp[:0]
				for _, td := range c.Args.Todos {
					exp = append(exp, want{td.Description, td.Status})
				}
			}
		}
	}
	if checkpoints == 0 || len(exp) != 3 {
		t.Fatalf("the record has %d checkpoints with functionCall parts, a last list of %d", checkpoints, len(exp))
	}
	f := newFolder(t, tally.FileInfo{Path: path, Session: "s"})
	for _, l := range lines {
		if d := f.Feed(l); len(d) > 0 {
			t.Fatalf("diagnostics: %v", d)
		}
	}
	sameItems(t, "after the resume", f.List(""), exp)

	t.Run("a call no functionResponse answered did not run", func(t *testing.T) {
		f := newFolder(t, tally.FileInfo{Path: path, Session: "s"})
		for _, l := range lines {
			f.Feed(bytes.ReplaceAll(l, []byte(`"functionResponse":{"id":"write_todos`), []byte(`"functionResponse":{"id":"gone`)))
		}
		if got := f.List(""); len(got) != 0 {
			t.Errorf("listed %+v", got)
		}
	})
}
