package projectname_test

import (
	"testing"

	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// width is the project column of the command line's tables.
const width = 24

func TestProjectNames(t *testing.T) {
	t.Run("one project", func(t *testing.T) {
		for _, c := range []struct{ in, want string }{
			{"/home/dev", "~"},
			{"/home/dev/src/shop", "~/src/shop"},
			{"/home/developer/x", "/home/developer/x"},
			{"/srv/checkouts/very-long-organisation-name/payments-service", "…/payments-service"},
			{"", "-"},
		} {
			if got := projectname.New("/home/dev", c.in).Name(c.in, width); got != c.want {
				t.Errorf("name(%q) = %q, want %q", c.in, got, c.want)
			}
		}
	})
	t.Run("only the real home is ~", func(t *testing.T) {
		p := "/home/someone/src/x"
		if got := projectname.New("/home/dev", p).Name(p, width); got != p {
			t.Errorf("another user's home shown as %q", got)
		}
		if got := projectname.New("/Users/me", "/Users/me/src/x").Name("/Users/me/src/x", width); got != "~/src/x" {
			t.Errorf("a home outside /home shown as %q", got)
		}
	})
	t.Run("projects that end alike keep the parts that tell them apart", func(t *testing.T) {
		paths := []string{
			"/tmp/capture/cc-todowrite-2026-11-22/work",
			"/tmp/capture/cc-taskcreate-2026-11-22/work",
			"/tmp/capture/codex-update-plan/work",
			"/srv/checkouts/organisation/payments-service",
		}
		names := projectname.New("/home/dev", paths...)
		seen := map[string]string{}
		for _, p := range paths {
			got := names.Name(p, width)
			if termstyle.Width(got) > width {
				t.Errorf("%q named %q, wider than %d", p, got, width)
			}
			if other, ok := seen[got]; ok {
				t.Errorf("%q and %q are both shown as %q", p, other, got)
			}
			seen[got] = p
		}
		if got := names.Name(paths[2], width); got != "…/codex-update-plan/work" {
			t.Errorf("got %q", got)
		}
		a, b := names.Name(paths[0], 16), names.Name(paths[1], 16)
		if a != "…/cc-todow…/work" || b != "…/cc-taskc…/work" {
			t.Errorf("in 16 cells: %q and %q; the part that tells them apart is cut at its end", a, b)
		}
		if got := names.Name(paths[3], width); got != "…/payments-service" {
			t.Errorf("a project whose last folder is its own keeps just that: %q", got)
		}
	})
}
