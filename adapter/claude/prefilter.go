package claude

import (
	"bytes"

	"github.com/tallyhq/tally/marker"
)

// The prefilter decides from bytes alone whether a line can matter. Each
// needle is searched by a byte that is rare in transcripts: bytes.Index
// skips ahead with IndexByte on the needle's first byte, so a needle
// starting with '"' (in every JSON key) would stop everywhere.

// Tool names and title keys all contain an upper-case 'T', which is rare in
// JSON keys and ids: one IndexByte pass finds every candidate.
var (
	toolNeedles = [][]byte{
		[]byte("TodoWrite\""),
		[]byte("TaskCreate\""),
		[]byte("TaskUpdate\""),
		[]byte("TaskList\""),
	}
	titleNeedle = []byte("Title\":") // aiTitle, customTitle
	// A tool_use block is {"type":"tool_use","id":…,"name":…,"input":…}:
	// the name is followed by the input. The tool definitions Claude Code
	// 2.1 logs with every API request ("api-request" lines, tens of KB)
	// name the same tools followed by a description instead.
	inputNeedle = []byte(`,"input"`)
	// Where a producer orders a block's keys otherwise, the line still
	// counts when its head says it is an assistant message.
	assistantRole = []byte(`"role":"assistant"`)
	assistantType = []byte(`{"type":"assistant"`)
)

// headLen is how much of a line the head checks look at: the envelope keys
// Claude Code writes first (parentUuid, isSidechain, message.id, role) end
// well before it.
const headLen = 320

func head(line []byte) []byte { return line[:min(len(line), headLen)] }

// isAssistant tells an assistant line by its head.
func isAssistant(line []byte) bool {
	h := head(line)
	return bytes.HasPrefix(h, assistantType) || bytes.Contains(h, assistantRole)
}

// hasToolNeedle reports whether line may hold a todo/task tool call or a
// title. A mention in text is a false positive the parse then drops.
func hasToolNeedle(line []byte) bool {
	assistant := -1 // unknown yet
	for i := 0; i < len(line); {
		j := bytes.IndexByte(line[i:], 'T')
		if j < 0 {
			return false
		}
		i += j
		rest := line[i:]
		if bytes.HasPrefix(rest, titleNeedle) {
			return true
		}
		for _, n := range toolNeedles {
			if !bytes.HasPrefix(rest, n) {
				continue
			}
			if bytes.HasPrefix(rest[len(n):], inputNeedle) {
				return true
			}
			if assistant < 0 {
				assistant = 0
				if isAssistant(line) {
					assistant = 1
				}
			}
			if assistant == 1 {
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
	selStart                           // the first line with a time: when the session started
	selAgent                           // a stream's sub-agent line whose Agent call names it
	selTools                           // a list of the tools the session was offered
	selMarker                          // an assistant line whose text may hold a progress marker
)

var (
	// A stream's calls that start a sub-agent, and its sub-agents' lines.
	agentCallNeedle = []byte(`"name":"Agent","input"`)
	taskCallNeedle  = []byte(`"name":"Task","input"`)
	parentNeedle    = []byte(`"parent_tool_use_id":"`)
)

// selectLine is the whole per-line cost of a line that does not matter.
// content is where the line's assistant content begins, -1 when it is no
// assistant line (assistantContent).
func (d *Decoder) selectLine(line []byte, content int) selection {
	var s selection
	if hasToolNeedle(line) || bytes.HasPrefix(line, summaryPrefix) {
		s |= selTool
	}
	// Markers are looked for in the assistant's content only: the lines
	// of tool results, the bulk of a transcript, are never searched.
	if content >= 0 && marker.Maybe(line[content:]) {
		s |= selMarker
	}
	if d.info.List == "" && isSidechain(line) && !bytes.Contains(line, agentIDNeedle) {
		s |= selSidechain
	}
	for _, id := range d.pendingIDs {
		if bytes.Contains(line, id) {
			s |= selResult
			break
		}
	}
	if !d.st.Started && bytes.Contains(line, timestampNeedle) {
		s |= selStart
	}
	if d.info.List == "" && d.st.Head < toolsLines {
		d.st.Head++
		if bytes.HasPrefix(line, initPrefix) || bytes.Contains(head(line), deferredNeedle) {
			s |= selTools
		}
	}
	if d.stream {
		// Only streams: a file's sub-agents are named by their sidecars.
		if bytes.Contains(line, agentCallNeedle) || bytes.Contains(line, taskCallNeedle) {
			s |= selTool
		}
		if len(d.st.Agents) > 0 && bytes.Contains(line, parentNeedle) {
			s |= selAgent
		}
	}
	if (!d.st.HaveCwd && bytes.Contains(line, cwdNeedle)) ||
		(!d.st.HaveTitle && bytes.Contains(line, userTypeNeedle)) {
		s |= selMeta
	}
	return s
}

var (
	// The key is searched from its 'S': a needle starting with '"' would
	// stop at every key and string of the head.
	sidechainKey = []byte(`Sidechain":`)
	isPrefix     = []byte(`"is`)
	trueValue    = []byte("true")
)

// isSidechain reads isSidechain from the line's head, where Claude Code
// writes it (the second key, after parentUuid). Lines without it there —
// summaries, API request logs, queue operations — are no conversation
// lines, so no sidechain lines either.
func isSidechain(line []byte) bool {
	h := head(line)
	for {
		i := bytes.Index(h, sidechainKey)
		if i < 0 {
			return false
		}
		if i >= len(isPrefix) && bytes.Equal(h[i-len(isPrefix):i], isPrefix) {
			return bytes.HasPrefix(h[i+len(sidechainKey):], trueValue)
		}
		h = h[i+len(sidechainKey):]
	}
}
