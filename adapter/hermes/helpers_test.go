package hermes

import (
	"slices"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

// fx is how Hermes keeps state.db: at the top of its home.
var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   dbName,
	New:   func(root string) tally.DatabaseReader { return New(Options{Home: root}) },
}

var (
	buildDB  = fx.Build
	sessions = fx.Sessions // a sound database: no diagnostics
	readDB   = fx.Read
	fold     = fx.Fold
)

func items(st *tally.FileState) []tally.Item { return agentdbtest.List(st, "") }

func todo(id, title string, s tally.Status) tally.Item {
	return tally.Item{ID: id, Title: title, Status: s, Source: tally.SourceTodo}
}

func raw(it tally.Item, word string) tally.Item {
	it.RawStatus = word
	return it
}

func sortStrings(s []string) { slices.Sort(s) }
