package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/internal/redact"
	"github.com/tallyhq/tally/internal/safefile"
)

// MaxFileSize bounds the settings file: anything larger is not a settings
// file someone wrote by hand, and is refused rather than read.
const MaxFileSize = 1 << 20

// DefaultPath is where the settings file is looked for:
// $XDG_CONFIG_HOME/tally/config.toml when XDG_CONFIG_HOME is an absolute
// path (the XDG rule: a relative one is ignored), else
// ~/.config/tally/config.toml. Both directories come from the caller, which
// resolves the environment.
func DefaultPath(xdgConfigHome, home string) string {
	if xdgConfigHome != "" && filepath.IsAbs(xdgConfigHome) {
		return filepath.Join(xdgConfigHome, "tally", "config.toml")
	}
	return filepath.Join(home, ".config", "tally", "config.toml")
}

// Load reads the settings file at path over the defaults. A file that does
// not exist gives the defaults (Found reports false); one that cannot be
// read or is not valid is an error naming the file, and the key or line.
func Load(path string) (*Config, error) {
	c := Default()
	c.path = path
	f, err := safefile.OpenRegular(path) // a FIFO would freeze every command
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "config", Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "config", Err: err}
	}
	if len(data) > MaxFileSize {
		return nil, tally.Errorf(tally.CodeInvalid, "config", "%s: over %d bytes; not a settings file", path, MaxFileSize)
	}
	if err := c.parse(path, data); err != nil {
		return nil, err
	}
	c.found = true
	return c, nil
}

// Parse reads settings from data over the defaults; name is what errors
// call the input.
func Parse(name string, data []byte) (*Config, error) {
	c := Default()
	c.path = name
	if err := c.parse(name, data); err != nil {
		return nil, err
	}
	c.found = true
	return c, nil
}

func (c *Config) parse(name string, data []byte) error {
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	// The file replaces a list (notify.events) rather than adding to it;
	// decoding into the defaults would keep their tail.
	var file Config
	var present map[string]any
	if err := dec.Decode(&file); err != nil {
		// A duration written as a number fails inside the library without
		// the key; the file's own values say which key it was.
		if toml.Unmarshal(data, &present) == nil {
			if key, got := notText(reflect.TypeFor[Config](), present, nil); key != "" {
				return tally.Errorf(tally.CodeInvalid, "config", "%s: %s: want %s, not a TOML %s",
					name, key, describe(reflect.TypeFor[Duration]()), got)
			}
		}
		return decodeError(name, err)
	}
	if err := toml.Unmarshal(data, &present); err != nil {
		return decodeError(name, err)
	}
	c.overlay(reflect.ValueOf(&file).Elem(), reflect.ValueOf(c).Elem(), present, nil)
	return c.validate(name)
}

// overlay copies from src to dst each setting the file named, and records
// that it came from the file.
func (c *Config) overlay(src, dst reflect.Value, present map[string]any, prefix []string) {
	for _, f := range settings(dst.Type()) {
		v, ok := present[f.key]
		if !ok {
			continue
		}
		key := append(prefix[:len(prefix):len(prefix)], f.key)
		if f.section {
			if sub, ok := v.(map[string]any); ok {
				c.overlay(src.Field(f.index), dst.Field(f.index), sub, key)
			}
			continue
		}
		dst.Field(f.index).Set(src.Field(f.index))
		name := strings.Join(key, ".")
		c.sources[name] = SourceFile
		if isTables(dst.Field(f.index).Type()) {
			for i := range dst.Field(f.index).Len() {
				c.sources[entryKey(name, i)] = SourceFile
			}
		}
	}
}

// notText finds the first Duration setting whose value in the file is not
// a string, and the TOML type it has instead.
func notText(t reflect.Type, present map[string]any, prefix []string) (key, got string) {
	for _, s := range settings(t) {
		v, ok := present[s.key]
		if !ok {
			continue
		}
		ft := t.Field(s.index).Type
		name := join(prefix, s.key)
		switch {
		case s.section:
			if sub, ok := v.(map[string]any); ok {
				if key, got := notText(ft, sub, append(prefix[:len(prefix):len(prefix)], s.key)); key != "" {
					return key, got
				}
			}
		case isTables(ft):
			list, _ := v.([]any)
			for i, e := range list {
				if sub, ok := e.(map[string]any); ok {
					if key, got := notText(ft.Elem(), sub, []string{entryKey(name, i)}); key != "" {
						return key, got
					}
				}
			}
		case ft == reflect.TypeFor[Duration]():
			if _, ok := v.(string); !ok {
				return name, tomlType(v)
			}
		}
	}
	return "", ""
}

func tomlType(v any) string {
	switch v.(type) {
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "table"
	}
	return "date or time"
}

// validate checks what the types alone do not: ranges and URLs.
func (c *Config) validate(name string) error {
	bad := func(key, format string, args ...any) error {
		return tally.Errorf(tally.CodeInvalid, "config", "%s: %s: %s", name, key, fmt.Sprintf(format, args...))
	}
	d := c.Detect
	if d.LoopRepeats < 0 || d.LoopRepeats == 1 {
		return bad("detect.loop_repeats", "want 0 (off) or 2 or more, not %d", d.LoopRepeats)
	}
	if d.NoProgressCalls < 0 {
		return bad("detect.no_progress_calls", "want 0 (off) or more, not %d", d.NoProgressCalls)
	}
	if c.Hooks.RemindAfter < 0 {
		return bad("hooks.remind_after", "want 0 (off) or more, not %d", c.Hooks.RemindAfter)
	}
	if c.Hooks.StopBlocks < 1 {
		return bad("hooks.stop_blocks", "want 1 or more, not %d: a guard that never refuses is no guard (leave --guard-stop out instead)", c.Hooks.StopBlocks)
	}
	if c.Hooks.StopWindow.Duration <= 0 {
		return bad("hooks.stop_window", "want a duration above 0, not %s", c.Hooks.StopWindow)
	}
	if w := c.Hooks.ApprovalWait.Duration; w <= 0 || w > hook.MaxApprovalWait {
		return bad("hooks.approval_wait", "want a duration above 0 and at most %s (under the agent's own timeout of the hook), not %s", hook.MaxApprovalWait, c.Hooks.ApprovalWait)
	}
	if b := c.Notify.Board; b != "" {
		u, err := url.Parse(b)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return bad("notify.board", "want the board's http(s) address, with no user, query or fragment (it goes into every notification), not %q", b)
		}
	}
	if c.Notify.MaxPerMinute < 0 {
		return bad("notify.max_per_minute", "want 0 (no bound) or more, not %d", c.Notify.MaxPerMinute)
	}
	if err := checkFolder(c.Plans.Folder); err != nil {
		return bad("plans.folder", "%v", err)
	}
	for i, pp := range c.Plans.Projects {
		key := entryKey("plans.project", i)
		if !filepath.IsAbs(pp.Path) {
			return bad(key+".path", "want the project's absolute path, not %q", pp.Path)
		}
		if err := checkFolder(pp.Folder); err != nil {
			return bad(key+".folder", "%v", err)
		}
	}
	for i, w := range c.Notify.Webhooks {
		key := entryKey("notify.webhook", i)
		if err := checkURL(w.URL); err != nil {
			return bad(key+".url", "%v", err)
		}
		if w.MaxPerMinute < 0 {
			return bad(key+".max_per_minute", "want 0 (the [notify] bound) or more, not %d", w.MaxPerMinute)
		}
	}
	return nil
}

// checkFolder accepts a plan folder: a path inside the project, written
// with '/'.
func checkFolder(f string) error {
	clean := path.Clean(f)
	if f == "" || path.IsAbs(f) || filepath.IsAbs(f) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("want a folder inside the project, such as \"docs/por\", not %q", f)
	}
	return nil
}

// checkURL accepts an absolute http or https URL with a host.
func checkURL(raw string) error {
	if raw == "" {
		return errors.New("missing: every [[notify.webhook]] needs a url")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error quotes the whole URL, credentials and all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not a URL (%s): %v", redact.URL(raw), err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an http:// or https:// URL with a host, not %q", redact.URL(raw))
	}
	return nil
}

// typeMismatch matches the library's wording for a value of the wrong type,
// to say instead what the key wants.
var typeMismatch = regexp.MustCompile(`cannot decode TOML (\w+)`)

// decodeError turns the TOML library's errors into ones that name the file,
// the line and column, and the key.
func decodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		msgs := make([]string, 0, len(strict.Errors))
		for i := range strict.Errors {
			e := &strict.Errors[i]
			row, col := e.Position()
			msgs = append(msgs, fmt.Sprintf("%s:%d:%d: unknown key %s", name, row, col, strings.Join(e.Key(), ".")))
		}
		return tally.Errorf(tally.CodeInvalid, "config", "%s", strings.Join(msgs, "\n"))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		key := de.Key()
		msg := de.Error()
		msg = strings.TrimPrefix(msg, "toml: ")
		if m := typeMismatch.FindStringSubmatch(msg); m != nil {
			if want := describeKey(reflect.TypeFor[Config](), key); want != "" {
				msg = fmt.Sprintf("want %s, not a TOML %s", want, m[1])
			}
		}
		if len(key) == 0 {
			return tally.Errorf(tally.CodeInvalid, "config", "%s:%d:%d: %s", name, row, col, msg)
		}
		return tally.Errorf(tally.CodeInvalid, "config", "%s:%d:%d: %s: %s", name, row, col, strings.Join(key, "."), msg)
	}
	return tally.Errorf(tally.CodeInvalid, "config", "%s: %v", name, err)
}
