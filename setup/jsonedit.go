package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is a JSON settings file being edited with its layout kept: its
// comments (where the agent allows them), key order and indentation. New
// values are written in the file's own indentation.
type jsonDoc struct {
	root hujson.Value
	// unit is one level of the file's indentation.
	unit string
}

// parseJSON reads a settings file the way its agent does: plain JSON, or
// with comments allowed (and nothing else: no trailing commas). A missing
// or empty file is an empty object. Errors name the file and line.
func parseJSON(path string, data []byte, comments bool, agent string) (*jsonDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	plain := data
	if comments {
		plain = stripComments(data)
	}
	var probe any
	if err := json.Unmarshal(plain, &probe); err != nil {
		return nil, jsonError(path, data, err, comments, agent)
	}
	if _, ok := probe.(map[string]any); !ok {
		return nil, fmt.Errorf("%s: the file holds JSON that is not an object; %s expects an object. Nothing was changed", path, agent)
	}
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v. Nothing was changed", path, err)
	}
	return &jsonDoc{root: root, unit: indentUnit(root)}, nil
}

func jsonError(path string, data []byte, err error, comments bool, agent string) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %v. Nothing was changed", path, err)
	}
	off := min(int(se.Offset), len(data))
	if off > 0 {
		off-- // the offset is just past the byte that failed
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	hint := ""
	if !comments && off < len(data)-1 && data[off] == '/' && (data[off+1] == '/' || data[off+1] == '*') {
		hint = fmt.Sprintf(" (%s reads this file as plain JSON: it allows no comments)", agent)
	}
	return fmt.Errorf("%s line %d: %v%s. Fix the file and run tally setup again; nothing was changed", path, line, se, hint)
}

// stripComments blanks // and /* */ comments outside strings, keeping
// every newline, so offsets and lines stay those of the file.
func stripComments(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out
}

// indentUnit is the indentation of the root object's first member, or two
// spaces (what Claude Code, Codex and Gemini CLI write).
func indentUnit(root hujson.Value) string {
	if obj, ok := root.Value.(*hujson.Object); ok && len(obj.Members) > 0 {
		ws := string(obj.Members[0].Name.BeforeExtra)
		if i := strings.LastIndexByte(ws, '\n'); i >= 0 && strings.Trim(ws[i+1:], " \t") == "" && ws[i+1:] != "" {
			return ws[i+1:]
		}
	}
	return "  "
}

// bytes is the edited file.
func (d *jsonDoc) bytes() []byte {
	b := d.root.Pack()
	if !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	return b
}

func (d *jsonDoc) object() *hujson.Object { return d.root.Value.(*hujson.Object) }

func (d *jsonDoc) indent(depth int) string { return strings.Repeat(d.unit, depth) }

// member finds name in obj.
func member(obj *hujson.Object, name string) (int, *hujson.Value) {
	for i := range obj.Members {
		var n string
		if json.Unmarshal(obj.Members[i].Name.Value.(hujson.Literal), &n) == nil && n == name {
			return i, &obj.Members[i].Value
		}
	}
	return -1, nil
}

// child returns the object member name of obj (at depth), adding an empty
// one if there is none. A member of another kind is an error: it is the
// user's, and not Tally's to replace.
func (d *jsonDoc) child(obj *hujson.Object, depth int, name, path string) (*hujson.Object, error) {
	if _, v := member(obj, name); v != nil {
		o, ok := v.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not an object; fix it by hand and run tally setup again. Nothing was changed", path, name)
		}
		return o, nil
	}
	d.set(obj, depth, name, map[string]any{})
	_, v := member(obj, name)
	return v.Value.(*hujson.Object), nil
}

// array returns the array member name of obj, adding an empty one if
// there is none.
func (d *jsonDoc) array(obj *hujson.Object, depth int, name, path string) (*hujson.Array, error) {
	if _, v := member(obj, name); v != nil {
		a, ok := v.Value.(*hujson.Array)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not an array; fix it by hand and run tally setup again. Nothing was changed", path, name)
		}
		return a, nil
	}
	d.set(obj, depth, name, []any{})
	_, v := member(obj, name)
	return v.Value.(*hujson.Array), nil
}

// value lays out val as the file would: nested lines indented under a
// member at depth+1.
func (d *jsonDoc) value(val any, depth int) hujson.Value {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(d.indent(depth+1), d.unit)
	if err := enc.Encode(val); err != nil {
		panic(err) // setup's own values: maps, slices, strings, numbers
	}
	v, err := hujson.Parse(bytes.TrimSpace(buf.Bytes()))
	if err != nil {
		panic(err)
	}
	return v
}

// set gives obj (an object at depth) the member name = val: in place if
// it exists, else appended on a line of its own.
func (d *jsonDoc) set(obj *hujson.Object, depth int, name string, val any) {
	v := d.value(val, depth)
	if _, old := member(obj, name); old != nil {
		v.BeforeExtra, v.AfterExtra = old.BeforeExtra, old.AfterExtra
		*old = v
		return
	}
	v.BeforeExtra = hujson.Extra(" ")
	d.opening(&obj.AfterExtra, len(obj.Members) == 0, depth)
	obj.Members = append(obj.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: hujson.Extra("\n" + d.indent(depth+1)), Value: hujson.String(name)},
		Value: v,
	})
}

// push appends val to arr (an array at depth): on a line of its own, or
// on the same line when the array is written on one line.
func (d *jsonDoc) push(arr *hujson.Array, depth int, val any) {
	if len(arr.Elements) > 0 && !bytes.Contains(arr.Elements[0].BeforeExtra, []byte("\n")) {
		b, err := json.Marshal(val)
		if err != nil {
			panic(err) // setup's own values
		}
		v, _ := hujson.Parse(b)
		v.BeforeExtra = hujson.Extra(" ")
		arr.Elements = append(arr.Elements, v)
		return
	}
	v := d.value(val, depth)
	v.BeforeExtra = hujson.Extra("\n" + d.indent(depth+1))
	d.opening(&arr.AfterExtra, len(arr.Elements) == 0, depth)
	arr.Elements = append(arr.Elements, v)
}

// opening makes the space before a composite's closing bracket a line
// break when the composite was empty.
func (d *jsonDoc) opening(after *hujson.Extra, empty bool, depth int) {
	if empty && !bytes.Contains(*after, []byte("\n")) {
		*after = hujson.Extra("\n" + d.indent(depth))
	}
}

// remove deletes member name of obj, if there is one.
func remove(obj *hujson.Object, name string) bool {
	i, _ := member(obj, name)
	if i < 0 {
		return false
	}
	obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
	if len(obj.Members) == 0 && len(bytes.TrimSpace(obj.AfterExtra)) == 0 {
		obj.AfterExtra = nil
	}
	return true
}

// decode reads v (comments and all) into out.
func decode(v hujson.Value, out any) error {
	c := v.Clone()
	c.Standardize()
	return json.Unmarshal(c.Pack(), out)
}
