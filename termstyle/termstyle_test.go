package termstyle

import (
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/agents"
)

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"hello", 0, "hello"},
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"hello", 1, "…"},
		{"日本語テキスト", 7, "日本語…"},    // wide runes take two cells: 6 + the ellipsis
		{"日本語テキスト", 6, "日本…"},     // a wide rune that does not fit whole is left out
		{"👩‍💻 coding", 3, "👩‍💻…"}, // a grapheme cluster is cut whole or not at all
	} {
		got := Truncate(c.in, c.w)
		if got != c.want || (c.w > 0 && Width(got) > c.w) {
			t.Errorf("Truncate(%q, %d) = %q (%d cells), want %q", c.in, c.w, got, Width(got), c.want)
		}
	}
}

func TestTruncate_escapeSequencesAreKeptWholeAndColourIsClosed(t *testing.T) {
	p := Painter{On: true}
	in := p.Paint(Fg(Amber), "Creating API endpoints") + " " + p.Paint(Bold, "now")
	got := Truncate(in, 10)
	if w := Width(got); w != 10 {
		t.Errorf("width %d, want 10: %q", w, got)
	}
	if Strip(got) != "Creating …" {
		t.Errorf("text %q, want %q", Strip(got), "Creating …")
	}
	if !strings.HasSuffix(got, reset) {
		t.Errorf("a colour cut into is left open: %q", got)
	}
	if strings.Count(got, "\x1b[") != strings.Count(in, "\x1b[") {
		t.Errorf("escape sequences lost or split: %q from %q", got, in)
	}
}

func TestWidth_ignoresEscapes(t *testing.T) {
	p := Painter{On: true}
	for _, s := range []string{"◼ step", "✅ done", "日本"} {
		if Width(p.Paint(Fg(Green), s)) != Width(s) {
			t.Errorf("painting %q changed its width", s)
		}
	}
	if Width("✅") != 2 || Width("◼") != 1 || Width("📋") != 2 {
		t.Errorf("emoji widths: ✅ %d, ◼ %d, 📋 %d", Width("✅"), Width("◼"), Width("📋"))
	}
}

func TestPad(t *testing.T) {
	if got := Pad("日本", 6); got != "日本  " {
		t.Errorf("Pad = %q", got)
	}
	if got := Pad("toolong", 3); got != "toolong" {
		t.Errorf("Pad never cuts: %q", got)
	}
}

func TestPainter(t *testing.T) {
	off := Painter{}
	if got := off.Paint(Bold, "x") + off.Icon(MarkActive) + off.Activity(tally.ActivityNeedsInput); got != "x◼needs input" {
		t.Errorf("an off painter painted: %q", got)
	}
	on := Painter{On: true}
	for _, c := range []struct{ got, want string }{
		{on.Icon(MarkActive), "\x1b[33m◼\x1b[0m"},
		{on.Icon(MarkPending), "\x1b[90m◻\x1b[0m"},
		{on.Activity(tally.ActivityWorking), "\x1b[32mworking\x1b[0m"},
		{on.Paint(Bold, "T"), "\x1b[1mT\x1b[0m"},
		{on.Paint(Faint, "T"), "\x1b[2mT\x1b[0m"},
		{on.Paint(Fg(AgentColor(claude.Agent)), "claude"), "\x1b[38;5;208mclaude\x1b[0m"},
		{on.Paint(Bold, ""), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestAgentColor_oneColourPerAgent(t *testing.T) {
	seen := map[any]tally.Agent{}
	for _, d := range append([]*adapter.Descriptor{agents.Tally}, agents.All...) {
		a := d.Agent
		c := AgentColor(a)
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share a colour", a, other)
		}
		seen[c] = a
	}
	if AgentColor("nosuch") != Cyan {
		t.Error("an unknown agent is not drawn in cyan")
	}
}

func TestMarkOf(t *testing.T) {
	view := func(s tally.Status, blocked bool) *tally.ItemView {
		return &tally.ItemView{Item: tally.Item{Status: s}, Blocked: blocked}
	}
	for _, c := range []struct {
		name string
		it   *tally.ItemView
		want Mark
	}{
		{"pending", view(tally.StatusPending, false), MarkPending},
		{"blocked pending is blocked", view(tally.StatusPending, true), MarkBlocked},
		{"declared blocked", view(tally.StatusBlocked, true), MarkBlocked},
		{"in progress with an open blocker is still worked on", view(tally.StatusInProgress, true), MarkActive},
		{"completed", view(tally.StatusCompleted, false), MarkDone},
		{"cancelled", view(tally.StatusCancelled, false), MarkStopped},
		{"failed", view(tally.StatusFailed, false), MarkStopped},
		{"unknown word", view(tally.StatusUnknown, false), MarkUnknown},
	} {
		if got := MarkOf(c.it); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if Mark(200).Icon() != "?" {
		t.Error("a mark out of range is not drawn as unknown")
	}
}

func TestActivityLabel(t *testing.T) {
	if ActivityLabel(tally.ActivityNeedsInput) != "needs input" || ActivityLabel(tally.Activity(99)) != "unknown" {
		t.Error("labels")
	}
}
