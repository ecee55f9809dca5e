package tally

import (
	"sort"
	"unicode/utf8"
)

// MinShortID is the fewest characters of an agent's session id a listing
// shows: 8 hex digits of a UUID tell apart any two sessions but those
// made within the same minute or so (UUIDv7 ids, as Codex makes, begin
// with the time), and those get longer prefixes.
const MinShortID = 8

// MaxNameShown is the most of a name (IDIsName) a listing shows whole:
// "tally:claude-" and the 8 characters of a session id, as the Tally list
// of a Claude Code session is named. A longer name is cut as an id is (see
// ShortName), so that one long name cannot take a table's room from the
// titles.
const MaxNameShown = len("tally:claude-") + MinShortID

// IDIsName tells an id that names something from an agent's opaque
// session id: Tally's own task lists (tally:NAME) and a task list sessions
// share (named after its directory) are names, shown whole up to
// MaxNameShown characters.
func (s *Session) IDIsName() bool {
	return s.Agent == AgentTally || s.TaskList != nil || s.Shared
}

// IDIsName is Session.IDIsName for a record.
func (r *Record) IDIsName() bool {
	return r.Agent == AgentTally || r.TaskList != nil || r.Shared
}

// ShortIDs is the id each of the listed sessions is shown by, keyed by its
// full id (see ShortID); a name (IDIsName), as ShortName shows it.
func ShortIDs(ss []Session) map[string]string {
	ids := make([]string, 0, len(ss))
	for i := range ss {
		ids = append(ids, ss[i].ID)
	}
	sort.Strings(ids)
	out := make(map[string]string, len(ss))
	for i := range ss {
		if id := ss[i].ID; ss[i].IDIsName() {
			out[id] = ShortName(ids, id)
		} else {
			out[id] = ShortID(ids, id)
		}
	}
	return out
}

// ShortID is how a listing shows an agent's session id, given the sorted
// ids of everything it lists. The rule is git's for abbreviated hashes:
// the shortest prefix of at least MinShortID characters that no other
// listed id begins with, so that `tally show` takes it back whatever else
// was listed with it.
func ShortID(sorted []string, id string) string { return shortest(sorted, id, MinShortID) }

// ShortName is how a listing shows a name (IDIsName): whole up to
// MaxNameShown characters, else as ShortID shows an id, but keeping at
// least MaxNameShown characters.
func ShortName(sorted []string, id string) string {
	if utf8.RuneCountInString(id) <= MaxNameShown {
		return id
	}
	return shortest(sorted, id, MaxNameShown)
}

// shortest is the shortest prefix of id of at least least bytes that no
// other of the sorted ids begins with.
func shortest(sorted []string, id string, least int) string {
	// In sorted order the ids sharing the longest prefix with id are its
	// neighbours.
	j := sort.SearchStrings(sorted, id)
	n := least
	for _, k := range []int{j - 1, j, j + 1} {
		if k >= 0 && k < len(sorted) && sorted[k] != id {
			n = max(n, commonPrefix(sorted[k], id)+1)
		}
	}
	return cut(id, n)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// cut keeps the first n bytes of id, or more to end on a whole character.
func cut(id string, n int) string {
	if n >= len(id) {
		return id
	}
	for n < len(id) && !utf8.RuneStart(id[n]) {
		n++
	}
	return id[:n]
}
