package sqlite

import "github.com/tallyhq/tally"

// skip counts a row that could not be decoded and keeps its diagnostic
// (column.Skips). Reading goes on without it.
func (s *Store) skip(table, key string, err error) { s.skips.Add(s.path, table, key, err) }

// Skipped reports how many rows reads have skipped as damaged since Open,
// and the diagnostics of the newest of them (at most tally.MaxDiagnostics).
func (s *Store) Skipped() (int64, []tally.Diagnostic) { return s.skips.Report() }
