package tally_test

import (
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
)

// Three Codex sessions started in the same minute: their UUIDv7 ids share
// the first 8 characters (the time), so 8 characters name none of them.
var sameMinute = []string{
	"01a20394-5f3e-7c21-9a0b-0c1d2e3f4a5b",
	"01a20394-61aa-7d02-8b11-5e6f7a8b9c0d",
	"01a20394-61ab-7e99-a0c2-1f2e3d4c5b6a",
}

func TestShortIDs_ThePrefixIsUniqueAmongTheListedNotAlways8(t *testing.T) {
	var ss []tally.Session
	for _, id := range sameMinute {
		ss = append(ss, tally.Session{ID: id, Agent: codex.Agent})
	}
	ss = append(ss,
		tally.Session{ID: "ff833579-73c0-4d20-92ee-931086a0b9c3", Agent: claude.Agent},
		tally.Session{ID: "tally:web", Agent: tally.AgentTally, TaskList: &tally.OwnList{Name: "web"}},
		tally.Session{ID: "tally:deploy", Agent: tally.AgentTally, TaskList: &tally.OwnList{Name: "deploy"}},
		tally.Session{ID: "greet-team", Agent: claude.Agent, Shared: true},
		tally.Session{ID: "d0429e38", Agent: gemini.Agent},
	)
	got := tally.ShortIDs(ss)
	want := map[string]string{
		sameMinute[0]:                          "01a20394-5",
		sameMinute[1]:                          "01a20394-61aa",
		sameMinute[2]:                          "01a20394-61ab",
		"ff833579-73c0-4d20-92ee-931086a0b9c3": "ff833579",
		"tally:web":                            "tally:web",
		"tally:deploy":                         "tally:deploy",
		"greet-team":                           "greet-team",
		"d0429e38":                             "d0429e38",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s shown as %q, want %q", id, got[id], w)
		}
	}
	// Whatever is shown names exactly one listed session.
	for id, short := range got {
		n := 0
		for _, s := range ss {
			if strings.HasPrefix(s.ID, short) {
				n++
			}
		}
		if n != 1 && short != id {
			t.Errorf("%q (for %s) begins %d listed ids", short, id, n)
		}
	}
}

// A name is shown whole up to MaxNameShown characters; a longer one — the
// Tally list of a Claude Code session, tally:claude-<its id> — is cut as
// an id is, to a prefix no other listed id begins with.
func TestShortIDs_ALongNameIsCutLikeAnId(t *testing.T) {
	const sid = "0b9f7c1e-2d4a-4e8b-9c3f-5a6d7e8f9a0b"
	long, near := "tally:claude-"+sid, "tally:claude-0b9f7c1e-ffff-4e8b-9c3f-5a6d7e8f9a0b"
	list := func(id string) tally.Session {
		return tally.Session{ID: id, Agent: tally.AgentTally, TaskList: &tally.OwnList{Name: id[len("tally:"):]}}
	}
	got := tally.ShortIDs([]tally.Session{list(long), list("tally:release"), {ID: sid, Agent: claude.Agent}})
	want := map[string]string{long: "tally:claude-0b9f7c1e", "tally:release": "tally:release", sid: "0b9f7c1e"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s shown as %q, want %q", id, got[id], w)
		}
	}
	if got := tally.ShortIDs([]tally.Session{list(long), list(near)}); got[long] != "tally:claude-0b9f7c1e-2" {
		t.Errorf("beside %s, %s shown as %q: a prefix only it begins with", near, long, got[long])
	}
}
