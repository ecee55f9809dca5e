package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
)

// ownSGR are the only escape sequences a colourless frame may hold: the
// selection's reverse video, bold, and their resets.
var ownSGR = regexp.MustCompile(`\x1b\[(?:[017]|22|27)?(?:;(?:[017]|22|27))*m`)

// FuzzView draws sessions whose every text comes from the fuzzer, as an
// agent's log could hold it: the frame fits the terminal and carries no
// escape sequence from the text, whatever it holds.
func FuzzView(f *testing.F) {
	f.Add("Fix the \x1b]52;c;aGk=\x07 bug", "/home/dev/\x1b[2Jsrc", "Write\nthe\tlimiter", "大きな仕事🙂", "x\u0085y\x9b31m", uint8(30), uint8(10))
	f.Add("", "", "", "", "", uint8(80), uint8(24))
	f.Fuzz(runFuzzCase)
}

func runFuzzCase(t *testing.T, title, project, item, active, id string, w, h uint8) {
	{
		width, height := int(w)%220+1, int(h)%60+1
		r := rec(id, tally.Agent(active), project, title, time.Minute, tally.SignalWorking,
			item2(id, item, active, doing), item2("", title, "", done), item2(item, project, "", pending, id))
		r.Lists[item] = []tally.Item{item2(id, active, item, doing)}
		r.Markers = []tally.Marker{{Task: id, Step: item, Verb: title, Reason: active}}
		m := newModel(t, width, height, false, r, limiter())
		for _, keys := range [][]string{nil, {"T"}, {"enter"}, {"?"}, {"?", "/"}} {
			press(m, keys...)
			for _, k := range title {
				m.Update(tea.KeyPressMsg{Code: k, Text: string(k)})
			}
			raw := m.View().Content
			if rest := ownSGR.ReplaceAllString(raw, ""); strings.ContainsAny(rest, "\x1b\x07\x9b\x9d") {
				t.Fatalf("agent text reached the terminal as control characters: %q", rest)
			}
			lines := strings.Split(ansi.Strip(raw), "\n")
			if len(lines) != height {
				t.Fatalf("%d lines for a terminal of %d", len(lines), height)
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > width {
					t.Fatalf("line of %d columns in %d: %q", ansi.StringWidth(l), width, l)
				}
			}
		}
	}
}

func item2(id, title, activeForm string, st tally.Status, blockedBy ...string) tally.Item {
	return item(id, title, activeForm, st, blockedBy...)
}
