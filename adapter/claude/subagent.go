package claude

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
	"github.com/valyala/fastjson"
)

// A sub-agent is known by what the model asked of it: the description of
// the Agent call (Task in 1.0.x) that started it, "Audit string helpers".
// Surfaces show that instead of its hex id. Two places say it:
//   - beside a sub-agent's transcript, agent-<id>.meta.json holds
//     {"description": …, "toolUseId": …};
//   - in stream-json, the Agent call carries it, and the sub-agent's lines
//     name the call in parent_tool_use_id beside their agent_id.

// maxMetaBytes bounds what is read of a sidecar: it is a few hundred bytes.
const maxMetaBytes = 64 << 10

// maxAgentCalls bounds the Agent calls a stream decoder remembers until a
// line of their sub-agent names its list.
const maxAgentCalls = 16

// subAgentName is the description in the sidecar of the sub-agent whose
// transcript is at path, "" when there is none to read.
func subAgentName(path string) string {
	base, ok := strings.CutSuffix(path, ".jsonl")
	if !ok {
		return ""
	}
	f, err := safefile.OpenRegular(base + ".meta.json")
	if err != nil {
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxMetaBytes))
	if err != nil {
		return ""
	}
	var meta struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(b, &meta) != nil || !utf8.ValidString(meta.Description) {
		return ""
	}
	return strings.TrimSpace(meta.Description)
}

// nameFromSidecar names a sub-agent's list from its sidecar, looking once
// per read until it is found.
func (d *Decoder) nameFromSidecar(emit func(tally.Event)) {
	if d.info.List == "" || d.st.Named || d.sidecarRead {
		return
	}
	d.sidecarRead = true
	if name := subAgentName(d.info.Path); name != "" {
		d.st.Named = true
		emit(tally.Event{Kind: tally.EventMeta, List: d.info.List, Meta: tally.Meta{Name: name}})
	}
}

// agentCall is an Agent call of a stream whose sub-agent is not named yet.
type agentCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// rememberAgent keeps a stream's Agent call by its description.
func (d *Decoder) rememberAgent(id string, input *fastjson.Value) {
	if input == nil || id == "" {
		return
	}
	name := strings.TrimSpace(string(input.GetStringBytes("description")))
	if name == "" || !utf8.ValidString(name) {
		return
	}
	d.st.Agents = append(d.st.Agents, agentCall{ID: id, Name: name})
	if n := len(d.st.Agents) - maxAgentCalls; n > 0 {
		d.st.Agents = append(d.st.Agents[:0], d.st.Agents[n:]...)
	}
}

// nameSubAgent names list after the Agent call a stream line says its
// sub-agent runs for (parent_tool_use_id), once.
func (d *Decoder) nameSubAgent(l line, list string) {
	if list == "" {
		return
	}
	parent := string(l.v.GetStringBytes("parent_tool_use_id"))
	for i, c := range d.st.Agents {
		if c.ID == parent {
			d.add(tally.Event{Kind: tally.EventMeta, List: list, Meta: tally.Meta{Name: c.Name}})
			d.st.Agents = append(d.st.Agents[:i], d.st.Agents[i+1:]...)
			return
		}
	}
}
