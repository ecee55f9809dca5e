package agents_test

import (
	"path/filepath"
	"testing"

	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
)

// BenchmarkMatch_aFileNotTheirs: what each agent's Match costs for a file
// under its root that is not one of its own (a log, an attachment): the
// walk asks it of every file there, so it must stay cheap as agents are
// added.
func BenchmarkMatch_aFileNotTheirs(b *testing.B) {
	home := b.TempDir()
	env := adapter.Env{Getenv: func(string) string { return "" }, Home: home, Dir: home}
	for _, d := range agents.All {
		if d.New == nil || len(d.Homes) == 0 {
			continue
		}
		a := d.New(d.Dirs(env, nil))
		roots := a.Roots()
		if len(roots) == 0 {
			continue
		}
		root := roots[0]
		path := filepath.Join(root, "some-project", "logs", "2026-11-26T08-40-02.log")
		b.Run(string(d.Agent), func(b *testing.B) {
			for b.Loop() {
				if _, ok := a.Match(root, path); ok {
					b.Fatal("matched")
				}
			}
		})
	}
}
