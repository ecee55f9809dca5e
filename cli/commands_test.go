package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/internal/version"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tasks"
)

const captured = "../testdata/fixtures/captured/claude-code-2.1.330"

// run runs tally once against st and returns its exit code and streams.
func run(t *testing.T, st store.Store, env map[string]string, args ...string) (ExitCode, string, string) {
	t.Helper()
	var out, errOut syncBuffer
	code := Run(context.Background(), testEnv(st, &out, &errOut, env), args)
	return code, out.String(), errOut.String()
}

// agentTasks reads the task files Claude Code itself wrote at exit: the
// agent's own record of how its list ended.
func agentTasks(t *testing.T, scenario string) []struct{ ID, Subject, Status string } {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(captured, scenario, "config/tasks/*/*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no task files for %s: %v", scenario, err)
	}
	var tasks []struct{ ID, Subject, Status string }
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var task struct{ ID, Subject, Status string }
		if err := json.Unmarshal(b, &task); err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, task)
	}
	return tasks
}

func TestRun_scanSessionsShow(t *testing.T) {
	st := newStore(t)
	dir := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config")}

	code, out, errOut := run(t, st, dir, "scan", "--json")
	if code != ExitOK {
		t.Fatalf("scan: exit %d, stderr %s", code, errOut)
	}
	var sum summaryJSON
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("scan --json is not JSON: %v\n%s", err, out)
	}
	if sum.Sessions != 1 || sum.Files != 2 || sum.Lines == 0 || sum.Malformed != 0 {
		t.Errorf("summary = %+v, want 1 session in 2 files (its transcript and its task list), no malformed line", sum)
	}

	tasks := agentTasks(t, "tasks")
	code, out, _ = run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); code != ExitOK || err != nil || len(list) != 1 {
		t.Fatalf("sessions --json: exit %d, %v\n%s", code, err, out)
	}
	done := 0
	for _, task := range tasks {
		if task.Status == "completed" {
			done++
		}
	}
	if p := list[0].Progress; p.Done != done || p.Total != len(tasks) {
		t.Errorf("progress %d/%d, the agent's task files say %d/%d", p.Done, p.Total, done, len(tasks))
	}

	// Task 2 was deleted: Claude Code removed its file, and show must not
	// list it either.
	code, out, errOut = run(t, st, nil, "show", list[0].ID[:6], "--full")
	if code != ExitOK {
		t.Fatalf("show: exit %d: %s", code, errOut)
	}
	for _, task := range tasks {
		if task.Status == "completed" && !strings.Contains(out, "✓ "+task.Subject) {
			t.Errorf("show --full misses completed %q:\n%s", task.Subject, out)
		}
	}
	if n := strings.Count(out, "✓ "); n != len(tasks) {
		t.Errorf("show --full lists %d items, the agent has %d:\n%s", n, len(tasks), out)
	}
	// Every task is done: nothing is left to keep in view, so compact
	// show lists them all too, rather than "… +2 done".
	code, out, _ = run(t, st, nil, "show", list[0].ID)
	if code != ExitOK || strings.Contains(out, "… +") || strings.Count(out, "✓ ") != len(tasks) {
		t.Errorf("compact show of a finished list: exit %d\n%s", code, out)
	}
}

func TestRun_exitCodes(t *testing.T) {
	st := newStore(t)
	rec := exampleRecord()
	other := exampleRecord()
	other.ID = "7c1e2a91-0000-0000-0000-000000000000"
	if err := st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{rec, other}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want ExitCode
		msg  string
	}{
		{"found", []string{"show", "7c1e2a90"}, ExitOK, ""},
		{"not found", []string{"show", "ffff"}, ExitNotFound, "ffff"},
		{"ambiguous prefix", []string{"show", "7c1e2a9"}, ExitConflict, "is ambiguous"},
		{"show without id", []string{"show"}, ExitUsage, "one SESSION"},
		{"unknown flag", []string{"sessions", "--bogus"}, ExitUsage, "unknown flag"},
		{"unknown command", []string{"frobnicate"}, ExitUsage, "frobnicate"},
		{"negative limit", []string{"sessions", "--limit", "-1"}, ExitUsage, "--limit"},
		{"help", []string{"show", "--help"}, ExitOK, ""},
		{"a command misspelt is named", []string{"sesions"}, ExitUsage, `unknown command "sesions" for "tally": did you mean "sessions"?`},
		{"a subcommand misspelt is named", []string{"token", "revok", "x"}, ExitUsage, `did you mean "revoke"?`},
		{"a number flag's value in words", []string{"sessions", "--limit", "abc"}, ExitUsage, `--limit takes a whole number, not "abc"`},
		{"a duration flag's value in words", []string{"scan", "--commit-every", "soon"}, ExitUsage, `--commit-every takes a duration such as 90s, 10m or 1h30m, not "soon"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := run(t, st, nil, c.args...)
			if code != c.want || !strings.Contains(errOut, c.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, c.want, c.msg)
			}
		})
	}
	t.Run("store unavailable", func(t *testing.T) {
		var out, errOut syncBuffer
		env := testEnv(st, &out, &errOut, nil)
		env.OpenStore = func(context.Context, string) (store.Store, error) { return nil, errors.New("disk on fire") }
		if code := Run(context.Background(), env, []string{"sessions"}); code != ExitUnavailable || !strings.Contains(errOut.String(), "disk on fire") {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

func TestRun_sessions(t *testing.T) {
	t.Run("empty store says to scan, and where the logs would be read", func(t *testing.T) {
		code, out, errOut := run(t, newStore(t), nil, "sessions")
		if code != ExitOK || out != "" || !strings.Contains(errOut, "'tally scan'") ||
			!regexp.MustCompile(`\n  claude +~/\.claude/projects  \(not there\)\n`).MatchString(errOut) {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
		if _, out, _ := run(t, newStore(t), nil, "sessions", "--json"); out != "[]\n" {
			t.Errorf("--json on an empty store = %q, want []", out)
		}
	})
	st := newStore(t)
	working := exampleRecord()
	said := exampleRecord()
	said.ID, said.Signal, said.LastActivity = "aaaa0001", tally.SignalEnded, fixedNow.Add(-time.Minute)
	old := exampleRecord()
	old.ID, old.Agent, old.Project, old.LastActivity = "bbbb0002", codex.Agent, testHome+"/src/blog", fixedNow.Add(-2*time.Hour)
	if err := st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{working, said, old}}); err != nil {
		t.Fatal(err)
	}
	ids := func(args ...string) []string {
		t.Helper()
		code, out, errOut := run(t, st, nil, append([]string{"sessions", "--json"}, args...)...)
		var list []tally.Session
		if err := json.Unmarshal([]byte(out), &list); code != ExitOK || err != nil {
			t.Fatalf("exit %d, %v, %s", code, err, errOut)
		}
		var got []string
		for _, s := range list {
			got = append(got, s.ID)
		}
		return got
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "7c1e2a90-1b2c-4d5e-8f90-123456789abc aaaa0001 bbbb0002"},
		{[]string{"--active"}, "7c1e2a90-1b2c-4d5e-8f90-123456789abc"},
		{[]string{"--agent", "codex"}, "bbbb0002"},
		{[]string{"--agent", "Codex"}, "bbbb0002"},
		{[]string{"--project", "blog"}, "bbbb0002"},
		{[]string{"--limit", "1"}, "7c1e2a90-1b2c-4d5e-8f90-123456789abc"},
		{[]string{"--project", "nothing"}, ""},
	} {
		if got := strings.Join(ids(c.args...), " "); got != c.want {
			t.Errorf("sessions %v = %q, want %q", c.args, got, c.want)
		}
	}
	if code, _, errOut := run(t, st, nil, "sessions", "--project", "nothing"); code != ExitOK || !strings.Contains(errOut, "No sessions match") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// An agent name no session can have is a mistake to say, not a filter
// that silently matches nothing.
func TestSessions_UnknownAgentIsAUsageErrorNotAnEmptyList(t *testing.T) {
	code, out, errOut := run(t, newStore(t), nil, "sessions", "--agent", "nosuch")
	if code != ExitUsage || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{`"nosuch"`, "claude", "crush", "tally"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not name %s", errOut, want)
		}
	}
}

func TestRun_colour(t *testing.T) {
	st := newStore(t)
	_ = st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{exampleRecord()}})
	show := func(tty bool, env map[string]string) string {
		var out, errOut syncBuffer
		e := testEnv(st, &out, &errOut, env)
		e.OutTTY = tty
		e.Width = func() int { return 100 }
		if code := Run(context.Background(), e, []string{"show", "7c1e"}); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		return out.String()
	}
	if !strings.Contains(show(true, nil), "\x1b[") {
		t.Error("no colour on a terminal")
	}
	if got := show(true, map[string]string{"NO_COLOR": "1"}); strings.Contains(got, "\x1b[") {
		t.Errorf("colour despite NO_COLOR:\n%q", got)
	}
	if got := show(false, nil); strings.Contains(got, "\x1b[") {
		t.Errorf("colour into a pipe:\n%q", got)
	}
}

// TestRun_showMatchesGolden: what `tally show` prints into a pipe is the
// rendering the golden files hold.
func TestRun_showMatchesGolden(t *testing.T) {
	st := newStore(t)
	_ = st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{exampleRecord()}})
	for args, name := range map[string]string{"show 7c1e2a90": "show_compact", "show 7c1e2a90 --full": "show_full"} {
		code, out, errOut := run(t, st, nil, strings.Fields(args)...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", args, code, errOut)
		}
		golden(t, name, out)
	}
}

// TestRun_emptyScanSaysWhereItLooked: a scan that finds no session names
// each folder it read, and which of them do not exist, on stderr (stdout
// keeps the summary a script reads).
func TestRun_emptyScanSaysWhereItLooked(t *testing.T) {
	home := t.TempDir()
	// Every agent's folder under home, so that the machine's own agents'
	// logs stay out of the test.
	scan := []string{"scan", "--codex-home", filepath.Join(home, "codex"), "--gemini-home", filepath.Join(home, "gemini"),
		"--hermes-home", filepath.Join(home, "hermes"), "--opencode-dir", filepath.Join(home, "opencode"), "--crush-dir", filepath.Join(home, "crush")}
	code, out, errOut := run(t, newStore(t), map[string]string{"CLAUDE_CONFIG_DIR": home}, scan...)
	if code != ExitOK || !strings.HasPrefix(out, "sessions   0\n") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	// The agents' column is as wide as the longest name registered.
	want := regexp.MustCompile(`(?m)^  claude +` + regexp.QuoteMeta(filepath.Join(home, "projects")) + `  \(not there\)$`)
	if !strings.HasPrefix(errOut, "Tally looked for agents' logs in:\n") || !want.MatchString(errOut) ||
		!strings.Contains(errOut, filepath.Join(home, "codex", "sessions")) || !strings.Contains(errOut, filepath.Join(home, "gemini", "tmp")) {
		t.Errorf("stderr does not say where the scan looked:\n%s", errOut)
	}
	if err := os.MkdirAll(filepath.Join(home, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, errOut = run(t, newStore(t), map[string]string{"CLAUDE_CONFIG_DIR": home}, scan...)
	if strings.Contains(errOut, filepath.Join(home, "projects")+"  (not there)") {
		t.Errorf("a folder that exists is said not to:\n%s", errOut)
	}
	st := newStore(t)
	if code, _, errOut := run(t, st, map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config")}, "scan"); code != ExitOK || errOut != "" {
		t.Errorf("a scan that found sessions: exit %d, stderr %q", code, errOut)
	}
}

// TestRun_errorsInTheUsersWords: an error says what happened, not which
// function of Tally's met it; --verbose adds that for a bug report.
func TestRun_errorsInTheUsersWords(t *testing.T) {
	st := newStore(t)
	for _, args := range [][]string{{"show", "x"}, {"show", "ffffffff"}} {
		code, _, errOut := run(t, st, nil, args...)
		if code != ExitNotFound || !strings.HasPrefix(errOut, "tally: no session \"") || strings.Contains(errOut, "sqlite") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		_, _, verbose := run(t, st, nil, append(args, "--verbose")...)
		if !strings.Contains(verbose, "sqlite.") || !strings.HasSuffix(verbose, strings.TrimPrefix(errOut, "tally: ")) {
			t.Errorf("%v --verbose: %q, want the operation before %q", args, verbose, errOut)
		}
	}
	var out, errOut syncBuffer
	env := testEnv(st, &out, &errOut, nil)
	env.OpenStore = func(context.Context, string) (store.Store, error) { return nil, errors.New("permission denied") }
	Run(context.Background(), env, []string{"sessions", "--db", "/var/tally.db"})
	if got := errOut.String(); got != "tally: cannot open the index /var/tally.db: permission denied\n" {
		t.Errorf("store that cannot be opened: %q", got)
	}
}

// TestRun_version: the binary says which build it is, and tally mcp tells
// its clients the same version in serverInfo.
func TestRun_version(t *testing.T) {
	code, out, _ := run(t, newStore(t), nil, "--version")
	if want := "tally version " + version.String() + "\n"; code != ExitOK || out != want {
		t.Errorf("--version: exit %d, %q, want %q", code, out, want)
	}
	var stdout, errOut syncBuffer
	env := testEnv(newStore(t), &stdout, &errOut, nil)
	// The client's end stays open until the answer is in: a server whose
	// input ends stops without answering.
	in, client := io.Pipe()
	env.In = in
	done := make(chan ExitCode, 1)
	go func() { done <- Run(context.Background(), env, []string{"mcp"}) }()
	if _, err := io.WriteString(client, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stdout.String(), "\n") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	client.Close()
	if code := <-done; code != ExitOK {
		t.Fatalf("mcp: exit %d: %s", code, errOut.String())
	}
	var reply struct {
		Result struct {
			ServerInfo struct{ Name, Version string }
		}
	}
	if err := json.Unmarshal([]byte(stdout.String()), &reply); err != nil {
		t.Fatalf("%v: %q", err, stdout.String())
	}
	if si := reply.Result.ServerInfo; si.Name != "tally" || si.Version != version.String() {
		t.Errorf("serverInfo = %+v, want tally %s", si, version.String())
	}
}

// Two sessions sharing one task list (CLAUDE_CODE_TASK_LIST_ID): the list
// is listed once, as Claude Code's files hold it, saying who shares it,
// and each session says where its tasks are instead of showing a stale
// copy of them.
func TestRun_aSharedTaskListShowsOnceWithTheSessionsSharingIt(t *testing.T) {
	st := newStore(t)
	dir := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks-shared/config")}
	if code, _, errOut := run(t, st, dir, "scan"); code != ExitOK {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}
	code, out, _ := run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); code != ExitOK || err != nil || len(list) != 3 {
		t.Fatalf("sessions --json: exit %d, %v\n%s", code, err, out)
	}
	files := agentTasks(t, "tasks-shared")
	var shared tally.Session
	for _, s := range list {
		switch {
		case s.Shared:
			shared = s
		case s.TasksIn != "greet-team" || len(s.Items) != 0:
			t.Errorf("session %s: tasksIn %q, %d items; its tasks are in the shared list", s.ID, s.TasksIn, len(s.Items))
		}
	}
	if shared.ID != "greet-team" || len(shared.Items) != len(files) || len(shared.Writers) != 2 {
		t.Fatalf("shared list %+v", shared)
	}
	for _, f := range files {
		found := false
		for _, it := range shared.Items {
			found = found || it.ID == f.ID && it.Title == f.Subject && it.Status.String() == f.Status
		}
		if !found {
			t.Errorf("task %+v of the files is not shown as it is", f)
		}
	}
	code, out, _ = run(t, st, nil, "show", "greet-team", "--full")
	if code != ExitOK || !strings.Contains(out, "task list greet-team") || !strings.Contains(out, "shared by sessions "+shared.Writers[0]) ||
		strings.Count(out, "✓ ") != 3 || !strings.Contains(out, "◼ Running the test suite") {
		t.Errorf("show greet-team: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, st, nil, "show", "3942d508")
	if code != ExitOK || !strings.Contains(out, "its tasks are in the shared list greet-team: tally show greet-team") || strings.Contains(out, "No todo list yet") {
		t.Errorf("show of a session sharing the list: exit %d\n%s", code, out)
	}
}

// Three Codex sessions started in the same minute share their first 8
// characters (UUIDv7 ids begin with the time): each is listed by a prefix
// no other row shares, which `tally show` takes back; Tally's own lists are
// listed by their whole names (tally:web, not tally:we).
func TestRun_sessionsListsIdsThatShowTakesBack(t *testing.T) {
	st := newStore(t)
	var recs []tally.Record
	for i, id := range []string{
		"01a20394-5f3e-7c21-9a0b-0c1d2e3f4a5b",
		"01a20394-61aa-7d02-8b11-5e6f7a8b9c0d",
		"01a20394-61ab-7e99-a0c2-1f2e3d4c5b6a",
	} {
		r := exampleRecord()
		r.ID, r.Agent, r.Title = id, codex.Agent, fmt.Sprintf("Codex run %d", i)
		recs = append(recs, r)
	}
	for _, name := range []string{"web", "deploy"} {
		r := exampleRecord()
		r.ID, r.Agent, r.Title, r.TaskList = "tally:"+name, tally.AgentTally, name, &tally.OwnList{Name: name}
		recs = append(recs, r)
	}
	if err := st.Commit(context.Background(), tally.Batch{Sessions: recs}); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	e := testEnv(st, &out, &errOut, map[string]string{"NO_COLOR": "1"})
	e.OutTTY = true
	e.Width = func() int { return 160 }
	if code := Run(context.Background(), e, []string{"sessions"}); code != ExitOK {
		t.Fatalf("sessions: exit %d: %s", code, errOut.String())
	}
	shown := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		shown[strings.Fields(l)[0]] = true
	}
	for _, r := range recs {
		var id string
		for s := range shown {
			if strings.HasPrefix(r.ID, s) {
				id = s
			}
		}
		if id == "" {
			t.Fatalf("%s is not listed:\n%s", r.ID, out.String())
		}
		if r.Agent == tally.AgentTally && id != r.ID {
			t.Errorf("the list %s is listed as %q: a name is never cut", r.ID, id)
		}
		code, got, errOut := run(t, st, nil, "show", id)
		if code != ExitOK || !strings.Contains(got, r.ID) {
			t.Errorf("show %s (listed for %s): exit %d, %s%s", id, r.ID, code, errOut, got)
		}
	}
	if len(shown) != len(recs) {
		t.Errorf("%d distinct ids for %d sessions:\n%s", len(shown), len(recs), out.String())
	}
}

// After `tally setup claude`, Claude Code starts `tally mcp` for each
// session, which keeps the session's Tally list (claude-<session id>):
// `tally sessions` lists the session once, with the list inside it, and
// `tally show` shows the list under the session's own.
func TestRun_aClaudeSessionAndItsTallyListAreOneSession(t *testing.T) {
	st := newStore(t)
	sid := agentSessionID(t, "tasks")
	if _, err := st.UpdateTaskList(context.Background(), hook.SessionList(claude.Agent, sid), func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Review the greeting"}, fixedNow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	dir := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config")}
	code, out, errOut := run(t, st, dir, "sessions", "--scan", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); code != ExitOK || err != nil {
		t.Fatalf("sessions: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if len(list) != 1 || list[0].ID != sid || len(list[0].SubAgents) != 1 || !list[0].SubAgents[0].Tally {
		t.Fatalf("sessions: %s", out)
	}
	code, out, _ = run(t, st, nil, "show", sid[:8])
	if code != ExitOK || !strings.Contains(out, "Tally list claude-"+sid) || !strings.Contains(out, "Review the greeting") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
}

// agentSessionID is the id of a capture's one session.
func agentSessionID(t *testing.T, scenario string) string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(captured, scenario, "config/projects/*/*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("%s: %v", scenario, logs)
	}
	return strings.TrimSuffix(filepath.Base(logs[0]), ".jsonl")
}
