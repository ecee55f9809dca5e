package web_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// projectsSeen reads, for each session id, the name its card shows and
// the card's tooltip.
const projectsSeen = `((ids) => ids.map((id) => {
  const e = document.querySelector('.card[data-id="' + CSS.escape(id) + '"] .project');
  return e ? [e.textContent, e.title] : ['', ''];
}))`

// projectsApart is true when every card of ids shows a project name and
// no two show the same.
const projectsApart = `((ids) => {
  const t = ` + projectsSeen + `(ids).map((p) => p[0]);
  return t.every(Boolean) && new Set(t).size === t.length;
})`

// stepProjectsApart: the page names projects as the server does, from the
// server's own home, so projects that end alike read differently on the
// cards, the column heads and the filter, and another user's home is not
// taken for the server's.
func stepProjectsApart(t *testing.T, b *browser, srv *serveProc) {
	lines := dashReadLines(t, filepath.Join(captureRoot, "todowrite/config/projects", todowriteProject, todowriteSession+".jsonl"))
	const cwd = `"cwd":"/tmp/capture/cc/todowrite/work"`
	projects := []string{
		"/x/a/work", "/x/b/work",
		"/srv/builds/team-alpha/checkout/work", "/srv/builds/team-beta/checkout/work",
		"/home/someone/app", srv.home + "/src/shop",
	}
	ids := make([]string, len(projects))
	for i, p := range projects {
		ids[i] = fmt.Sprintf("0a0a0a0a-0000-4000-8000-%012d", i+1)
		out := make([]string, len(lines))
		for j, l := range lines {
			out[j] = strings.ReplaceAll(strings.ReplaceAll(l, todowriteSession, ids[i]), cwd, `"cwd":"`+p+`"`)
		}
		if !strings.Contains(strings.Join(out, "\n"), `"cwd":"`+p+`"`) {
			t.Fatalf("the capture has no %s to rewrite", cwd)
		}
		writeAged(t, filepath.Join(srv.claude, "projects", "-projects-"+fmt.Sprint(i), ids[i]+".jsonl"), out, time.Minute)
	}
	idsJS := dashJSON(t, ids)
	seen := func() [][]string {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[][]string](projectsSeen+"("+idsJS+")"))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	_, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](projectsApart+"("+idsJS+")", chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("the cards of %d projects never all read differently: %q", len(projects), seen())
	}
	got := seen()
	for i, p := range projects {
		if got[i][1] != p {
			t.Errorf("the card of %s has the tooltip %q, want its whole path", p, got[i][1])
		}
	}
	if got[4][0] != "/home/someone/app" {
		t.Errorf("another user's home reads %q: only the server's own home is ~", got[4][0])
	}
	if got[5][0] != "~/src/shop" {
		t.Errorf("a project under the server's home reads %q, want ~/src/shop", got[5][0])
	}

	distinct := func(what, js string) {
		t.Helper()
		names, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				t.Errorf("%s: two projects read %q (all: %q)", what, n, names)
			}
			seen[n] = true
		}
		for _, want := range []string{"/home/someone/app", "~/src/shop"} {
			if !seen[want] {
				t.Errorf("%s: no %q among %q", what, want, names)
			}
		}
	}
	distinct("the project filter", `[...document.getElementById('f-project').options].slice(1).map((o) => o.textContent)`)
	b.do(t, chromedp.Click(chromedp.CSS(`input[name="group"][value="project"]`)))
	distinct("the columns grouped by project", `[...document.querySelectorAll('#board > .column .column-name')].map((e) => e.textContent)`)
	b.do(t, chromedp.Click(chromedp.CSS(`input[name="group"][value="activity"]`)))
}
