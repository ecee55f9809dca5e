package postgres

import (
	"fmt"

	"github.com/tallyhq/tally"
)

// skip counts a row that could not be decoded — someone edited the
// database by hand — and keeps its diagnostic. Reading goes on without
// it: one damaged row must not hide every other session.
func (s *Store) skip(table, key string, err error) {
	d := tally.Diagnostic{
		Path: s.name,
		Msg:  fmt.Sprintf("%s row %q skipped: stored JSON does not decode (%v); the row is rewritten when it next changes", table, key, err),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped++
	if len(s.recent) == tally.MaxDiagnostics {
		s.recent = append(s.recent[:0], s.recent[1:]...)
	}
	s.recent = append(s.recent, d)
}

// Skipped reports how many rows reads have skipped as damaged since Open,
// and the diagnostics of the newest of them (at most tally.MaxDiagnostics).
func (s *Store) Skipped() (int64, []tally.Diagnostic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skipped, append([]tally.Diagnostic(nil), s.recent...)
}
