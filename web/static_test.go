package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/web"
)

// The page is plain ES modules served as they are, each small enough to
// read in one sitting: one job a file, none over 400 lines.
func TestStatic_modulesStaySmall(t *testing.T) {
	files, err := filepath.Glob("static/*.js")
	if err != nil || len(files) < 2 {
		t.Fatalf("static modules: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > 400 {
			t.Errorf("%s has %d lines: split it by job", f, n)
		}
	}
}

// TestIndex_CarriesEveryRegisteredAgent: the page names and colours the
// agents as the server's registration says, from the data block the page
// reads: an agent registered is one the page knows, with its hue.
func TestIndex_CarriesEveryRegisteredAgent(t *testing.T) {
	r := newRig(t, nil)
	_, body := r.get("/")
	_, rest, ok := strings.Cut(string(body), `<script id="agents" type="application/json">`)
	block, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatalf("the page has no agents block:\n%s", body)
	}
	var got map[string]web.PageAgent
	if err := json.Unmarshal([]byte(block), &got); err != nil {
		t.Fatalf("the agents block %q: %v", block, err)
	}
	for _, d := range append([]*adapter.Descriptor{agents.Tally}, agents.All...) {
		if a, ok := got[string(d.Agent)]; !ok || a.Label != d.Label || a.Hue != d.Hue {
			t.Errorf("the page has %s as %+v, want %q hue %d", d.Agent, a, d.Label, d.Hue)
		}
	}
	if len(got) != len(agents.All)+1 {
		t.Errorf("the page knows %d agents, the registration %d", len(got), len(agents.All)+1)
	}
	js, err := os.ReadFile("static/words.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range agents.All {
		if strings.Contains(string(js), string(d.Agent)+":") {
			t.Errorf("words.js names agent %s itself: the page takes its agents from the server", d.Agent)
		}
	}
}
