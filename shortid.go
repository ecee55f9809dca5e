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

// IDIsName tells an id that names something from an agent's opaque
// session id: Tally's own task lists (tally:NAME) and a task list sessions
// share (named after its directory) are names, shown whole, never cut.
func (s *Session) IDIsName() bool {
	return s.Agent == AgentTally || s.TaskList != nil || s.Shared
}

// ShortIDs is the id each of the listed sessions is shown by, keyed by its
// full id. The rule is git's for abbreviated hashes: an agent's session id
// is cut to its shortest prefix of at least MinShortID characters that no
// other listed id begins with, so `tally show` takes it back whatever else
// was listed with it; a name (IDIsName) is shown whole.
func ShortIDs(ss []Session) map[string]string {
	ids := make([]string, 0, len(ss))
	for i := range ss {
		ids = append(ids, ss[i].ID)
	}
	sort.Strings(ids)
	out := make(map[string]string, len(ss))
	for i := range ss {
		id := ss[i].ID
		if ss[i].IDIsName() {
			out[id] = id
			continue
		}
		// In sorted order the ids sharing the longest prefix with id are
		// its neighbours.
		j := sort.SearchStrings(ids, id)
		n := MinShortID
		for _, k := range []int{j - 1, j + 1} {
			if k >= 0 && k < len(ids) && ids[k] != id {
				n = max(n, commonPrefix(ids[k], id)+1)
			}
		}
		out[id] = cut(id, n)
	}
	return out
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
