package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/gemini/geminitest"
	"github.com/tallyhq/tally/hookservice"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tail"
)

// geminiHookRec holds the payloads and the chat record the real Gemini
// CLI 0.61.0 gave its hooks (see its README.md).
const geminiHookRec = "../hook/testdata/gemini-0.61.0"

// geminiSession is the recorded Gemini session copied into a .gemini
// directory of the test's own, as Gemini CLI lays it out.
type geminiSession struct {
	home, transcript, state string
}

func newGeminiSession(t *testing.T) *geminiSession {
	t.Helper()
	dir := t.TempDir()
	gs := &geminiSession{home: filepath.Join(dir, ".gemini"), state: filepath.Join(dir, "state")}
	gs.transcript = filepath.Join(gs.home, "tmp", "work", "chats", "session-2026-11-23T20-41-e1f1109d.jsonl")
	data, err := os.ReadFile(filepath.Join(geminiHookRec, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(gs.transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gs.transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return gs
}

func (gs *geminiSession) payload(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(geminiHookRec, "payloads", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = gs.transcript
	out, _ := json.Marshal(m)
	return out
}

// scan runs `tally scan` over the session's .gemini directory.
func (gs *geminiSession) scan(t *testing.T, st store.Store) {
	t.Helper()
	var out, errOut syncBuffer
	env := testEnv(st, &out, &errOut, map[string]string{"XDG_STATE_HOME": gs.state})
	env.Now = func() time.Time { return hookNow }
	if code := Run(context.Background(), env, []string{"--gemini-home", gs.home, "scan"}); code != ExitOK {
		t.Fatalf("scan: exit %d, %s", code, errOut.String())
	}
}

// run runs `tally hook gemini` with payload on stdin, as its own process
// would; it returns what it printed and what it logged.
func (gs *geminiSession) run(t *testing.T, st store.Store, payload []byte, args ...string) (string, string) {
	t.Helper()
	var out, errOut syncBuffer
	env := testEnv(st, &out, &errOut, map[string]string{"XDG_STATE_HOME": gs.state})
	env.Now = func() time.Time { return hookNow }
	env.In = bytes.NewReader(payload)
	if code := Run(context.Background(), env, append([]string{"--gemini-home", gs.home, "hook", "gemini"}, args...)); code != ExitOK || errOut.String() != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	logged, _ := os.ReadFile(filepath.Join(gs.state, "tally", "tally.log"))
	return out.String(), string(logged)
}

func TestHookGemini_aManualCompressionGivesTheListBackAtTheNextPrompt(t *testing.T) {
	st := newStore(t)
	gs := newGeminiSession(t)
	if out, logged := gs.run(t, st, gs.payload(t, "PreCompress-manual")); out != "" || logged != "" {
		t.Fatalf("PreCompress printed %q, logged %q", out, logged)
	}
	out, logged := gs.run(t, st, gs.payload(t, "BeforeAgent-compress"))
	want, _ := os.ReadFile("../hook/testdata/golden/gemini-compress.json")
	if out != string(want) || logged != "" {
		t.Errorf("answer:\n%s\nwant the hook package's golden:\n%s\nlog %q", out, want, logged)
	}
	if out, _ := gs.run(t, st, gs.payload(t, "BeforeAgent-compress")); out != "" {
		t.Errorf("given back again at the prompt after: %s", out)
	}
	if out, _ := gs.run(t, st, gs.payload(t, "PreCompress-auto")); out != "" {
		t.Errorf("PreCompress auto: %s", out)
	}
	if out, _ := gs.run(t, st, gs.payload(t, "AfterTool-write_file")); out != "" {
		t.Errorf("given back after an auto announcement: %s", out)
	}
}

func TestHookGemini_stopGuardDeniesThenLetsTheRetryStop(t *testing.T) {
	st := newStore(t)
	gs := newGeminiSession(t)
	out, _ := gs.run(t, st, gs.payload(t, "AfterAgent"), "--guard-stop")
	want, _ := os.ReadFile("../hook/testdata/golden/gemini-stop-deny.json")
	if out != string(want) {
		t.Errorf("answer:\n%s\nwant:\n%s", out, want)
	}
	if out, _ := gs.run(t, st, gs.payload(t, "AfterAgent-retry"), "--guard-stop"); out != "" {
		t.Errorf("the retry a denial started: %s", out)
	}
	if out, _ := gs.run(t, newStore(t), gs.payload(t, "AfterAgent")); out != "" {
		t.Errorf("without --guard-stop: %s", out)
	}
}

func TestHookGemini_toolPermissionMarksNeedsInput(t *testing.T) {
	st := newStore(t)
	gs := newGeminiSession(t)
	gs.scan(t, st)
	if out, logged := gs.run(t, st, gs.payload(t, "Notification-permission")); out != "" || logged != "" {
		t.Fatalf("printed %q, logged %q", out, logged)
	}
	rec, err := st.Record(context.Background(), "e1f1109d-ce3e-4fe7-8906-db7461bfb571")
	if err != nil {
		t.Fatal(err)
	}
	if a := rec.Session(hookNow).Activity; a != tally.ActivityNeedsInput {
		t.Errorf("activity %s", a)
	}
}

// A transcript cut mid-line after the store had folded more of it (the
// agent crashed while writing, or the file was replaced by a shorter one)
// is folded again from its start: the hook answers within its deadline
// from the complete lines, and never blocks the agent.
func TestHook_aTranscriptCutBelowTheStoresOffsetIsFoldedAgain(t *testing.T) {
	for _, tc := range []struct {
		agent, payload, cutAt, want string
	}{
		{"claude", "SessionStart-compact", `"name":"TodoWrite","input"`, "[in progress] Write greeting module"},
		{"gemini", "BeforeAgent-compress", `"args":{"todos":[{"description":"Write greet.py with greet(name)","status":"completed"`, "[in progress] Write greet.py with greet(name)"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			st := newStore(t)
			var path string
			var run func(payload string) (string, string)
			switch tc.agent {
			case "claude":
				hs := newHookSession(t, "todo")
				path = hs.transcript
				hs.cmd(t, st, nil, "scan")
				run = func(p string) (string, string) {
					_, out, logged := hs.run(t, st, hs.payload(t, "todo", p))
					return out, logged
				}
			default:
				gs := newGeminiSession(t)
				path = gs.transcript
				gs.scan(t, st)
				run = func(p string) (string, string) {
					if p == "BeforeAgent-compress" {
						gs.run(t, st, gs.payload(t, "PreCompress-manual"))
					}
					return gs.run(t, st, gs.payload(t, p))
				}
			}
			saved, err := st.File(context.Background(), path)
			if err != nil || saved.Offset == 0 {
				t.Fatalf("the scan saved no fold: %v", err)
			}
			data, _ := os.ReadFile(path)
			i := bytes.LastIndex(data, []byte(tc.cutAt))
			if i < 0 || int64(i) >= saved.Offset {
				t.Fatalf("cut at %d, saved offset %d", i, saved.Offset)
			}
			if err := os.WriteFile(path, data[:i], 0o600); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out, logged := run(tc.payload)
			if took := time.Since(start); took > hookservice.Deadline {
				t.Errorf("took %v, the deadline is %v", took, hookservice.Deadline)
			}
			if !strings.Contains(out, tc.want) || logged != "" {
				t.Errorf("answer %s\nlog %q", out, logged)
			}
			if !json.Valid([]byte(out)) {
				t.Errorf("the agent got invalid JSON: %q", out)
			}
		})
	}
}

// A legacy Gemini CLI record (a JSON document rewritten whole) over the
// line limit, indexed as a stream, is the hooks' as the index holds it:
// after a /compress its list comes back at the next prompt. (A hook read
// it as a log, its one line over the limit: no list.)
func TestHookGemini_aLegacyRecordOverTheLineLimitIsRead(t *testing.T) {
	st := newStore(t)
	gs := newGeminiSession(t)
	const sid = "legacy00-0000-4000-8000-000000000006"
	gs.transcript = filepath.Join(filepath.Dir(gs.transcript), "session-2026-11-23T10-00-legacy00.json")
	if err := geminitest.LegacyRecord(gs.transcript, sid, tail.MaxLine+(1<<20)); err != nil {
		t.Fatal(err)
	}
	gs.scan(t, st)
	payload := func(name string) []byte {
		var m map[string]any
		json.Unmarshal(gs.payload(t, name), &m)
		m["session_id"] = sid
		b, _ := json.Marshal(m)
		return b
	}
	if out, logged := gs.run(t, st, payload("PreCompress-manual")); out != "" || logged != "" {
		t.Fatalf("PreCompress printed %q, logged %q", out, logged)
	}
	out, logged := gs.run(t, st, payload("BeforeAgent-compress"))
	for _, item := range geminitest.LegacyTodos {
		if !strings.Contains(out, item) || logged != "" {
			t.Fatalf("the list is not given back (no %q):\n%s\nlog %q", item, out, logged)
		}
	}
}
