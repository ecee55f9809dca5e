package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
)

func testFilters(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	// Committed out of order, over two batches: the store sorts.
	commit(t, s, tally.Batch{Sessions: []tally.Record{
		fullRecord("c-claude-api", claude.Agent, "/home/ana/src/api", at(30)),
		fullRecord("a-codex-web", codex.Agent, "/home/ana/src/web", at(10)),
		fullRecord("e-gemini-api", gemini.Agent, "/home/bo/api-gateway", at(50)),
	}})
	commit(t, s, tally.Batch{Sessions: []tally.Record{
		fullRecord("b-claude-web", claude.Agent, "/home/ana/src/web", at(20)),
		fullRecord("d-codex-api", codex.Agent, "/home/ana/src/api", at(40)),
		// Never active: a zero time sorts last and Since drops it.
		{ID: "f-claude-new", Agent: claude.Agent, Project: "/home/ana/src/new"},
	}})
	for _, tc := range []struct {
		name string
		f    tally.SessionFilter
		want []string
	}{
		{"all, newest first", tally.SessionFilter{},
			[]string{"e-gemini-api", "d-codex-api", "c-claude-api", "b-claude-web", "a-codex-web", "f-claude-new"}},
		{"agent", tally.SessionFilter{Agent: claude.Agent},
			[]string{"c-claude-api", "b-claude-web", "f-claude-new"}},
		{"unknown agent", tally.SessionFilter{Agent: "aider"}, nil},
		{"project substring", tally.SessionFilter{Project: "api"},
			[]string{"e-gemini-api", "d-codex-api", "c-claude-api"}},
		{"since is inclusive", tally.SessionFilter{Since: at(20)},
			[]string{"e-gemini-api", "d-codex-api", "c-claude-api", "b-claude-web"}},
		{"since, one nanosecond later", tally.SessionFilter{Since: at(20).Add(1)},
			[]string{"e-gemini-api", "d-codex-api", "c-claude-api"}},
		{"limit keeps the newest", tally.SessionFilter{Limit: 2}, []string{"e-gemini-api", "d-codex-api"}},
		{"all filters", tally.SessionFilter{Agent: codex.Agent, Project: "/src/", Since: at(5), Limit: 1},
			[]string{"d-codex-api"}},
		{"agent and project", tally.SessionFilter{Agent: claude.Agent, Project: "web"}, []string{"b-claude-web"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(sessions(t, s, tc.f))
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			equal(t, "ids", got, tc.want)
		})
	}
}

func testLookup(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	commit(t, s, tally.Batch{Sessions: []tally.Record{
		fullRecord("0195a1b2-aaaa", claude.Agent, "/p", at(1)),
		fullRecord("0195a1b2-bbbb", claude.Agent, "/p", at(2)),
		fullRecord("7f3e9c01", codex.Agent, "/p", at(3)),
		fullRecord("7f3e9c01-sub", codex.Agent, "/p", at(4)),
		fullRecord("abc", gemini.Agent, "/p", at(5)),
	}})
	ctx := context.Background()
	for _, tc := range []struct {
		name, id, want string
		code           tally.Code // when want is ""
		mention        []string   // what the error message must name
	}{
		{"exact id", "0195a1b2-bbbb", "0195a1b2-bbbb", 0, nil},
		{"unique prefix", "0195a1b2-a", "0195a1b2-aaaa", 0, nil},
		{"exact id wins over a longer id it prefixes", "7f3e9c01", "7f3e9c01", 0, nil},
		{"short exact id", "abc", "abc", 0, nil},
		{"ambiguous prefix names the candidates", "0195a1b2", "", tally.CodeConflict, []string{"0195a1b2-aaaa", "0195a1b2-bbbb"}},
		{"prefix shorter than 4", "019", "", tally.CodeNotFound, nil},
		{"no match", "ffff", "", tally.CodeNotFound, nil},
		{"prefix is not a substring", "a1b2", "", tally.CodeNotFound, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Record(ctx, tc.id)
			if tc.want != "" {
				if err != nil {
					t.Fatalf("Record(%q): %v", tc.id, err)
				}
				if got.ID != tc.want || got.Agent == "" || len(got.Lists[""]) != 2 {
					t.Errorf("Record(%q) = %s (agent %q, %d items), want the whole record of %s", tc.id, got.ID, got.Agent, len(got.Lists[""]), tc.want)
				}
				return
			}
			if code := tally.ErrorCode(err); code != tc.code {
				t.Fatalf("Record(%q): %v (code %v), want code %v", tc.id, err, code, tc.code)
			}
			for _, m := range tc.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not name candidate %s", err, m)
				}
			}
		})
	}
}
