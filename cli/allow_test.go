package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
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
