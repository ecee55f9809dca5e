package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
	"github.com/tallyhq/tally/web"
)

// planList makes list name in plan mode with one drafted task, as an agent
// that was told to plan first leaves it.
func (r *rig) planList(name string) {
	r.tb.Helper()
	ctx := context.Background()
	if _, err := tasks.SwitchMode(ctx, r.st, name, tasks.ModePlan, r.clock.Now()); err != nil {
		r.tb.Fatal(err)
	}
	_, err := r.st.UpdateTaskList(ctx, name, func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Tag the release", Description: "v1"}, r.clock.Now())
		return err
	})
	if err != nil {
		r.tb.Fatal(err)
	}
}

func (r *rig) listMode(name string) tasks.Mode {
	r.tb.Helper()
	l, err := r.st.TaskList(context.Background(), name)
	if err != nil {
		r.tb.Fatal(err)
	}
	return l.Mode
}

// The page's Approve plan button is a write: POST, from the page's own
// origin, with the token when the server has one. It switches the list
// as `tally tasks approve` does and answers the list's session.
func TestAPI_approvePlan(t *testing.T) {
	r := newRig(t, nil)
	r.planList("release")
	const path = "/api/tasks/release/approve"

	refused := []struct {
		name   string
		method string
		hdr    []string
		want   int
	}{
		{"a GET changes nothing", http.MethodGet, nil, http.StatusNotFound},
		{"a page on another site is refused (Sec-Fetch-Site)", http.MethodPost, []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"a page on another site is refused (Origin)", http.MethodPost, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			if resp, body := r.do(tc.method, path, tc.hdr...); resp.StatusCode != tc.want {
				t.Errorf("%s: %d %s, want %d", tc.method, resp.StatusCode, body, tc.want)
			}
			if m := r.listMode("release"); m != tasks.ModePlan {
				t.Errorf("the list is in %s mode after a refused request", m)
			}
		})
	}

	t.Run("the page's own POST approves", func(t *testing.T) {
		resp, body := r.do(http.MethodPost, path, "Sec-Fetch-Site", "same-origin", "Origin", r.http.URL)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		var s tally.Session
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatal(err)
		}
		if s.ID != tasks.SessionPrefix+"release" || s.TaskList == nil || s.TaskList.AwaitingApproval {
			t.Errorf("answered session %s with taskList %+v, want release no longer awaiting approval", s.ID, s.TaskList)
		}
		if m := r.listMode("release"); m != tasks.ModeExecution {
			t.Errorf("the list is in %s mode, want execution", m)
		}
	})
	t.Run("approving twice is no error", func(t *testing.T) {
		if resp, body := r.do(http.MethodPost, path); resp.StatusCode != http.StatusOK {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("a list nobody made is not found", func(t *testing.T) {
		if resp, body := r.do(http.MethodPost, "/api/tasks/nope/approve"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("a name no list may have is a bad request", func(t *testing.T) {
		if resp, body := r.do(http.MethodPost, "/api/tasks/a%20b/approve"); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
}

func TestAPI_approvePlan_needsTheToken(t *testing.T) {
	const token = "s3cret"
	r := newRig(t, func(o *web.Options) { o.Token = token })
	r.planList("release")
	if resp, _ := r.do(http.MethodPost, "/api/tasks/release/approve"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d", resp.StatusCode)
	}
	if m := r.listMode("release"); m != tasks.ModePlan {
		t.Fatalf("approved without the token: %s mode", m)
	}
	if resp, body := r.do(http.MethodPost, "/api/tasks/release/approve", "Authorization", "Bearer "+token); resp.StatusCode != http.StatusOK {
		t.Errorf("with the token: %d %s", resp.StatusCode, body)
	}
	if m := r.listMode("release"); m != tasks.ModeExecution {
		t.Errorf("with the token the list is in %s mode", m)
	}
}
