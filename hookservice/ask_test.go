package hookservice_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/hookservice"
	"github.com/tallyhq/tally/store/sqlite"
)

// askPayload is a PermissionRequest call in the shape Claude Code 2.1.330
// sends (see hook's permission tests).
func askPayload(session string) []byte {
	return []byte(`{"session_id":"` + session + `","transcript_path":"","cwd":"/p","hook_event_name":"PermissionRequest",
"tool_name":"Bash","tool_input":{"command":"echo x > proof.txt"},
"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo x:*"}],"behavior":"allow","destination":"session"}]}`)
}

func approvals(t *testing.T, wait time.Duration) (*hookservice.Service, *sqlite.Store, *logLines) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	home := t.TempDir()
	log := &logLines{}
	svc := hookservice.New(hookservice.Options{
		Agent: func(string) (hookservice.Agent, bool) {
			return hookservice.Agent{Spec: claude.Descriptor.Hooks, Adapter: claude.New(claude.Options{ConfigDir: home})}, true
		},
		Store:        func(context.Context) (hookservice.Store, error) { return st, nil },
		Log:          log.add,
		ApprovalWait: wait,
		ApprovalPoll: 10 * time.Millisecond,
	})
	// The session's record, as the indexer would have committed it.
	if err := st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{{ID: "s1", Agent: claude.Agent, LastActivity: time.Now(), Signal: tally.SignalWorking}}}); err != nil {
		t.Fatal(err)
	}
	return svc, st, log
}

// call answers payload on a goroutine; the answer and how long it took
// come on the channel.
type answered struct {
	out  string
	took time.Duration
}

func call(svc *hookservice.Service, payload []byte) <-chan answered {
	done := make(chan answered, 1)
	start := time.Now()
	go func() {
		var out []byte
		svc.Answer(context.Background(), hookservice.Call{Agent: "claude", Start: start,
			Read:  func() ([]byte, error) { return payload, nil },
			Reply: func(b []byte) error { out = b; return nil }})
		done <- answered{string(out), time.Since(start)}
	}()
	return done
}

// openRequest waits for the session's record to show an open request and
// the session waiting for its user.
func openRequest(t *testing.T, st *sqlite.Store, session string) tally.Request {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		r, err := st.Record(context.Background(), session)
		if err == nil && len(r.Requests) > 0 && r.Requests[0].Open(time.Now()) && r.Signal == tally.SignalAsking {
			return r.Requests[0]
		}
	}
	t.Fatal("no open request on the session's record")
	return tally.Request{}
}

func decide(t *testing.T, st *sqlite.Store, r tally.Request, v tally.Verdict, msg string) {
	t.Helper()
	if _, err := st.DecideRequest(context.Background(), tally.Decision{ID: r.ID, Session: r.Session, Verdict: v, Message: msg, By: "test", From: "test", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

func behavior(t *testing.T, out string) map[string]any {
	t.Helper()
	var got struct {
		Specific struct {
			Decision map[string]any `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	return got.Specific.Decision
}

func TestAsk_aDecisionOnTheBoardReachesTheAgent(t *testing.T) {
	svc, st, _ := approvals(t, 5*time.Second)
	done := call(svc, askPayload("s1"))
	r := openRequest(t, st, "s1")
	if r.Tool != "Bash" || r.Summary != "echo x > proof.txt" || !r.Always {
		t.Errorf("request shown: %+v", r)
	}
	rec, _ := st.Record(context.Background(), "s1")
	if rec.Signal != tally.SignalAsking {
		t.Errorf("the session does not wait for its user: %v", rec.Signal)
	}
	decide(t, st, r, tally.VerdictAlways, "")
	got := <-done
	d := behavior(t, got.out)
	if d["behavior"] != "allow" || d["updatedPermissions"] == nil {
		t.Errorf("answer %s", got.out)
	}
	if rec, _ := st.Record(context.Background(), "s1"); rec.Signal != tally.SignalWorking || rec.Requests[0].Verdict != tally.VerdictAlways {
		t.Errorf("after the decision: %v, %+v", rec.Signal, rec.Requests)
	}
}

func TestAsk_aDenialCarriesItsMessageToTheModel(t *testing.T) {
	svc, st, _ := approvals(t, 5*time.Second)
	done := call(svc, askPayload("s1"))
	decide(t, st, openRequest(t, st, "s1"), tally.VerdictDeny, "write it under /tmp")
	d := behavior(t, (<-done).out)
	if d["behavior"] != "deny" || d["message"] != "write it under /tmp" {
		t.Errorf("answer %v", d)
	}
}

func TestAsk_noDecisionInTimeAnswersNothingWithinTheBound(t *testing.T) {
	svc, st, log := approvals(t, 300*time.Millisecond)
	got := <-call(svc, askPayload("s1"))
	if got.out != "" || got.took < 300*time.Millisecond || got.took > 300*time.Millisecond+hookservice.Deadline {
		t.Errorf("answered %q after %v; want nothing, after the wait and within its bound", got.out, got.took)
	}
	if !strings.Contains(log.String(), "no decision within 300ms") {
		t.Errorf("log: %s", log)
	}
	rec, _ := st.Record(context.Background(), "s1")
	if rec.Signal != tally.SignalAsking || rec.Requests[0].Open(time.Now()) {
		t.Errorf("after the wait the agent asks, and the request is over: %v %+v", rec.Signal, rec.Requests)
	}
}

func TestAsk_answeredAtTheAgentEndsTheWait(t *testing.T) {
	svc, st, _ := approvals(t, 5*time.Second)
	done := call(svc, askPayload("s1"))
	openRequest(t, st, "s1")
	post := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","cwd":"/p"}`)
	<-call(svc, post)
	got := <-done
	if got.out != "" || got.took > time.Second {
		t.Errorf("answered %q after %v; want nothing, at once", got.out, got.took)
	}
	if rec, _ := st.Record(context.Background(), "s1"); rec.Requests[0].Verdict != tally.VerdictElsewhere {
		t.Errorf("request %+v", rec.Requests[0])
	}
}

func TestAsk_withoutAWaitNothingIsAllowed(t *testing.T) {
	svc, st, _ := approvals(t, 0)
	got := <-call(svc, askPayload("s1"))
	if got.out != "" || got.took > hookservice.Deadline {
		t.Errorf("answered %q after %v", got.out, got.took)
	}
	if reqs, _ := st.SessionRequests(context.Background(), "s1"); len(reqs) != 0 {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestAsk_theAgentsOwnNotificationAfterADecisionIsNoNewWait(t *testing.T) {
	svc, st, _ := approvals(t, 5*time.Second)
	done := call(svc, askPayload("s1"))
	decide(t, st, openRequest(t, st, "s1"), tally.VerdictAllow, "")
	<-done
	note := []byte(`{"session_id":"s1","hook_event_name":"Notification","notification_type":"permission_prompt","cwd":"/p"}`)
	<-call(svc, note)
	if rec, _ := st.Record(context.Background(), "s1"); rec.Signal == tally.SignalAsking {
		t.Error("the notification of a call decided on the board marked the session as waiting again")
	}
}
