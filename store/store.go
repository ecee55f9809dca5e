package store

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// Store is everything a Tally store does. Its parts are declared where they
// are used; a caller that needs one part takes that part.
type Store interface {
	// Files and records: what the indexer folded, change marks.
	tally.Store
	// Progress markers pending until applied, and what became of them.
	tally.MarkerStore
	// The hooks' memory and needs-input marks.
	tally.HookKeeper
	// Access tokens, by id, the secret's hash only.
	tally.TokenKeeper
	// Batches of records other machines pushed.
	tally.Ingester
	// Requests agents ask of their users, and the decisions on them.
	tally.RequestKeeper
	// Tally's own task lists.
	tasks.Store
}
