package gemini

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// sessionMeta is what a header, a $set or a legacy record says of the
// session.
type sessionMeta struct {
	sessionID string
	started   time.Time
	updated   time.Time
	summary   string
	dir       string // the first of `directories`
}

func readMeta(v *fastjson.Value) (sessionMeta, error) {
	var m sessionMeta
	var err error
	if m.sessionID, err = str(v, "sessionId"); err != nil {
		return m, err
	}
	if m.summary, err = str(v, "summary"); err != nil {
		return m, err
	}
	if dirs := v.GetArray("directories"); len(dirs) > 0 {
		m.dir = string(dirs[0].GetStringBytes())
	}
	m.started = timeOf(v, "startTime")
	m.updated = timeOf(v, "lastUpdated")
	return m, nil
}

// applyMeta emits what m says. A sub-agent's own session id and summary
// are not the session's.
func (d *Decoder) applyMeta(m sessionMeta) {
	if d.info.List == "" && (m.sessionID != "" || !m.started.IsZero()) {
		d.add(tally.Event{Kind: tally.EventMeta, At: m.started, Meta: tally.Meta{SessionID: m.sessionID}})
	}
	if d.info.List == "" && m.summary != "" {
		d.st.HaveTitle = true
		d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: m.summary}})
	}
	d.project(rankDirs, m.dir)
}

// projectRank orders the sources of a session's project: a better one
// replaces a worse one, never the reverse. Gemini CLI records no cwd per
// line, so the project is pieced together from what there is.
type projectRank uint8

const (
	rankNone projectRank = iota
	// rankDirName: the tmp/<projectId> directory's own name — a slug of
	// the project's base name, or the legacy sha256 of its path.
	rankDirName
	// rankContext: the first workspace directory in the session context
	// Gemini CLI puts in the record's first message.
	rankContext
	// rankRegistry: the project registry (.project_root, projects.json).
	rankRegistry
	// rankDirs: the record's own `directories`.
	rankDirs
)

func (d *Decoder) project(r projectRank, path string) {
	if path == "" || r <= d.st.Rank {
		return
	}
	d.st.Rank = r
	d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Project: path}})
}

// pathProject reports what the file's place says of its project, once.
func (d *Decoder) pathProject() {
	if d.projectPath != "" {
		d.project(rankRegistry, d.projectPath)
	}
	d.project(rankDirName, d.projectID)
}

const (
	contextOpen   = "<session_context>"
	workspaceHead = "- **Workspace Directories:**\n"
)

// contextDir is the first workspace directory listed in a session-context
// message, "" for any other message.
func contextDir(v *fastjson.Value) string {
	if string(v.GetStringBytes("type")) != "user" {
		return ""
	}
	for _, p := range v.GetArray("content") {
		t := p.GetStringBytes("text")
		s := string(t)
		if !strings.HasPrefix(s, contextOpen) || !utf8.ValidString(s) {
			continue
		}
		_, rest, ok := strings.Cut(s, workspaceHead)
		if !ok {
			return ""
		}
		line, _, _ := strings.Cut(rest, "\n")
		if dir, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			return strings.TrimSpace(dir)
		}
		return ""
	}
	return ""
}

// promptOf is the text of a prompt the user typed, cut to a title, or ""
// for a user message that is not one: a tool's answer, the session context
// Gemini CLI sends first.
func promptOf(c *fastjson.Value) (string, error) {
	if c == nil {
		return "", nil
	}
	var text []byte
	switch c.Type() {
	case fastjson.TypeString:
		text, _ = c.StringBytes()
	case fastjson.TypeArray:
		for _, p := range c.GetArray() {
			t := p.Get("text")
			if t == nil {
				return "", nil // a functionResponse or inline data
			}
			b, err := t.StringBytes()
			if err != nil {
				return "", errText("content text is not a string")
			}
			text = append(text, b...)
		}
	default:
		return "", nil
	}
	return titleOf(text)
}

func titleOf(text []byte) (string, error) {
	s := strings.TrimSpace(string(text))
	if strings.HasPrefix(s, contextOpen) {
		return "", nil
	}
	return tally.PromptTitle(s), nil
}

// str reads a string field, "" if absent or null, refusing other types.
// Text that is not valid UTF-8 is kept as it is: the fold repairs it and
// says so, and the rest of the record stands.
func str(v *fastjson.Value, key string) (string, error) {
	f := v.Get(key)
	if f == nil || f.Type() == fastjson.TypeNull {
		return "", nil
	}
	b, err := f.StringBytes()
	if err != nil {
		return "", errText("field " + key + " is not a string")
	}
	return string(b), nil
}
