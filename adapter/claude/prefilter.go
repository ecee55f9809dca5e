package claude

import "bytes"

// The prefilter decides from bytes alone whether a line can matter. Each
// needle is searched by a byte that is rare in transcripts: bytes.Index
// skips ahead with IndexByte on the needle's first byte, so a needle
// starting with '"' (in every JSON key) would stop everywhere.

// Tool names and title keys all contain an upper-case 'T', which is rare in
// JSON keys and ids: one IndexByte pass finds every candidate.
var tNeedles = [][]byte{
	[]byte("TodoWrite\""),
	[]byte("TaskCreate\""),
	[]byte("TaskUpdate\""),
	[]byte("TaskList\""),
	[]byte("Title\":"), // aiTitle, customTitle
}

// hasToolNeedle reports whether line mentions a todo/task tool or a title
// line's key. A mention in text is a false positive the parse then drops.
func hasToolNeedle(line []byte) bool {
	for i := 0; i < len(line); {
		j := bytes.IndexByte(line[i:], 'T')
		if j < 0 {
			return false
		}
		i += j
		rest := line[i:]
		for _, n := range tNeedles {
			if bytes.HasPrefix(rest, n) {
				return true
			}
		}
		i++
	}
	return false
}

var (
	// 'S' starts the needle: "isSidechain":true, searched from the 'S'.
	sidechainNeedle = []byte(`Sidechain":true`)
	agentIDNeedle   = []byte(`"agentId":"`)
	cwdNeedle       = []byte(`"cwd":"`)
	userTypeNeedle  = []byte(`"type":"user"`)
	summaryPrefix   = []byte(`{"type":"summary"`)
	resultNeedle    = []byte(`"type":"result"`)
	timestampNeedle = []byte(`"timestamp":"`)
)

// Reasons a line was selected for parsing.
type selection uint8

const (
	selTool      selection = 1 << iota // a todo/task tool or a title key
	selSidechain                       // a 1.0.x sidechain line: its uuid must be mapped
	selResult                          // it holds the id of a call awaiting its result
	selMeta                            // it may carry cwd or the first prompt still missing
)

// selectLine is the whole per-line cost of a line that does not matter.
func (d *Decoder) selectLine(line []byte) selection {
	var s selection
	if hasToolNeedle(line) || bytes.HasPrefix(line, summaryPrefix) {
		s |= selTool
	}
	if d.info.List == "" && bytes.Contains(line, sidechainNeedle) && !bytes.Contains(line, agentIDNeedle) {
		s |= selSidechain
	}
	for _, id := range d.pendingIDs {
		if bytes.Contains(line, id) {
			s |= selResult
			break
		}
	}
	if (!d.st.HaveCwd && bytes.Contains(line, cwdNeedle)) ||
		(!d.st.HaveTitle && bytes.Contains(line, userTypeNeedle)) {
		s |= selMeta
	}
	return s
}
