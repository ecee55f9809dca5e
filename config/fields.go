package config

import (
	"encoding"
	"reflect"
	"strings"
)

// setting is one field of a settings struct, as the file names it.
type setting struct {
	key   string
	index int
	// section: a table of further settings ([detect]), not a value.
	section bool
	// secret: shown redacted unless revealed.
	secret bool
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// settings lists the fields of a settings struct in declaration order, the
// order Write prints them in.
func settings(t reflect.Type) []setting {
	var out []setting
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if !f.IsExported() || key == "" || key == "-" {
			continue
		}
		out = append(out, setting{
			key: key, index: i,
			section: f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(textUnmarshaler),
			secret:  f.Tag.Get("secret") == "true",
		})
	}
	return out
}

// lookup finds the field a dotted key names, walking into sections and into
// the element type of a list of tables.
func lookup(t reflect.Type, key []string) (reflect.Type, bool) {
	for _, k := range key {
		for t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil, false
		}
		found := false
		for _, s := range settings(t) {
			if s.key == k {
				t, found = t.Field(s.index).Type, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return t, true
}

// describeKey says in words what value the key wants, "" if the key is not
// a setting.
func describeKey(root reflect.Type, key []string) string {
	t, ok := lookup(root, key)
	if !ok {
		return ""
	}
	return describe(t)
}

func describe(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[Duration]():
		return `a duration such as "5m"`
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Int:
		return "a whole number"
	case t.Kind() == reflect.String:
		return "a quoted string"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return `a list of strings such as ["a", "b"]`
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return "a list of tables"
	case t.Kind() == reflect.Struct:
		return "a table"
	}
	return t.String()
}
