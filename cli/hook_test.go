package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/hookservice"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tasks"
)

// hookRec holds the payloads and transcripts the real Claude Code 2.1.330
// gave its hooks (see hook/testdata/README.md).
const hookRec = "../hook/testdata/claude-2.1.330"

// hookSession is one recorded session copied into a Claude config dir of
// the test's own, as Claude Code lays it out.
type hookSession struct {
	id, transcript, claudeDir, state string
	// now is the clock of the commands run for the session.
	now time.Time
}

func newHookSession(t *testing.T, kind string) *hookSession {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(hookRec, kind, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var first struct{ SessionID string }
	for _, line := range bytes.Split(data, []byte("\n")) {
		if json.Unmarshal(line, &first) == nil && first.SessionID != "" {
			break
		}
	}
	dir := t.TempDir()
	hs := hookSession{id: first.SessionID, claudeDir: filepath.Join(dir, "claude"), state: filepath.Join(dir, "state"), now: hookNow}
	hs.transcript = filepath.Join(hs.claudeDir, "projects", "-work", hs.id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(hs.transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hs.transcript, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return &hs
}

// payload is a recorded payload of kind whose transcript_path points at
// the session's copy.
func (hs *hookSession) payload(t *testing.T, kind, name string, edit ...func(map[string]any)) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(hookRec, kind, "payloads", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = hs.transcript
	for _, e := range edit {
		e(m)
	}
	out, _ := json.Marshal(m)
	return out
}

// hookNow is the clock of the hook tests: a minute after the recorded
// sessions' last line.
var hookNow = time.Date(2026, 11, 23, 16, 49, 0, 0, time.UTC)

// cmd runs tally with args over the session's config dir and state dir,
// at its clock, stdin holding in; it returns the exit status and what it
// printed.
func (hs *hookSession) cmd(t *testing.T, st store.Store, in []byte, args ...string) (ExitCode, string) {
	t.Helper()
	var out, errOut syncBuffer
	env := testEnv(st, &out, &errOut, map[string]string{"XDG_STATE_HOME": hs.state})
	env.Now = func() time.Time { return hs.now }
	env.In = bytes.NewReader(in)
	code := Run(context.Background(), env, append([]string{"--claude-dir", hs.claudeDir}, args...))
	if errOut.String() != "" && code == ExitOK {
		t.Errorf("tally %v wrote to stderr: %s", args, errOut.String())
	}
	return code, out.String()
}

// run runs `tally hook claude` with payload on stdin; it returns the exit
// status, what it printed and what it logged.
func (hs *hookSession) run(t *testing.T, st store.Store, payload []byte, args ...string) (ExitCode, string, string) {
	t.Helper()
	code, out := hs.cmd(t, st, payload, append([]string{"hook", "claude"}, args...)...)
	logged, _ := os.ReadFile(filepath.Join(hs.state, "tally", "tally.log"))
	return code, out, string(logged)
}

func TestHook_compactionGivesBackTheUnfinishedItems(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	code, out, logged := hs.run(t, st, hs.payload(t, "todo", "SessionStart-compact"))
	if code != ExitOK || logged != "" {
		t.Fatalf("exit %d, log %q", code, logged)
	}
	want, _ := os.ReadFile("../hook/testdata/golden/compact-todo.json")
	if out != string(want) {
		t.Errorf("answer:\n%s\nwant the hook package's golden:\n%s", out, want)
	}
}

func TestHook_theSessionsTallyList(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	name := hook.SessionList(claude.Agent, hs.id)
	if name != "claude-"+hs.id {
		t.Fatalf("list name %q", name)
	}
	if got := sessionList(func(k string) string { return map[string]string{"CLAUDE_CODE_SESSION_ID": hs.id}[k] }); got != name {
		t.Errorf("tally mcp started by this session uses list %q, the hooks read %q", got, name)
	}
	if _, err := st.UpdateTaskList(context.Background(), name, func(l *tasks.List) error {
		for _, s := range []string{"Draft the release notes", "Tag the release"} {
			if _, err := l.Create(tasks.CreateArgs{Subject: s}, fixedNow); err != nil {
				return err
			}
		}
		done := tally.StatusCompleted
		_, err := l.Update(tasks.UpdateArgs{ID: "1", Status: &done}, fixedNow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	_, out, _ := hs.run(t, st, hs.payload(t, "todo", "SessionStart-compact"))
	if !strings.Contains(out, `#2 [pending] Tag the release`) || strings.Contains(out, "Draft the release notes") {
		t.Errorf("answer:\n%s", out)
	}
}

func TestHook_stopGuardAcrossProcesses(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	stop := hs.payload(t, "todo", "Stop")
	var blocked int
	for range 3 {
		_, out, _ := hs.run(t, st, stop, "--guard-stop")
		if strings.Contains(out, `"decision":"block"`) {
			blocked++
		}
	}
	if blocked != hook.DefaultStopBlocks {
		t.Errorf("%d of 3 stops refused, want %d: the block count must survive between hook processes", blocked, hook.DefaultStopBlocks)
	}
	if _, out, _ := hs.run(t, newStore(t), hs.payload(t, "todo", "Stop-active"), "--guard-stop"); out != "" {
		t.Errorf("with stop_hook_active: %s", out)
	}
	if _, out, _ := hs.run(t, newStore(t), stop); out != "" {
		t.Errorf("without --guard-stop: %s", out)
	}
}

// TestHook_needsInputShowsOnEverySurfaceUntilTheNextActivity replays a real
// permission prompt of Claude Code 2.1.330 (run in tmux): its transcript as
// it stood when the prompt showed — the last line a Bash call, which reads
// as working — the Notification it sent at 17:16:45, then the lines it wrote
// when the user answered.
func TestHook_needsInputShowsOnEverySurfaceUntilTheNextActivity(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "permission")
	hs.now = time.Date(2026, 11, 23, 17, 16, 45, 422_000_000, time.UTC)
	if code, _ := hs.cmd(t, st, nil, "scan"); code != ExitOK {
		t.Fatal("scan failed")
	}
	activity := func() string {
		t.Helper()
		_, out := hs.cmd(t, st, nil, "sessions", "--json")
		var s []tally.Session
		if err := json.Unmarshal([]byte(out), &s); err != nil || len(s) != 1 {
			t.Fatalf("%v: %s", err, out)
		}
		return s[0].Activity.String()
	}
	if a := activity(); a != "working" {
		t.Fatalf("before the notification: %s", a)
	}
	if _, out, logged := hs.run(t, st, hs.payload(t, "permission", "Notification-permission_prompt")); out != "" || logged != "" {
		t.Fatalf("notification printed %q, logged %q", out, logged)
	}
	if a := activity(); a != "needs_input" {
		t.Errorf("after the permission prompt: %s", a)
	}
	// An indexer that folds the lines written before the prompt keeps it.
	if code, _ := hs.cmd(t, st, nil, "scan"); code != ExitOK || activity() != "needs_input" {
		t.Errorf("a scan of the same transcript ended the wait")
	}
	after, err := os.ReadFile(filepath.Join(hookRec, "permission", "after.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(hs.transcript, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(after)
	f.Close()
	hs.now = time.Date(2026, 11, 23, 17, 16, 50, 0, time.UTC)
	hs.cmd(t, st, nil, "scan")
	if a := activity(); a == "needs_input" {
		t.Errorf("after the user answered: still %s", a)
	}
}

func TestHook_aHooksActivityEndsTheWait(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "permission")
	hs.now = time.Date(2026, 11, 23, 17, 16, 45, 0, time.UTC)
	hs.cmd(t, st, nil, "scan")
	hs.run(t, st, hs.payload(t, "permission", "Notification-permission_prompt"))
	hs.now = hs.now.Add(5 * time.Second)
	hs.run(t, st, hs.payload(t, "todo", "PostToolUse-Write", func(m map[string]any) { m["session_id"] = hs.id }))
	_, out := hs.cmd(t, st, nil, "sessions", "--json")
	if strings.Contains(out, "needs_input") {
		t.Errorf("after the next tool call, with no indexer running: %s", out)
	}
}

func TestHook_faults(t *testing.T) {
	t.Run("garbage on stdin: nothing printed, exit 0, one log line", func(t *testing.T) {
		hs := newHookSession(t, "todo")
		code, out, logged := hs.run(t, newStore(t), []byte("\x00garbage{"))
		if code != ExitOK || out != "" || strings.Count(logged, "\n") != 1 || !strings.Contains(logged, "hook claude") {
			t.Errorf("exit %d, out %q, log %q", code, out, logged)
		}
	})
	t.Run("stdin never closed: nothing printed by the deadline, one log line", func(t *testing.T) {
		hs := newHookSession(t, "todo")
		r, w := io.Pipe()
		defer w.Close()
		var out, errOut syncBuffer
		env := testEnv(newStore(t), &out, &errOut, map[string]string{"XDG_STATE_HOME": hs.state})
		env.In = r
		start := time.Now()
		code := Run(context.Background(), env, []string{"hook", "claude"})
		logged, _ := os.ReadFile(filepath.Join(hs.state, "tally", "tally.log"))
		if code != ExitOK || out.String() != "" || time.Since(start) > 2*hookservice.Deadline || !strings.Contains(string(logged), "no answer within") {
			t.Errorf("exit %d, out %q, log %q", code, out.String(), logged)
		}
	})
	t.Run("transcript missing: the Tally list still answers, nothing else", func(t *testing.T) {
		hs := newHookSession(t, "todo")
		os.Remove(hs.transcript)
		code, out, logged := hs.run(t, newStore(t), hs.payload(t, "todo", "SessionStart-compact"))
		if code != ExitOK || out != "" || logged != "" {
			t.Errorf("exit %d, out %q, log %q", code, out, logged)
		}
	})
	t.Run("transcript cut mid-line: the complete lines count", func(t *testing.T) {
		hs := newHookSession(t, "todo")
		data, _ := os.ReadFile(hs.transcript)
		// Cut inside the line of the last TodoWrite call: the list is then
		// the one before it, which had the test pending.
		i := bytes.LastIndex(data, []byte(`"name":"TodoWrite","input"`))
		os.WriteFile(hs.transcript, data[:i], 0o600)
		_, out, logged := hs.run(t, newStore(t), hs.payload(t, "todo", "SessionStart-compact"))
		if !strings.Contains(out, "[in progress] Write greeting module") || logged != "" {
			t.Errorf("out %s, log %q", out, logged)
		}
	})
	t.Run("store locked by another process: answers within the deadline, blocks nothing", func(t *testing.T) {
		st := newStore(t)
		hs := newHookSession(t, "todo")
		db, err := sql.Open("sqlite", st.Path())
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		conn, _ := db.Conn(context.Background())
		defer conn.Close()
		if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck
		start := time.Now()
		_, out, logged := hs.run(t, st, hs.payload(t, "todo", "Stop"), "--guard-stop")
		if took := time.Since(start); took > time.Second {
			t.Errorf("took %v", took)
		}
		if out != "" || !strings.Contains(logged, "memory is out of reach") {
			t.Errorf("out %q, log %q", out, logged)
		}
		if _, out, _ = hs.run(t, st, hs.payload(t, "todo", "SessionStart-compact")); !strings.Contains(out, "Add unit test") {
			t.Errorf("re-injection needs no write: %q", out)
		}
	})
}

func TestHook_aLongTranscriptIsFoldedOnce(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	data, _ := os.ReadFile(hs.transcript)
	filler := []byte(`{"type":"progress","data":"` + strings.Repeat("x", 1000) + `"}` + "\n")
	f, _ := os.OpenFile(hs.transcript, os.O_APPEND|os.O_WRONLY, 0)
	for range 2 * hookservice.CommitAfter / len(filler) {
		f.Write(filler)
	}
	f.Close()
	hs.run(t, st, hs.payload(t, "todo", "UserPromptSubmit"))
	saved, err := st.File(context.Background(), hs.transcript)
	fi, _ := os.Stat(hs.transcript)
	if err != nil || saved.Offset != fi.Size() || fi.Size() < int64(len(data))+hookservice.CommitAfter {
		t.Fatalf("saved fold: %v, %+v", err, saved)
	}
	rec, err := st.Record(context.Background(), hs.id)
	if err != nil || len(rec.Lists[""]) != 3 {
		t.Errorf("the session's record: %v %+v", err, rec)
	}
}

// A session that starts in a project keeping a plan is told the plan
// protocol by its SessionStart hook, naming the project's plan folder; a
// session elsewhere is told nothing.
func TestHook_sessionStartTellsThePlanProtocol(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "docs", "por"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := func(dir string) func(map[string]any) { return func(m map[string]any) { m["cwd"] = dir } }
	_, out, logged := hs.run(t, st, hs.payload(t, "todo", "SessionStart-startup", in(project)))
	var ans struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || logged != "" {
		t.Fatalf("answer %q (%v), log %q", out, err, logged)
	}
	if c := ans.HookSpecificOutput.AdditionalContext; !strings.HasPrefix(c, "## Task Management Protocol") || !strings.Contains(c, "`docs/por/T###-slug/task.yaml`") {
		t.Fatalf("the agent was told:\n%s", c)
	}
	if _, out, _ = hs.run(t, newStore(t), hs.payload(t, "todo", "SessionStart-startup", in(t.TempDir()))); out != "" {
		t.Fatalf("a project without a plan: %q", out)
	}
}

// Tally's log, where a hook says what went wrong, made a FIFO (or a
// link): the hook still ends at once, exit 0, and nothing is written
// through it.
func TestHook_logThatIsAFIFOOrALinkNeverHoldsTheHook(t *testing.T) {
	for _, kind := range []string{"fifo", "link"} {
		t.Run(kind, func(t *testing.T) {
			hs := newHookSession(t, "todo")
			log := filepath.Join(hs.state, "tally", "tally.log")
			os.MkdirAll(filepath.Dir(log), 0o700)
			victim := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(victim, []byte("keep\n"), 0o600)
			if kind == "fifo" {
				fifo(t, log)
			} else if err := os.Symlink(victim, log); err != nil {
				t.Fatal(err)
			}
			done := make(chan ExitCode, 1)
			go func() {
				code, _ := hs.cmd(t, newStore(t), []byte("\x00garbage{"), "hook", "claude") // logged
				done <- code
			}()
			select {
			case code := <-done:
				if code != ExitOK {
					t.Fatalf("exit %d", code)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the hook is still waiting on its log")
			}
			if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
				t.Fatalf("written through the link: %q", b)
			}
		})
	}
}

// Exit 2 is Claude Code's blocking code: a hook command line with a typo,
// a flag an older tally lacks or an extra argument would block every
// prompt and refuse every stop. tally hook exits 0 on any command line,
// prints nothing, and logs what was wrong.
func TestHook_aBadCommandLineExitsZero(t *testing.T) {
	for _, args := range [][]string{
		{"hook", "claude", "--no-such-flag"},
		{"hook", "--guard-stop=maybe", "claude"},
		{"hook", "claude", "--stop-blocks", "lots"},
		{"hook", "claude", "extra"},
		{"hook"},
		{"--no-such-global", "hook", "claude"},
		{"hook", "claude", "--remind-after"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			hs := newHookSession(t, "todo")
			var out, errOut syncBuffer
			env := testEnv(newStore(t), &out, &errOut, map[string]string{"XDG_STATE_HOME": hs.state})
			env.In = bytes.NewReader(hs.payload(t, "todo", "Stop"))
			code := Run(context.Background(), env, append([]string{"--claude-dir", hs.claudeDir}, args...))
			logged, _ := os.ReadFile(filepath.Join(hs.state, "tally", "tally.log"))
			if code != ExitOK || out.String() != "" || errOut.String() != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
			}
			if !strings.Contains(string(logged), "cannot be run") {
				t.Fatalf("the log reads %q", logged)
			}
		})
	}
}

// A hook call names its transcript, and anyone with a write token can
// make one over HTTP (POST /api/hook/AGENT): a transcript_path outside the
// agent's session logs is not read — the answer shows nothing of that
// file — and said in the log.
func TestHook_aTranscriptOutsideTheAgentsHomeIsNotRead(t *testing.T) {
	hs := newHookSession(t, "todo")
	outside := filepath.Join(t.TempDir(), hs.id+".jsonl") // a copy of a real transcript, elsewhere
	data, _ := os.ReadFile(hs.transcript)
	os.WriteFile(outside, data, 0o600)
	for _, path := range []string{outside, filepath.Join(hs.claudeDir, "projects", "-work", "..", "..", "..", filepath.Base(filepath.Dir(outside)), hs.id+".jsonl"), "relative/" + hs.id + ".jsonl"} {
		st := newStore(t)
		payload := hs.payload(t, "todo", "SessionStart-compact", func(m map[string]any) { m["transcript_path"] = path })
		answer := hs.served(t, st, payload)
		logged, _ := os.ReadFile(filepath.Join(hs.state, "tally", "tally.log"))
		if strings.Contains(string(answer), "Write greeting module") || !strings.Contains(string(logged), "is not one of the agent's session logs") {
			t.Fatalf("%s: answer %s\nlog %s", path, answer, logged)
		}
	}
}

// served is serve's answer to a hook call over HTTP (the hook service as
// serve builds it, over its store), with the session's Claude home.
func (hs *hookSession) served(t *testing.T, st store.Store, payload []byte) []byte {
	t.Helper()
	a := &app{env: testEnv(st, &syncBuffer{}, &syncBuffer{}, map[string]string{"XDG_STATE_HOME": hs.state})}
	a.env.Now = func() time.Time { return hs.now }
	if err := a.rootCommand().PersistentFlags().Parse([]string{"--claude-dir", hs.claudeDir}); err != nil {
		t.Fatal(err)
	}
	svc := a.hookService(hookOptionsOf(config.Default().Hooks), config.Default(), 0,
		func(context.Context) (hookservice.Store, error) { return st, nil })
	if !svc.Knows("claude") {
		t.Fatal("the service answers no claude hooks")
	}
	var answer []byte
	svc.Answer(context.Background(), hookservice.Call{Agent: "claude", Start: hs.now,
		Read:  func() ([]byte, error) { return payload, nil },
		Reply: func(out []byte) error { answer = out; return nil }})
	return answer
}

// A hook whose session_id is not its transcript's does not fold that
// transcript as the session it names: the transcript stays its own
// session's in the store, whatever the call said.
func TestHook_aSessionIDNotTheTranscriptsMovesNothing(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	filler := []byte(`{"type":"progress","data":"` + strings.Repeat("x", 1000) + `"}` + "\n")
	f, _ := os.OpenFile(hs.transcript, os.O_APPEND|os.O_WRONLY, 0)
	for range 2 * hookservice.CommitAfter / len(filler) { // long enough that a fold is saved
		f.Write(filler)
	}
	f.Close()
	hs.run(t, st, hs.payload(t, "todo", "UserPromptSubmit"))
	_, out, logged := hs.run(t, st, hs.payload(t, "todo", "SessionStart-compact", func(m map[string]any) { m["session_id"] = "invented-session" }))
	if strings.Contains(out, "Write greeting module") || !strings.Contains(logged, "is the transcript of session "+hs.id) {
		t.Fatalf("answer %s\nlog %s", out, logged)
	}
	saved, err := st.File(context.Background(), hs.transcript)
	if err != nil || saved.Session != hs.id {
		t.Fatalf("the transcript's saved state: %+v, %v; want it %s's", saved, err, hs.id)
	}
	if _, err := st.Record(context.Background(), "invented-session"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Fatalf("the invented session has a record: %v", err)
	}
}

// A store that never answers (a database server that accepts and says
// nothing) does not take the hook's whole deadline: after a short wait
// the hook answers from the transcript alone.
func TestHook_aStoreThatNeverAnswersLeavesTimeToAnswer(t *testing.T) {
	hs := newHookSession(t, "todo")
	var out, errOut syncBuffer
	env := testEnv(nil, &out, &errOut, map[string]string{"XDG_STATE_HOME": hs.state})
	env.Now = func() time.Time { return hs.now }
	env.In = bytes.NewReader(hs.payload(t, "todo", "SessionStart-compact"))
	env.OpenStore = func(ctx context.Context, _ string) (store.Store, error) {
		<-ctx.Done() // connected, and nothing more
		return nil, ctx.Err()
	}
	code := Run(context.Background(), env, []string{"--claude-dir", hs.claudeDir, "hook", "claude"})
	logged, _ := os.ReadFile(filepath.Join(hs.state, "tally", "tally.log"))
	if code != ExitOK || !strings.Contains(out.String(), "[in progress] Add unit test") || !strings.Contains(string(logged), "did not answer") {
		t.Fatalf("exit %d, answer %q, log %s", code, out.String(), logged)
	}
}

// appendMarker appends to a Claude Code transcript a reply of the model's
// saying a progress marker, then so many lines after it that a hook's fold
// of them is committed.
func appendMarker(t *testing.T, transcript string) {
	t.Helper()
	reply, err := json.Marshal(map[string]any{
		"parentUuid": nil, "isSidechain": false, "type": "assistant", "uuid": "c0ffee00-0000-4000-8000-000000000001",
		"timestamp": "2026-11-23T16:48:30.000Z", "sessionId": strings.TrimSuffix(filepath.Base(transcript), ".jsonl"), "cwd": "/work",
		"message": map[string]any{"id": "msg_marker", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": []map[string]any{{"type": "text", "text": "Planned.\nprogress: T001 start"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(append(reply, '\n'))
	filler := []byte(`{"type":"progress","data":"` + strings.Repeat("x", 1000) + `"}` + "\n")
	for range 2 * hookservice.CommitAfter / len(filler) {
		f.Write(filler)
	}
}

// A hook that folds a long transcript commits the fold as the indexer
// does, being the indexer's: the progress marker it read waits, pending,
// for the planner (the indexer goes on after those bytes and never reads
// it again), and detection's state is saved with the offset — what a scan
// of the same transcript saves, flags and stall time alike.
func TestHook_aFoldItCommitsCarriesMarkersAndDetection(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	hs := newHookSession(t, "todo")
	appendMarker(t, hs.transcript)
	if code, _, logged := hs.run(t, st, hs.payload(t, "todo", "UserPromptSubmit")); code != ExitOK || logged != "" {
		t.Fatalf("exit %d, log %q", code, logged)
	}
	pending, err := st.PendingMarkers(ctx, 10)
	if err != nil || len(pending) != 1 || pending[0].Session != hs.id || pending[0].Marker.Task != "T001" || pending[0].Marker.Verb != "start" {
		t.Fatalf("pending markers after the hook: %+v, %v; want T001 start of %s", pending, err, hs.id)
	}
	scanned := newStore(t)
	if code, _ := hs.cmd(t, scanned, nil, "scan"); code != ExitOK {
		t.Fatalf("scan: exit %d", code)
	}
	got, err := st.File(ctx, hs.transcript)
	if err != nil {
		t.Fatal(err)
	}
	want, err := scanned.File(ctx, hs.transcript)
	if err != nil {
		t.Fatal(err)
	}
	if got.Offset != want.Offset || len(want.Detect) == 0 || !bytes.Equal(got.Detect, want.Detect) {
		t.Errorf("the hook saved offset %d, detection %s; a scan saves offset %d, detection %s", got.Offset, got.Detect, want.Offset, want.Detect)
	}
	rec, _ := st.Record(ctx, hs.id)
	wrec, _ := scanned.Record(ctx, hs.id)
	if rec.Flags != wrec.Flags || !rec.StallAt.Equal(wrec.StallAt) {
		t.Errorf("the hook's record: flags %v, stall at %v; a scan's: %v, %v", rec.Flags, rec.StallAt, wrec.Flags, wrec.StallAt)
	}
}

// The turns between list updates are the model calls the transcript's
// fold counts (tally.Turner: an assistant message, however many lines it
// takes), one read for the list and the count: after
// --remind-after of them with the session's Tally list unchanged and
// unfinished, the next prompt is reminded of it; a first call counts
// nothing.
func TestHook_aReminderComesAfterTheTurnsTheFoldCounted(t *testing.T) {
	st := newStore(t)
	hs := newHookSession(t, "todo")
	if _, err := st.UpdateTaskList(context.Background(), hook.SessionList(claude.Agent, hs.id), func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Tag the release"}, fixedNow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	prompt := hs.payload(t, "todo", "UserPromptSubmit")
	if _, out, logged := hs.run(t, st, prompt, "--remind-after", "3"); out != "" || logged != "" {
		t.Fatalf("a first call reminded: %q, log %q", out, logged)
	}
	f, err := os.OpenFile(hs.transcript, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		// One model call: its message's lines, as Claude Code writes them
		// (a text block, then a tool call, both with the message's id).
		for _, block := range []string{`{"type":"text","text":"Working."}`, `{"type":"tool_use","id":"toolu_t` + strconv.Itoa(i) + `","name":"Read","input":{"file_path":"greet.py"}}`} {
			fmt.Fprintf(f, `{"parentUuid":null,"isSidechain":false,"message":{"id":"msg_turn%d","type":"message","role":"assistant","content":[%s]},"type":"assistant","sessionId":%q,"timestamp":"2026-11-23T16:48:%02d.000Z"}`+"\n", i, block, hs.id, 10+i)
		}
		if i == 1 {
			if _, out, _ := hs.run(t, st, prompt, "--remind-after", "3"); out != "" {
				t.Fatalf("reminded after 2 turns: %s", out)
			}
		}
	}
	f.Close()
	_, out, logged := hs.run(t, st, prompt, "--remind-after", "3")
	if !strings.Contains(out, "have not changed for 3 turns") || !strings.Contains(out, "Tag the release") || logged != "" {
		t.Errorf("after 3 turns: %s\nlog %q", out, logged)
	}
}
