package config

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/redact"
)

// Set gives the setting named by key the value a command-line flag
// carries, written as on a command line: "10m", "3", "true", a
// comma-separated list. It is checked like the file's values.
func (c *Config) Set(key, value string) error {
	parts := strings.Split(key, ".")
	v := reflect.ValueOf(c).Elem()
	for i, k := range parts {
		var found *setting
		for _, s := range settings(v.Type()) {
			if s.key == k {
				found = &s
				break
			}
		}
		if found == nil || found.section == (i == len(parts)-1) {
			return tally.Errorf(tally.CodeInvalid, "config", "%s: not a setting (see 'tally config')", key)
		}
		v = v.Field(found.index)
	}
	if err := setText(v, value); err != nil {
		return tally.Errorf(tally.CodeInvalid, "config", "%s: %v", key, err)
	}
	c.sources[key] = SourceFlag
	return c.validate("flag")
}

func setText(v reflect.Value, s string) error {
	if u, ok := v.Addr().Interface().(interface{ UnmarshalText([]byte) error }); ok {
		return u.UnmarshalText([]byte(s))
	}
	switch v.Kind() {
	case reflect.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want a whole number, not %q", s)
		}
		v.SetInt(int64(n))
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false, not %q", s)
		}
		v.SetBool(b)
	case reflect.String:
		v.SetString(s)
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String {
			return fmt.Errorf("cannot be set by a flag")
		}
		var list []string
		for w := range strings.SplitSeq(s, ",") {
			if w = strings.TrimSpace(w); w != "" {
				list = append(list, w)
			}
		}
		v.Set(reflect.ValueOf(list))
	default:
		return fmt.Errorf("cannot be set by a flag")
	}
	return nil
}

// AddWebhook adds the receiver a --notify-webhook flag names: a URL, or
// FORMAT=URL (slack=https://…) to choose the payload shape.
func (c *Config) AddWebhook(spec string) error {
	w := Webhook{URL: spec}
	if format, rest, ok := strings.Cut(spec, "="); ok && isWord(format) {
		w = Webhook{URL: rest, Format: format}
	}
	if err := checkURL(w.URL); err != nil {
		return tally.Errorf(tally.CodeInvalid, "config", "--notify-webhook: %v", err)
	}
	c.Notify.Webhooks = append(c.Notify.Webhooks, w)
	c.sources[entryKey("notify.webhook", len(c.Notify.Webhooks)-1)] = SourceFlag
	return nil
}

func isWord(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// entryKey names the i-th (from 0) entry of a list of tables as errors and
// sources do, counting from 1: notify.webhook[1].
func entryKey(key string, i int) string { return fmt.Sprintf("%s[%d]", key, i+1) }

// Write prints the effective settings as TOML, each value followed by the
// layer it came from. Webhook URLs are redacted to scheme and host unless
// reveal is set.
func (c *Config) Write(w io.Writer, reveal bool) error {
	p := &printer{c: c, reveal: reveal}
	fmt.Fprintf(&p.b, "# Tally's effective settings; beside each, where it came from.\n")
	switch {
	case c.path == "":
	case c.found:
		fmt.Fprintf(&p.b, "# file: %s\n", c.path)
	default:
		fmt.Fprintf(&p.b, "# file: %s (not found: defaults and flags only)\n", c.path)
	}
	p.section(reflect.ValueOf(c).Elem(), nil)
	_, err := io.WriteString(w, p.b.String())
	return err
}

type printer struct {
	c      *Config
	reveal bool
	b      strings.Builder
}

// section prints the values of v, then its tables: TOML wants a table's
// own keys before any sub-table.
func (p *printer) section(v reflect.Value, key []string) {
	var lines [][2]string
	var later []setting
	for _, s := range settings(v.Type()) {
		f := v.Field(s.index)
		if s.section || isTables(f.Type()) {
			later = append(later, s)
			continue
		}
		k := join(key, s.key)
		lines = append(lines, [2]string{s.key + " = " + p.value(f, s.secret), p.c.Source(k).String()})
	}
	if len(key) > 0 {
		fmt.Fprintf(&p.b, "\n[%s]\n", strings.Join(key, "."))
		if len(lines) == 0 && len(later) == 0 {
			p.b.WriteString("# no settings yet\n")
		}
	}
	writeAligned(&p.b, lines)
	for _, s := range later {
		f := v.Field(s.index)
		if s.section {
			p.section(f, append(key[:len(key):len(key)], s.key))
			continue
		}
		p.tables(f, join(key, s.key))
	}
}

// tables prints a list of tables, [[notify.webhook]], leaving out the
// fields an entry left empty.
func (p *printer) tables(v reflect.Value, key string) {
	for i := range v.Len() {
		e := v.Index(i)
		fmt.Fprintf(&p.b, "\n[[%s]] # %s\n", key, p.c.Source(entryKey(key, i)))
		var lines [][2]string
		for _, s := range settings(e.Type()) {
			if f := e.Field(s.index); !f.IsZero() {
				lines = append(lines, [2]string{s.key + " = " + p.value(f, s.secret), ""})
			}
		}
		writeAligned(&p.b, lines)
	}
}

func (p *printer) value(v reflect.Value, secret bool) string {
	x := v.Interface()
	if secret && !p.reveal {
		if s, ok := x.(string); ok {
			x = redact.URL(s)
		}
	}
	b, err := toml.Marshal(map[string]any{"v": x})
	if err != nil {
		return fmt.Sprintf("%q", fmt.Sprint(x))
	}
	return strings.TrimSpace(strings.TrimPrefix(string(b), "v = "))
}

// writeAligned puts the comments of short lines in one column; a long line
// (a list) keeps its comment close rather than pushing the column out.
func writeAligned(b *strings.Builder, lines [][2]string) {
	const longLine = 40
	width := 0
	for _, l := range lines {
		if len(l[0]) <= longLine {
			width = max(width, len(l[0]))
		}
	}
	for _, l := range lines {
		if l[1] == "" {
			fmt.Fprintf(b, "%s\n", l[0])
			continue
		}
		fmt.Fprintf(b, "%-*s # %s\n", width, l[0], l[1])
	}
}

func isTables(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct
}

func join(prefix []string, key string) string {
	if len(prefix) == 0 {
		return key
	}
	return strings.Join(prefix, ".") + "." + key
}
