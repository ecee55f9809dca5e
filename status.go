package tally

import (
	"fmt"
	"strings"
)

// Status is where an item stands. Agents use different words; each adapter
// maps its vocabulary onto these, and a word it does not know becomes
// StatusUnknown with the original word kept in Item.RawStatus — never a
// silent "pending".
type Status uint8

const (
	StatusUnknown Status = iota
	StatusPending
	StatusInProgress
	StatusCompleted
	StatusCancelled
	StatusFailed
	// StatusBlocked is a status an agent declared itself (Gemini's write_todos
	// has it). Blocked-by-dependency is derived instead: see List.Blocked.
	StatusBlocked
)

var statusNames = [...]string{
	StatusUnknown:    "unknown",
	StatusPending:    "pending",
	StatusInProgress: "in_progress",
	StatusCompleted:  "completed",
	StatusCancelled:  "cancelled",
	StatusFailed:     "failed",
	StatusBlocked:    "blocked",
}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// ParseStatus maps the canonical words (and the common spellings agents use:
// "in-progress", "canceled", "done") onto a Status. ok is false for any other
// word; callers keep that word as RawStatus.
func ParseStatus(word string) (s Status, ok bool) {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "pending", "todo", "open":
		return StatusPending, true
	case "in_progress", "in-progress", "inprogress", "active", "running":
		return StatusInProgress, true
	case "completed", "complete", "done", "closed":
		return StatusCompleted, true
	case "cancelled", "canceled":
		return StatusCancelled, true
	case "failed", "error":
		return StatusFailed, true
	case "blocked":
		return StatusBlocked, true
	}
	return StatusUnknown, false
}

// Open reports whether an item in this status still has work left: it is
// what makes a blocker block.
func (s Status) Open() bool {
	switch s {
	case StatusCompleted, StatusCancelled:
		return false
	case StatusUnknown, StatusPending, StatusInProgress, StatusFailed, StatusBlocked:
		return true
	}
	return true
}

func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Status) UnmarshalText(b []byte) error {
	if string(b) == "unknown" {
		*s = StatusUnknown
		return nil
	}
	v, ok := ParseStatus(string(b))
	if !ok {
		return fmt.Errorf("tally: unknown status %q", b)
	}
	*s = v
	return nil
}

// StatusOf maps an agent's status word for an item: the Status, and the
// word itself when Tally does not know it (kept as Item.RawStatus, so an
// unknown word stays visible instead of passing for "pending").
func StatusOf(word string) (Status, string) {
	if s, ok := ParseStatus(word); ok {
		return s, ""
	}
	return StatusUnknown, word
}
