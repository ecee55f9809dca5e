package claude

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// rawLine is what the tests read of a line, with encoding/json: an
// implementation independent of the decoder's.
type rawLine struct {
	Type        string `json:"type"`
	UUID        string `json:"uuid"`
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	AgentID     string `json:"agentId"`
	AgentID2    string `json:"agent_id"`
	Version     string `json:"version"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult  json.RawMessage `json:"toolUseResult"`
	ToolUseResult2 json.RawMessage `json:"tool_use_result"`
}

type rawBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

type rawTodo struct {
	ID         string `json:"id"`
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
	Priority   string `json:"priority"`
}

func (l *rawLine) blocks() []rawBlock {
	var bs []rawBlock
	_ = json.Unmarshal(l.Message.Content, &bs)
	return bs
}

func (l *rawLine) result() json.RawMessage {
	if len(l.ToolUseResult) > 0 {
		return l.ToolUseResult
	}
	return l.ToolUseResult2
}

// agentLists attributes lines to lists the way the agent's own record
// implies: agentId, or for 1.0.x the root of the sidechain's parentUuid
// chain, computed over the whole file.
type agentLists struct {
	file   tally.FileInfo
	byUUID map[string]*rawLine
}

func (a *agentLists) of(l *rawLine) string {
	switch {
	case a.file.List != "":
		return a.file.List
	case l.AgentID != "":
		return l.AgentID
	case l.AgentID2 != "":
		return l.AgentID2
	case !l.IsSidechain:
		return ""
	}
	for {
		p := a.byUUID[l.ParentUUID]
		if p == nil || !p.IsSidechain {
			return l.UUID
		}
		l = p
	}
}

func wantTodos(raw []rawTodo) []tally.Item {
	out := make([]tally.Item, len(raw))
	for i, r := range raw {
		st, ok := tally.ParseStatus(r.Status)
		it := tally.Item{ID: r.ID, Title: r.Content, ActiveForm: r.ActiveForm, Priority: r.Priority, Status: st, Source: tally.SourceTodo}
		if !ok {
			it.RawStatus = r.Status
		}
		out[i] = it
	}
	return out
}

func sortedItems(items []tally.Item) []tally.Item {
	out := append([]tally.Item(nil), items...)
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out
}

// TestDecoder_TodoWriteMatchesAgentRecord checks every TodoWrite call of
// every fixture: right after the user line carrying the call's
// toolUseResult.newTodos (the agent's own statement of the list), the
// folded list of the calling agent equals newTodos. A call with no such
// result (sub-agent files, which have no toolUseResult) is checked against
// its own input right after the call.
func TestDecoder_TodoWriteMatchesAgentRecord(t *testing.T) {
	var byResult, byInput int
	for _, f := range fixtureFiles(t) {
		data := read(t, f.path)
		var parsed []*rawLine
		al := &agentLists{file: f.info, byUUID: map[string]*rawLine{}}
		for _, b := range adaptertest.Lines(data) {
			var l rawLine
			if err := json.Unmarshal(b, &l); err != nil {
				parsed = append(parsed, nil)
				continue
			}
			parsed = append(parsed, &l)
			if l.UUID != "" {
				al.byUUID[l.UUID] = &l
			}
		}
		// Which calls have a newTodos result in this file.
		answered := map[string]bool{}
		for _, l := range parsed {
			if l == nil || l.Type != "user" {
				continue
			}
			var r struct {
				NewTodos *[]rawTodo `json:"newTodos"`
			}
			if json.Unmarshal(l.result(), &r) == nil && r.NewTodos != nil {
				for _, b := range l.blocks() {
					if b.Type == "tool_result" {
						answered[b.ToolUseID] = true
					}
				}
			}
		}
		fo := newFolder(t, f.info)
		callList := map[string]string{}
		for i, b := range adaptertest.Lines(data) {
			fo.Feed(b)
			l := parsed[i]
			if l == nil {
				continue
			}
			for _, blk := range l.blocks() {
				switch {
				case blk.Type == "tool_use" && blk.Name == "TodoWrite" && l.Type == "assistant":
					list := al.of(l)
					callList[blk.ID] = list
					if answered[blk.ID] {
						continue
					}
					var in struct{ Todos []rawTodo }
					if err := json.Unmarshal(blk.Input, &in); err != nil {
						t.Fatalf("%s: TodoWrite input: %v", f.path, err)
					}
					byInput++
					if got, want := fo.List(list), wantTodos(in.Todos); !reflect.DeepEqual(got, want) {
						t.Errorf("%s line %d: list %q after call %s\n got %+v\nwant %+v", f.path, i+1, list, blk.ID, got, want)
					}
				case blk.Type == "tool_result" && answered[blk.ToolUseID] && l.Type == "user":
					list, ok := callList[blk.ToolUseID]
					if !ok {
						t.Fatalf("%s line %d: result of unseen call %s", f.path, i+1, blk.ToolUseID)
					}
					var r struct{ NewTodos []rawTodo }
					_ = json.Unmarshal(l.result(), &r)
					byResult++
					got, want := fo.List(list), wantTodos(r.NewTodos)
					if strings.HasPrefix(l.Version, "1.0.3") {
						// 1.0.31 re-sorts newTodos by priority: same items, other order.
						got, want = sortedItems(got), sortedItems(want)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s line %d: list %q after result of %s\n got %+v\nwant %+v", f.path, i+1, list, blk.ToolUseID, got, want)
					}
				}
			}
		}
		if len(fo.Diags) > 0 {
			t.Errorf("%s: unexpected diagnostics %v", f.path, fo.Diags)
		}
	}
	t.Logf("TodoWrite calls checked: %d against toolUseResult.newTodos, %d against their own input", byResult, byInput)
	if byResult < 100 {
		t.Errorf("only %d calls checked against newTodos; fixtures missing?", byResult)
	}
}
