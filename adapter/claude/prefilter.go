package claude

import (
	"bytes"

	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
)

// The prefilter decides from bytes alone whether a line can matter, from
// what the look at the line found (lookAt) and a few checks of its head.
// A line the look could not read (blocks cut short or garbled, keys in an
// order Claude Code does not write) is searched instead, for the needles
// below. Each needle is searched by a byte that is rare in transcripts:
// bytes.Index skips ahead with IndexByte on the needle's first byte, so a
// needle starting with '"' (in every JSON key) would stop everywhere.

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
	userTypePrefix  = []byte(`{"type":"user"`)
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
// lk is what the look at the line found (lookAt).
func (d *Decoder) selectLine(line []byte, lk *look) selection {
	var s selection
	switch {
	case lk.kind == kindAssistant && lk.read:
		// The look read every block: a call of a tool the decoder reads,
		// and a text block that may hold a marker, are known exactly.
		// Markers are looked for in the assistant's text only: tool
		// inputs and results, the bulk of a transcript, never are.
		if lk.tool {
			s |= selTool
		}
		if lk.marker {
			s |= selMarker
		}
	case lk.kind == kindAssistant:
		// Blocks that do not read as JSON: the bytes are searched, and
		// the parse says what is wrong with the line.
		if d.searchTools(line) {
			s |= selTool
		}
		if lk.content >= 0 && marker.Maybe(line[lk.content:]) {
			s |= selMarker
		}
	case lk.kind == kindOther:
		// A title line says so first, as Claude Code writes it; a line
		// that says first it is the assistant's, but holds no message of
		// its own, is searched.
		if titleLine(line) || bytes.HasPrefix(line, assistantType) && d.searchTools(line) {
			s |= selTool
		}
	}
	if d.info.List == "" && isSidechain(line) && !bytes.Contains(line, agentIDNeedle) {
		s |= selSidechain
	}
	// A result is read from the blocks of a user's message only.
	if d.answers(line, lk) {
		s |= selResult
	}
	if !d.st.Started && bytes.Contains(line, timestampNeedle) {
		s |= selStart
	}
	if d.info.List == "" && d.st.Head < toolsLines {
		d.st.Head++
		if bytes.HasPrefix(line, initPrefix) || offersTools(line, lk) {
			s |= selTools
		}
	}
	if d.stream && len(d.st.Agents) > 0 && bytes.Contains(line, parentNeedle) {
		// Only streams: a file's sub-agents are named by their sidecars.
		s |= selAgent
	}
	if (!d.st.HaveCwd && bytes.Contains(line, cwdNeedle)) || (!d.st.HaveTitle && mayPrompt(line, lk)) {
		s |= selMeta
	}
	return s
}

// searchTools is the look for a tool call in a line whose blocks could not
// be read one by one: its bytes are searched for the tools' names.
func (d *Decoder) searchTools(line []byte) bool {
	return hasToolNeedle(line) ||
		d.stream && (bytes.Contains(line, agentCallNeedle) || bytes.Contains(line, taskCallNeedle))
}

// mayPrompt tells a line that may hold a prompt the user typed, the
// session's title until a real one comes (promptText): a user's message
// whose content is text, or whose first block is. Tool results, most of
// a session's user lines, are not; a line that says first it is a user's,
// but holds no message of its own first, may be.
func mayPrompt(line []byte, lk *look) bool {
	switch {
	case lk.kind == kindOther:
		return bytes.HasPrefix(line, userTypePrefix)
	case lk.kind != kindUser || lk.content < 0:
		return false
	case line[lk.content] == '"':
		return true
	case line[lk.content] != '[':
		return false
	}
	i := lk.content + 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r') {
		i++
	}
	if i == len(line) || line[i] != '{' {
		return i < len(line) && line[i] != ']'
	}
	typ, _, ok := jsonl.Field(line[i+1:], "type")
	return !ok || bytes.Equal(typ, blockText)
}

var titlePrefixes = [][]byte{summaryPrefix, []byte(`{"type":"ai-title"`), []byte(`{"type":"custom-title"`)}

// titleLine tells a line that names the session: Claude Code writes its
// summary, ai-title and custom-title lines type first.
func titleLine(line []byte) bool {
	for _, p := range titlePrefixes {
		if bytes.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

var deferredType = []byte(`"deferred_tools_delta"`)

// offersTools tells the attachment that lists the deferred tools
// (offeredTools): the line's first nested object is the attachment, whose
// type says so.
func offersTools(line []byte, lk *look) bool {
	if lk.nested < 0 || !bytes.Equal(lk.key, attachmentName) {
		return false
	}
	typ, _, ok := jsonl.Field(line[lk.nested+1:], "type")
	return ok && bytes.Equal(typ, deferredType)
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
