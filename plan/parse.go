package plan

import (
	"errors"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize bounds a task.yaml or scope.yaml: a plan file is a page,
// and a bigger one is read as a problem rather than into memory.
const MaxFileSize = 1 << 20

// source is a task file as read: its bytes and node tree, and where the
// status values are, so that Tally can change a status and keep every
// other byte the user wrote.
type source struct {
	data   []byte
	doc    *yaml.Node
	root   *yaml.Node // the task's mapping
	status *yaml.Node // the task's status value; nil when the key is absent
	steps  []stepSource
}

type stepSource struct {
	mapping *yaml.Node
	status  *yaml.Node // nil when the key is absent
}

// Parse reads a task file. path only names the file in problems. It
// returns every problem the file has, as Problems, and no task if there
// is any; it never panics, whatever data holds.
func Parse(path string, data []byte) (*Task, error) {
	p := &problems{path: path}
	t := parse(p, data)
	if len(p.list) > 0 {
		return nil, p.list.sorted()
	}
	return t, nil
}

func parse(p *problems, data []byte) *Task {
	if len(data) > MaxFileSize {
		p.add(0, "the file has %d bytes, more than the %d a plan file may have", len(data), MaxFileSize)
		return nil
	}
	doc, ok := parseYAML(p, data)
	if !ok {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.add(root.Line, "a task file is a mapping of id, name, goal, status and steps")
		return nil
	}
	src := &source{data: data, doc: doc, root: root}
	t := &Task{src: src}
	f := fieldsOf(p, root)
	t.ID = f.text(p, "id")
	if v := f.value("id"); t.ID != "" && !taskIDPattern.MatchString(t.ID) {
		p.add(v.Line, "task id %q must be T<three digits>, like T001", t.ID)
	}
	t.Name = f.text(p, "name")
	t.Goal = f.text(p, "goal")
	t.Status = TaskPlanned
	if v := f.value("status"); v != nil {
		src.status = v
		if w, ok := statusWord(p, v, "task status"); ok {
			if s, ok := ParseTaskStatus(w); ok {
				t.Status = s
			} else {
				p.add(v.Line, "task status %q must be planned, active or complete", w)
			}
		}
	}
	steps := f.value("steps")
	switch {
	case steps == nil:
		p.add(root.Line, "missing steps: a task has %d to %d", MinSteps, MaxSteps)
	case steps.Kind != yaml.SequenceNode:
		p.add(steps.Line, "steps must be a list of %d to %d steps", MinSteps, MaxSteps)
	default:
		if n := len(steps.Content); n < MinSteps || n > MaxSteps {
			p.add(steps.Line, "a task has %d to %d steps, this one has %d", MinSteps, MaxSteps, n)
		}
		first := map[string]int{}
		for _, item := range steps.Content {
			s, ss := parseStep(p, item)
			if s.ID != "" {
				if at, dup := first[s.ID]; dup {
					p.add(item.Line, "duplicate step id %q (first at line %d)", s.ID, at)
				} else {
					first[s.ID] = item.Line
				}
			}
			t.Steps = append(t.Steps, s)
			src.steps = append(src.steps, ss)
		}
	}
	return t
}

func parseStep(p *problems, item *yaml.Node) (Step, stepSource) {
	s := Step{Status: StepPending}
	if item.Kind != yaml.MappingNode {
		p.add(item.Line, "a step is a mapping of id, name, done and status")
		return s, stepSource{}
	}
	f := fieldsOf(p, item)
	s.ID = f.text(p, "id")
	if v := f.value("id"); s.ID != "" && !stepIDPattern.MatchString(s.ID) {
		p.add(v.Line, "step id %q must be S<number>, like S1", s.ID)
	}
	s.Name = f.text(p, "name")
	s.Done = f.text(p, "done")
	ss := stepSource{mapping: item, status: f.value("status")}
	if v := ss.status; v != nil {
		if w, ok := statusWord(p, v, "step status"); ok {
			if st, ok := ParseStepStatus(w); ok {
				s.Status = st
			} else {
				p.add(v.Line, "step status %q must be pending, in_progress or complete", w)
			}
		}
	}
	return s, ss
}

// parseYAML reads data into a node tree holding one document.
func parseYAML(p *problems, data []byte) (doc *yaml.Node, ok bool) {
	defer func() {
		// The YAML library is outside input's first reader; should it
		// panic on some input, that input is a problem, not a crash.
		if r := recover(); r != nil {
			p.add(0, "the YAML reader failed on this file: %v", r)
			doc, ok = nil, false
		}
	}()
	doc = new(yaml.Node)
	if err := yaml.Unmarshal(data, doc); err != nil {
		line, msg := yamlError(err)
		p.add(line, "%s", msg)
		return nil, false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		p.add(0, "the file is empty")
		return nil, false
	}
	return doc, true
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError splits the YAML library's "yaml: line 3: message".
func yamlError(err error) (int, string) {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = "yaml: " + te.Errors[0]
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, "not valid YAML: " + m[2]
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return 0, "not valid YAML: " + msg
}

// fields is a mapping node's values by key.
type fields struct {
	of   *yaml.Node
	vals map[string]*yaml.Node
}

func fieldsOf(p *problems, m *yaml.Node) fields {
	f := fields{of: m, vals: make(map[string]*yaml.Node, len(m.Content)/2)}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.add(k.Line, "keys must be plain words")
			continue
		}
		if _, dup := f.vals[k.Value]; dup {
			p.add(k.Line, "duplicate key %q", k.Value)
			continue
		}
		f.vals[k.Value] = v
	}
	return f
}

func (f fields) value(key string) *yaml.Node { return f.vals[key] }

// text reads a required one-value field: any scalar but null.
func (f fields) text(p *problems, key string) string {
	v := f.vals[key]
	switch {
	case v == nil:
		p.add(f.of.Line, "missing %s", key)
	case v.Kind != yaml.ScalarNode:
		p.add(v.Line, "%s must be text, not a %s", key, kindName(v.Kind))
	case v.Tag == "!!null" || v.Value == "":
		p.add(v.Line, "%s is empty", key)
	default:
		return v.Value
	}
	return ""
}

// statusWord reads a status value, which must be a word, not a list or
// nothing.
func statusWord(p *problems, v *yaml.Node, what string) (string, bool) {
	switch {
	case v.Kind != yaml.ScalarNode:
		p.add(v.Line, "%s must be a word, not a %s", what, kindName(v.Kind))
	case v.Tag == "!!null" || v.Value == "":
		p.add(v.Line, "%s is empty", what)
	default:
		return v.Value, true
	}
	return "", false
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "value"
}
