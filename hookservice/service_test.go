package hookservice_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/hookservice"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tasks"
)

const rec = "../hook/testdata/claude-2.1.330/todo"

// session copies the recorded session's transcript into a Claude home of
// the test's own and returns the home and the payload of a SessionStart
// after a compaction that names it.
func session(t *testing.T) (home string, payload []byte) {
	t.Helper()
	home = t.TempDir()
	b, err := os.ReadFile(filepath.Join(rec, "payloads", "SessionStart-compact.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(home, "projects", "-work", m["session_id"].(string)+".jsonl")
	data, err := os.ReadFile(filepath.Join(rec, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = transcript
	payload, _ = json.Marshal(m)
	return home, payload
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(line string) { l.mu.Lock(); l.lines = append(l.lines, line); l.mu.Unlock() }
func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func service(home string, open func(context.Context) (hookservice.Store, error), log *logLines) *hookservice.Service {
	return hookservice.New(hookservice.Options{
		Agent: func(name string) (hookservice.Agent, bool) {
			if name != "claude" {
				return hookservice.Agent{}, false
			}
			return hookservice.Agent{Spec: claude.Descriptor.Hooks, Adapter: claude.New(claude.Options{ConfigDir: home})}, true
		},
		Store: open, Log: log.add,
		Now: func() time.Time { return time.Date(2026, 11, 23, 16, 49, 0, 0, time.UTC) },
	})
}

func answer(svc *hookservice.Service, payload []byte) string {
	var out []byte
	svc.Answer(context.Background(), hookservice.Call{Agent: "claude", Start: time.Date(2026, 11, 23, 16, 49, 0, 0, time.UTC),
		Read:  func() ([]byte, error) { return payload, nil },
		Reply: func(b []byte) error { out = b; return nil }})
	return string(out)
}

// The service answers a compaction with the unfinished items, with its
// store or, when the store cannot be opened, from the transcript alone,
// saying so in the log: a broken store never costs the agent its answer.
func TestService_Answer(t *testing.T) {
	home, payload := session(t)
	want, err := os.ReadFile("../hook/testdata/golden/compact-todo.json")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var log logLines
	withStore := service(home, func(context.Context) (hookservice.Store, error) { return st, nil }, &log)
	if got := answer(withStore, payload); got != string(want) || log.String() != "" {
		t.Errorf("with the store: %s\nwant %s\nlog %s", got, want, log.String())
	}
	broken := service(home, func(context.Context) (hookservice.Store, error) { return nil, errors.New("disk on fire") }, &log)
	if got := answer(broken, payload); got != string(want) || !strings.Contains(log.String(), "no store (disk on fire): answering from the transcript alone") {
		t.Errorf("without the store: %s\nlog %s", got, log.String())
	}
}

// Knows is the agents the service answers; a call for another is logged
// and answered with nothing.
func TestService_Knows(t *testing.T) {
	home, payload := session(t)
	var log logLines
	svc := service(home, nil, &log)
	if !svc.Knows("claude") || svc.Knows("nosuch") {
		t.Errorf("Knows: claude %v, nosuch %v", svc.Knows("claude"), svc.Knows("nosuch"))
	}
	var called bool
	svc.Answer(context.Background(), hookservice.Call{Agent: "nosuch", Read: func() ([]byte, error) { return payload, nil },
		Reply: func([]byte) error { called = true; return nil }})
	if called || !strings.Contains(log.String(), `no hooks for agent "nosuch"`) {
		t.Errorf("answered %v, log %s", called, log.String())
	}
}

// payloadFor reads a recorded payload of the todo session and points it
// at transcript.
func payloadFor(t *testing.T, name, transcript string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec, "payloads", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = transcript
	out, _ := json.Marshal(m)
	return out
}

// Claude Code 2.1.330 runs its hooks before it writes the call to the
// transcript, so a Stop right after the first TodoWrite can find the
// transcript without the list (the flaky e2e stop guard): the guard
// decides from what PostToolUse was told (tool_input, tool_response), and
// forgets it once the transcript holds the call.
func TestService_stopGuardDecidesFromTheListPostToolUseWasToldOf(t *testing.T) {
	home := t.TempDir()
	data, err := os.ReadFile(filepath.Join(rec, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// The transcript as it stood when the first TodoWrite's hooks ran:
	// its call (line 33) not written yet.
	before := strings.Join(lines[:32], "")
	if strings.Contains(before, `"name":"TodoWrite","input"`) {
		t.Fatal("the cut transcript holds the TodoWrite call")
	}
	var m struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(payloadFor(t, "Stop.json", ""), &m)
	transcript := filepath.Join(home, "projects", "-work", m.SessionID+".jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o700)
	if err := os.WriteFile(transcript, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var log logLines
	svc := service(home, func(context.Context) (hookservice.Store, error) { return st, nil }, &log)
	guarded := func(payload []byte) string {
		var out []byte
		svc.Answer(context.Background(), hookservice.Call{Agent: "claude", GuardStop: true, Start: time.Date(2026, 11, 23, 16, 49, 0, 0, time.UTC),
			Read:  func() ([]byte, error) { return payload, nil },
			Reply: func(b []byte) error { out = b; return nil }})
		return string(out)
	}
	guarded(payloadFor(t, "PostToolUse-TodoWrite.json", transcript))
	got := guarded(payloadFor(t, "Stop.json", transcript))
	for _, want := range []string{`"decision":"block"`, "[in progress] Write greeting module", "[pending] Add unit test"} {
		if !strings.Contains(got, want) {
			t.Errorf("the stop after the TodoWrite the transcript lacks: %s\nlacks %q (log %s)", got, want, log.String())
		}
	}
	// The transcript catches up, then the list is done: the transcript
	// is the truth again, and a stop with nothing left is let through.
	done := strings.Join(lines, "")
	for _, s := range []string{`"status":"in_progress"`, `"status":"pending"`} {
		done = strings.ReplaceAll(done, s, `"status":"completed"`)
	}
	if err := os.WriteFile(transcript, []byte(done), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := guarded(payloadFor(t, "Stop-active.json", transcript)); got != "" {
		t.Errorf("stop_hook_active: %s", got)
	}
	if got := guarded(payloadFor(t, "Stop.json", transcript)); got != "" {
		t.Errorf("a stop with the transcript's list all done is refused: %s", got)
	}
}

// An interactive Claude Code 2.1.330 session (recorded in tmux, see
// hook/testdata/README.md) with a TodoWrite list and a task in its Tally
// list, then model calls that change neither, written without the
// api-request lines (as 1.0.x writes none): from the hook call made as the
// first Write was asked for, twelve turns follow (eleven more Writes and
// the closing message); the hooks count them from the assistant's
// messages and remind of the Tally list.
func TestService_remindsAfterTwelveTurnsWithoutApiRequestLines(t *testing.T) {
	const session = "6ef6a0cd-111e-438c-8082-f1b18eb05477"
	data, err := os.ReadFile("../hook/testdata/claude-2.1.330/interactive-reminder/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, `{"type":"api-request"`) {
			lines = append(lines, l)
		}
	}
	first := -1 // the first Write call: its message's text line is before it
	for i, l := range lines {
		if strings.Contains(l, `"name":"Write","input"`) {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatal("no Write call in the capture")
	}
	home := t.TempDir()
	transcript := filepath.Join(home, "projects", "-work", session+".jsonl")
	os.MkdirAll(filepath.Dir(transcript), 0o700)
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 26, 15, 12, 30, 0, time.UTC)
	if _, err := st.UpdateTaskList(context.Background(), hook.SessionList("claude", session), func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Publish the notes"}, now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var log logLines
	svc := service(home, func(context.Context) (hookservice.Store, error) { return st, nil }, &log)
	payload := func() []byte {
		b := payloadFor(t, "PostToolUse-Write.json", transcript)
		return []byte(strings.ReplaceAll(string(b), "82d497ea-5eae-441d-971e-6232a0f3fee0", session))
	}
	write := func(upTo int) {
		if err := os.WriteFile(transcript, []byte(strings.Join(lines[:upTo], "")), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(first)
	if got := answer(svc, payload()); got != "" {
		t.Fatalf("before the twelve turns: %s", got)
	}
	write(len(lines))
	got := answer(svc, payload())
	for _, want := range []string{"Reminder: your lists have not changed for 12 turns", "[pending] Publish the notes"} {
		if !strings.Contains(got, want) {
			t.Errorf("after twelve turns: %s\nlacks %q (log %s)", got, want, log.String())
		}
	}
}
