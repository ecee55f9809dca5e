package plan

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Scope is scope.yaml: how many tasks the plan had when it was made
// (Original, set once) and how many it has now (Current). Tally keeps it;
// the history of how it changed is in the ledger.
type Scope struct {
	Original int `json:"original"`
	Current  int `json:"current"`
}

// scopeSource is scope.yaml as read, so a rewrite keeps the user's
// comments.
type scopeSource struct {
	data              []byte
	original, current *yaml.Node
}

// parseScope reads scope.yaml, collecting every problem.
func parseScope(path string, data []byte) (Scope, *scopeSource, error) {
	p := &problems{path: path}
	if len(data) > MaxFileSize {
		p.add(0, "the file has %d bytes, more than the %d a plan file may have", len(data), MaxFileSize)
		return Scope{}, nil, p.list
	}
	doc, ok := parseYAML(p, data)
	if !ok {
		return Scope{}, nil, p.list
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.add(root.Line, "scope.yaml is a mapping of original and current")
		return Scope{}, nil, p.list
	}
	f := fieldsOf(p, root)
	src := &scopeSource{data: data, original: f.value("original"), current: f.value("current")}
	count := func(key string) int {
		v := f.value(key)
		if v == nil {
			p.add(root.Line, "missing %s", key)
			return 0
		}
		n, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
			p.add(v.Line, "%s must be a count of tasks, not %q", key, v.Value)
		}
		return n
	}
	s := Scope{Original: count("original"), Current: count("current")}
	if len(p.list) > 0 {
		return Scope{}, nil, p.list.sorted()
	}
	return s, src, nil
}

const scopeHeader = "# Kept by Tally: original is how many tasks the plan had when it was made,\n" +
	"# current how many it has now. The ledger says how it changed.\n"

// render writes s, keeping the rest of the file it was read from.
func (s Scope) render(src *scopeSource) []byte {
	if src != nil && src.original != nil && src.current != nil {
		out, ok := splice(src.data, []scalarEdit{
			{src.original, strconv.Itoa(s.Original)},
			{src.current, strconv.Itoa(s.Current)},
		})
		if ok {
			if got, _, err := parseScope(ScopeFile, out); err == nil && got == s {
				return out
			}
		}
	}
	return fmt.Appendf(nil, "%soriginal: %d\ncurrent: %d\n", scopeHeader, s.Original, s.Current)
}
