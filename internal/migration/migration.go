package migration

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one file: its number, name and SQL.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Load reads dir's *.sql files in order. They must be numbered 1, 2, 3, …
// with no gap and no number twice.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", name)
		}
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: base, SQL: string(text)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: expected number %d (numbers run 1, 2, 3, … without gaps)", m.Name, i+1)
		}
	}
	return ms, nil
}

// MustLoad is Load for files embedded in the binary, which are part of
// the build: a mistake there is a bug, and panics.
func MustLoad(fsys fs.FS, dir string) []Migration {
	ms, err := Load(fsys, dir)
	if err != nil {
		panic(err)
	}
	return ms
}
