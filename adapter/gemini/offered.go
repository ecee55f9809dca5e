package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// Gemini CLI 0.61 offers write_todos only when its model is a Gemini 2.x
// model that is not a preview, and its task tracker is off:
//
//	useWriteTodos = isGemini2Model(model) && !isPreviewModel(model) && !trackerEnabled
//
// (Config's constructor in the bundle; isGemini2Model is /^gemini-2(\.|$)/,
// and the default model, "auto", resolves to a Gemini 3 preview). With the
// task tracker on (settings.json experimental.taskTracker) the tracker_*
// tools are offered whatever the model, and they are the list. So a session
// of a Gemini 3 model, with the tracker off, keeps no list however long it
// works. The model is in the log (stream-json's init, a chat record's
// replies); the setting is not, so it is read from settings.json as it is
// now, once, when the adapter is made. A Gemini 2.x session says nothing
// either way: in headless mode write_todos also needs --approval-mode yolo,
// which no log records.

// maxSettingsBytes bounds what is read of settings.json.
const maxSettingsBytes = 1 << 20

// noListToolsHint is how to give Gemini CLI a list tool.
const noListToolsHint = "Gemini CLI offers write_todos only to Gemini 2.x models that are not previews; " +
	"with Gemini 3 its task tracker is the list: `\"experimental\": {\"taskTracker\": true}` in its settings.json " +
	"(`tally setup gemini --enable-task-tracker` sets it); " +
	"or give it Tally's task tools with `tally mcp` (`tally setup gemini` registers it)."

// trackerEnabled reads whether home's settings.json turns the task tracker
// on. A file that does not parse as JSON (Gemini CLI allows comments) says
// nothing: ok is false.
func trackerEnabled(home string) (on, ok bool) {
	if home == "" {
		return false, false
	}
	// Only a regular file is read (a dotfiles manager's link followed): a
	// FIFO in its place is never opened, so it cannot hold the adapter.
	b, err := safefile.ReadRegular(filepath.Join(home, "settings.json"), maxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return false, true // no settings: the default, off
	}
	if err != nil {
		return false, false
	}
	var s struct {
		Experimental struct {
			TaskTracker bool `json:"taskTracker"`
		} `json:"experimental"`
	}
	if json.Unmarshal(b, &s) != nil {
		return false, false
	}
	return s.Experimental.TaskTracker, true
}

// writeTodosModel tells a model Gemini CLI offers write_todos to.
func writeTodosModel(model string) bool {
	return (model == "gemini-2" || strings.HasPrefix(model, "gemini-2.")) && !strings.Contains(model, "preview")
}

// listTools is what a session of model says of its list tools, given the
// tracker setting (known: it could be read).
func listTools(model string, tracker, known bool) tally.Meta {
	switch {
	case model == "" || !known:
		return tally.Meta{}
	case tracker:
		return tally.Meta{ListTools: tally.ListToolsOffered}
	case writeTodosModel(model):
		return tally.Meta{}
	}
	return tally.Meta{ListTools: tally.ListToolsNone, ListToolsHint: noListToolsHint}
}

var modelNeedle = []byte(`"model":"`)

// modelOf reads the first "model" string of a line from its bytes, "" if
// there is none or it is escaped.
func modelOf(line []byte) string {
	i := bytes.Index(line, modelNeedle)
	if i < 0 {
		return ""
	}
	rest := line[i+len(modelNeedle):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return ""
	}
	return string(rest[:j])
}

// noteModel reports the list tools of the session's model, the first
// time a line names one.
func (d *Decoder) noteModel(model string) {
	if d.st.Model || model == "" || d.info.List != "" {
		return
	}
	d.st.Model = true
	if m := listTools(model, d.tracker, d.trackerKnown); m.ListTools != tally.ListToolsUnknown {
		d.add(tally.Event{Kind: tally.EventMeta, Meta: m})
	}
}
