package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/web"
)

// Projects that end in the same folders: named by their last two parts
// they read alike, and only a third part tells them apart.
const (
	alphaProject = "/srv/builds/team-alpha/checkout/work"
	betaProject  = "/srv/builds/team-beta/checkout/work"
)

// addSession stores a copy of the todowrite session under another id and
// project, and publishes it as the indexer would after the commit.
func (r *rig) addSession(id, project string) {
	r.tb.Helper()
	rec := r.record(todowriteID)
	rec.ID, rec.Project = id, project
	if err := r.st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{rec}}); err != nil {
		r.tb.Fatal(err)
	}
	r.publish(index.Change{Kind: index.SessionUpdated, ID: id, Record: rec})
}

// projectsOf decodes a projects event's names.
func projectsOf(tb testing.TB, ev sseEvent) map[string]string {
	tb.Helper()
	if ev.Event != "projects" {
		tb.Fatalf("got %q event, want projects", ev.Event)
	}
	var d struct {
		Names map[string]string `json:"names"`
	}
	if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
		tb.Fatal(err)
	}
	return d.Names
}

func wantApart(t *testing.T, names map[string]string, paths ...string) {
	t.Helper()
	seen := map[string]string{}
	for _, p := range paths {
		name, ok := names[p]
		if !ok {
			t.Errorf("%s has no name in %v", p, names)
			continue
		}
		if other, ok := seen[name]; ok {
			t.Errorf("%s and %s are both named %q", p, other, name)
		}
		seen[name] = p
	}
}

func TestProjects_NamedApartFromTheRealHome(t *testing.T) {
	const home = "/home/dev"
	r := newRig(t, func(o *web.Options) { o.Home = home })
	c := dialSSE(t, r.addr())
	snapshotOf(t, c.mustNext(t))

	t.Run("a new project is named before its first session is sent", func(t *testing.T) {
		r.addSession("alpha-1", alphaProject)
		names := projectsOf(t, c.mustNext(t))
		if got := names[alphaProject]; got != "…/checkout/work" {
			t.Errorf("alone, %s is named %q, want …/checkout/work", alphaProject, got)
		}
		if s := sessionOf(t, c.mustNext(t)); s.ID != "alpha-1" {
			t.Errorf("then session %s, want alpha-1", s.ID)
		}
	})

	t.Run("a project that ends alike renames both", func(t *testing.T) {
		r.addSession("beta-1", betaProject)
		names := projectsOf(t, c.mustNext(t))
		wantApart(t, names, alphaProject, betaProject)
		for p, name := range names {
			if !strings.Contains(name, "team-") {
				t.Errorf("%s is named %q: the part that tells it apart is missing", p, name)
			}
		}
		sessionOf(t, c.mustNext(t))
	})

	t.Run("another session of a named project renames nothing", func(t *testing.T) {
		r.addSession("alpha-2", alphaProject)
		if ev := c.mustNext(t); ev.Event != "session_updated" {
			t.Errorf("got %q event, want session_updated alone", ev.Event)
		}
	})

	r.addSession("other-home", "/home/someone/app")
	r.addSession("own-home", home+"/src/shop")
	r.waitPublished(8) // 4 sessions, 4 new projects

	t.Run("the session list names its projects", func(t *testing.T) {
		resp, body := r.get("/api/sessions")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		var l struct {
			Projects map[string]string `json:"projects"`
		}
		if err := json.Unmarshal(body, &l); err != nil {
			t.Fatal(err)
		}
		wantApart(t, l.Projects, alphaProject, betaProject, "/home/someone/app", home+"/src/shop")
		if got := l.Projects["/home/someone/app"]; got != "/home/someone/app" {
			t.Errorf("another user's home is named %q: only the server's own home is ~", got)
		}
		if got := l.Projects[home+"/src/shop"]; got != "~/src/shop" {
			t.Errorf("a project under the server's home is named %q, want ~/src/shop", got)
		}
	})

	t.Run("a snapshot names every project", func(t *testing.T) {
		d := dialSSE(t, r.addr())
		ev := d.mustNext(t)
		var snap struct {
			Projects map[string]string `json:"projects"`
		}
		if err := json.Unmarshal([]byte(ev.Data), &snap); err != nil {
			t.Fatal(err)
		}
		wantApart(t, snap.Projects, alphaProject, betaProject, "/home/someone/app", home+"/src/shop")
		for _, id := range []string{todowriteID, tasksID} {
			if p := r.record(id).Project; snap.Projects[p] == "" {
				t.Errorf("the captured project %s has no name", p)
			}
		}
	})
}
