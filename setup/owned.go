package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Owned records the entries of agents' settings that tally setup added,
// by settings file: uninstall removes those and no others. An entry setup
// found already there — the user's own CLAUDE_CODE_ENABLE_TODO_TOOLS, a
// permission the user granted — is not recorded, and stays. (Hooks and
// the MCP server are Tally's by what they run, and need no record.)
type Owned map[string]map[string]bool

// The entries Owned records.
const (
	ownAllow   = "permissions.allow " + tallyTools
	ownTodoEnv = "env." + todoToolsEnv
	ownTracker = "experimental.taskTracker"
)

// of is the record of one settings file, to change in place; with puts
// it in the record Plan returns.
func (o Owned) of(path string) map[string]bool {
	set := map[string]bool{}
	for k, v := range o[path] {
		set[k] = v
	}
	return set
}

// with is o with path's record set (a copy: o is the caller's).
func (o Owned) with(path string, set map[string]bool) Owned {
	out := Owned{}
	for k, v := range o {
		out[k] = v
	}
	out[path] = set
	return out
}

// LoadOwned reads the record kept at path; none yet is an empty record.
func LoadOwned(path string) (Owned, error) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && data == nil {
		return Owned{}, nil
	}
	if err != nil {
		return nil, err
	}
	var o Owned
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("%s: not the record of what tally setup added (%v); remove it, and remove by hand what setup added before", path, err)
	}
	if o == nil {
		o = Owned{}
	}
	return o, nil
}

// SaveOwned keeps the record at path, replacing it atomically; files
// whose record is empty are left out.
func SaveOwned(path string, o Owned) error {
	keep := Owned{}
	for file, set := range o {
		for entry, on := range set {
			if on {
				if keep[file] == nil {
					keep[file] = map[string]bool{}
				}
				keep[file][entry] = true
			}
		}
	}
	data, err := json.MarshalIndent(keep, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := writeTemp(dir, filepath.Base(path), append(data, '\n'), 0o600)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
