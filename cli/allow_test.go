package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/notify"
)

func permissionCall(session string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":"","cwd":"/p","hook_event_name":"PermissionRequest",`+
		`"tool_name":"Bash","tool_input":{"command":"echo x > proof.txt"},"permission_suggestions":[]}`, session))
}

// tally allow and tally deny answer the open request of the session a
// prefix names, as the waiting hook (tally hook claude) takes it; the
// decision says who and where, tally show lists it; a request answered
// already is not answered twice.
func TestAllow_answersTheWaitingHook(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	hs := newHookSession(t, "todo")
	hs.now = fixedNow
	if err := st.Commit(ctx, tally.Batch{Sessions: []tally.Record{{ID: hs.id, Agent: claude.Agent, LastActivity: fixedNow}}}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"USER": "ana"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"allow", hs.id[:6]}, `"decision":{"behavior":"allow"}`},
		{[]string{"deny", hs.id[:6], "--message", "use /tmp"}, `"decision":{"behavior":"deny","message":"use /tmp"}`},
	} {
		answered := make(chan string, 1)
		go func() {
			_, out, _ := hs.run(t, st, permissionCall(hs.id), "--approval-wait", "20s")
			answered <- out
		}()
		var code ExitCode
		var out, errOut string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if code, out, errOut = run(t, st, env, tc.args...); code == ExitOK {
				break
			}
		}
		if code != ExitOK {
			t.Fatalf("tally %v: %d %s %s", tc.args, code, out, errOut)
		}
		if got := <-answered; !strings.Contains(got, tc.want) {
			t.Errorf("after tally %v the hook answered %q, want %s", tc.args, got, tc.want)
		}
	}
	code, _, errOut := run(t, st, env, "allow", hs.id[:6])
	if code != ExitNotFound || !strings.Contains(errOut, "no open request") {
		t.Errorf("allow with nothing open: %d %s", code, errOut)
	}
	_, out, _ := run(t, st, env, "show", hs.id[:6])
	if !strings.Contains(out, `✗ Bash: echo x > proof.txt — denied by ana (tally deny) now: "use /tmp"`) ||
		!strings.Contains(out, `✓ Bash: echo x > proof.txt — allowed by ana (tally allow)`) {
		t.Errorf("tally show does not list the decisions:\n%s", out)
	}
}

// A notification that the agent asks something says what, and links to the
// board where the request opens (?session=ID); with no board address, no
// link; a request no longer open says nothing of it.
func TestUpdateOf_aRequestLinksToTheBoard(t *testing.T) {
	rec := tally.Record{ID: "s 1", Agent: claude.Agent, Signal: tally.SignalAsking, LastActivity: fixedNow,
		Requests: []tally.Request{{ID: "r1", Session: "s 1", Tool: "Bash", Summary: "echo x > proof.txt\n", AskedAt: fixedNow, ExpiresAt: fixedNow.Add(time.Minute)}}}
	u := updateOf(&rec, fixedNow, "https://tally.example/team/")
	if u.Session.Asks != "Bash: echo x > proof.txt" || u.Session.Link != "https://tally.example/team/?session=s+1" {
		t.Errorf("asks %q, link %q", u.Session.Asks, u.Session.Link)
	}
	line := notify.Line(notify.Event{Kind: notify.KindNeedsInput, Session: u.Session})
	if !strings.Contains(line, "asks you: Bash: echo x > proof.txt — answer at https://tally.example/team/?session=s+1") {
		t.Errorf("the notification says %q", line)
	}
	if u := updateOf(&rec, fixedNow, ""); u.Session.Link != "" {
		t.Errorf("a link with no board: %q", u.Session.Link)
	}
	if u := updateOf(&rec, fixedNow.Add(2*time.Minute), "https://tally.example/"); u.Session.Asks != "" || u.Session.Link != "" {
		t.Errorf("an expired request is still told: %+v", u.Session)
	}
}
