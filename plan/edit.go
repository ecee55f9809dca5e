package plan

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// render returns the bytes of t's file with t's current statuses. The
// user's file is changed as little as YAML allows: when every status is
// already written as a word, only those words change and every other byte
// (comments, blank lines, quoting, key order) stays. When a status key is
// missing, it is added to the node tree and the tree is written out again:
// comments and key order survive, blank lines do not. Either way the result
// is read back and must say exactly t, or nothing is written.
func (t *Task) render() ([]byte, error) {
	src := t.src
	if src == nil {
		out, err := newTaskFile(t)
		if err == nil && !sameTask(out, t) {
			err = fmt.Errorf("%s: the new task does not read back as written", t.fileName())
		}
		return out, err
	}
	if edits, ok := t.statusEdits(); ok {
		if out, ok := splice(src.data, edits); ok && sameTask(out, t) {
			return out, nil
		}
	}
	out, err := t.reencode()
	if err != nil {
		return nil, err
	}
	if !sameTask(out, t) {
		return nil, fmt.Errorf("%s: rewriting the statuses would change the task; the file is left as it was", t.fileName())
	}
	return out, nil
}

// statusEdits lists the status words that differ from the file. ok is
// false when a status to be written has no key in the file.
func (t *Task) statusEdits() (edits []scalarEdit, ok bool) {
	src := t.src
	want := func(n *yaml.Node, have, word, dflt string) bool {
		switch {
		case n == nil && word == dflt:
			return true
		case n == nil:
			return false
		case have != word:
			edits = append(edits, scalarEdit{n, word})
		}
		return true
	}
	if !want(src.status, valueOf(src.status), string(t.Status), string(TaskPlanned)) {
		return nil, false
	}
	for i, s := range t.Steps {
		n := src.steps[i].status
		if !want(n, valueOf(n), string(s.Status), string(StepPending)) {
			return nil, false
		}
	}
	return edits, true
}

func valueOf(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	return n.Value
}

type scalarEdit struct {
	node  *yaml.Node
	value string
}

// splice replaces the text of each edited scalar in data, keeping the
// scalar's quoting. ok is false when a scalar's text is not where the
// node says or is not a simple one-line token; the caller then rewrites
// the tree instead.
func splice(data []byte, edits []scalarEdit) ([]byte, bool) {
	type span struct {
		start, end int
		text       string
	}
	starts := lineStarts(data)
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		n := e.node
		if n.Kind != yaml.ScalarNode || n.Line < 1 || n.Line > len(starts) || n.Column < 1 {
			return nil, false
		}
		off := starts[n.Line-1]
		for range n.Column - 1 {
			if off >= len(data) || data[off] == '\n' {
				return nil, false
			}
			_, w := utf8.DecodeRune(data[off:])
			off += w
		}
		var quote string
		switch n.Style {
		case 0:
		case yaml.DoubleQuotedStyle:
			quote = `"`
		case yaml.SingleQuotedStyle:
			quote = `'`
		default:
			return nil, false
		}
		tok := quote + n.Value + quote
		if !bytes.HasPrefix(data[off:], []byte(tok)) {
			return nil, false
		}
		end := off + len(tok)
		// A plain word ends at a space, a line end, or (in a flow
		// mapping or list) a comma or bracket.
		if quote == "" && end < len(data) && !bytes.ContainsRune([]byte(" \t\r\n,}]"), rune(data[end])) {
			return nil, false
		}
		spans = append(spans, span{off, end, quote + e.value + quote})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var out bytes.Buffer
	out.Grow(len(data) + 16*len(spans))
	at := 0
	for _, s := range spans {
		if s.start < at {
			return nil, false
		}
		out.Write(data[at:s.start])
		out.WriteString(s.text)
		at = s.end
	}
	out.Write(data[at:])
	return out.Bytes(), true
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// reencode sets the statuses in a copy of the node tree, adding missing
// keys after goal (task) or done (step), and writes the tree out.
func (t *Task) reencode() ([]byte, error) {
	src := t.src
	var doc yaml.Node
	if err := yaml.Unmarshal(src.data, &doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	setStatus(root, "goal", string(t.Status), string(TaskPlanned))
	steps := mappingValue(root, "steps")
	for i, s := range t.Steps {
		setStatus(steps.Content[i], "done", string(s.Status), string(StepPending))
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// setStatus sets m's status value to word. A missing key is added, after
// the key named after, unless word is the default a missing key means.
func setStatus(m *yaml.Node, after, word, dflt string) {
	if v := mappingValue(m, "status"); v != nil {
		if v.Value != word {
			v.Kind, v.Tag, v.Style, v.Value = yaml.ScalarNode, "!!str", 0, word
		}
		return
	}
	if word == dflt {
		return
	}
	at := len(m.Content)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == after {
			at = i + 2
		}
	}
	kv := []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "status"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: word},
	}
	m.Content = slices.Insert(m.Content, at, kv...)
}

// sameTask tells whether data reads back as exactly t.
func sameTask(data []byte, t *Task) bool {
	got, err := Parse(t.fileName(), data)
	if err != nil {
		return false
	}
	return got.ID == t.ID && got.Name == t.Name && got.Goal == t.Goal &&
		got.Status == t.Status && slices.Equal(got.Steps, t.Steps)
}

func (t *Task) fileName() string {
	if t.Dir == "" {
		return TaskFile
	}
	return t.Dir + "/" + TaskFile
}

// newTaskFile writes a task that has no file yet in the layout agents are
// shown: a blank line before steps and between steps.
func newTaskFile(t *Task) ([]byte, error) {
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	pair := func(m *yaml.Node, k, v string) { m.Content = append(m.Content, str(k), str(v)) }
	root := &yaml.Node{Kind: yaml.MappingNode,
		HeadComment: "Planned with tally task new. Tally keeps the status fields from the agents' progress markers."}
	pair(root, "id", t.ID)
	pair(root, "name", t.Name)
	pair(root, "goal", t.Goal)
	pair(root, "status", string(t.Status))
	steps := &yaml.Node{Kind: yaml.SequenceNode}
	for _, s := range t.Steps {
		m := &yaml.Node{Kind: yaml.MappingNode}
		pair(m, "id", s.ID)
		pair(m, "name", s.Name)
		pair(m, "done", s.Done)
		pair(m, "status", string(s.Status))
		steps.Content = append(steps.Content, m)
	}
	root.Content = append(root.Content, str("steps"), steps)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	// steps is the last key, so from its line on, a line that starts
	// with "  - " begins a step: anything inside a step is indented more.
	// A blank line goes before steps and between steps.
	var out bytes.Buffer
	items := -1 // steps not reached yet
	for _, line := range bytes.SplitAfter(buf.Bytes(), []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("steps:")):
			items = 0
			out.WriteByte('\n')
		case items >= 0 && bytes.HasPrefix(line, []byte("  - ")):
			if items > 0 {
				out.WriteByte('\n')
			}
			items++
		}
		out.Write(line)
	}
	return out.Bytes(), nil
}
