package crush

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNew_everyProjectInCrushsProjectsJSONIsRead: Crush lists the projects
// it ran in (projects.json in its global data directory, since v0.25.0);
// each listed data directory is a root of its own, read for its crush.db
// only, under the project the index names — unless a walked root holds it
// already. An entry whose data directory is not absolute is left out.
func TestNew_everyProjectInCrushsProjectsJSONIsRead(t *testing.T) {
	db, _ := buildDB(t, "built-crush.sql")
	data := filepath.Dir(db)
	walked := t.TempDir()
	global := t.TempDir()
	index := `{"projects": [
	  {"path": "/srv/api", "data_dir": "` + data + `", "last_accessed": "2026-11-26T16:30:00Z"},
	  {"path": "/srv/api", "data_dir": "` + data + `/", "last_accessed": "2026-11-26T16:29:00Z"},
	  {"path": "rel", "data_dir": "rel/.crush", "last_accessed": "2026-11-26T16:28:00Z"},
	  {"path": "` + walked + `/web", "data_dir": "` + walked + `/web/.crush", "last_accessed": "2026-11-26T16:27:00Z"}
	]}`
	if err := os.WriteFile(filepath.Join(global, projectsFile), []byte(index), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Roots: []string{walked}, GlobalDir: global})
	if got, want := a.Roots(), []string{walked, data}; !reflect.DeepEqual(got, want) {
		t.Fatalf("roots %v, want %v", got, want)
	}
	if !a.SkipDir(data, filepath.Join(data, "logs")) {
		t.Error("a data directory projects.json named is walked")
	}
	if a.SkipDir(walked, filepath.Join(walked, "web")) {
		t.Error("a walked root's projects are skipped")
	}
	if _, ok := a.Match(data, db); !ok {
		t.Error("the listed project's crush.db is not matched")
	}
	all, _, err := a.ReadDatabase(context.Background(), db)
	if err != nil || len(all) == 0 {
		t.Fatalf("%d sessions, %v", len(all), err)
	}
	for id, evs := range all {
		if st := fold(id, evs); st.Project != "/srv/api" {
			t.Errorf("session %s: project %q, want the one projects.json names", id, st.Project)
		}
	}
	if got := New(Options{Roots: []string{walked}}).Roots(); !reflect.DeepEqual(got, []string{walked}) {
		t.Errorf("no global directory: roots %v", got)
	}
}

// TestNew_aProjectsJSONThatIsNotCrushsNamesNoProject: a projects.json that
// is not JSON, too large, or not a regular file adds no root.
func TestNew_aProjectsJSONThatIsNotCrushsNamesNoProject(t *testing.T) {
	for name, write := range map[string]func(p string) error{
		"not JSON": func(p string) error { return os.WriteFile(p, []byte(`{"projects": [`), 0o600) },
		"too large": func(p string) error {
			return os.WriteFile(p, []byte(`{"projects":[]}`+strings.Repeat(" ", maxProjectsFile)), 0o600)
		},
		"a folder": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		global := t.TempDir()
		if err := write(filepath.Join(global, projectsFile)); err != nil {
			t.Fatal(err)
		}
		if got := New(Options{GlobalDir: global}).Roots(); len(got) != 0 {
			t.Errorf("%s: roots %v", name, got)
		}
	}
}

// FuzzProjects: whatever projects.json holds, the roots it gives are
// absolute and clean, each once, and no more than maxProjects.
func FuzzProjects(f *testing.F) {
	f.Add([]byte(`{"projects":[{"path":"/p","data_dir":"/p/.crush","last_accessed":"2026-11-26T16:30:00Z"}]}`))
	f.Add([]byte(`{"projects":[{"data_dir":"../x"},{"data_dir":7}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		global := t.TempDir()
		if err := os.WriteFile(filepath.Join(global, projectsFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		got := readProjects(global)
		if len(got) > maxProjects {
			t.Fatalf("%d projects", len(got))
		}
		seen := map[string]bool{}
		for _, p := range got {
			if !filepath.IsAbs(p.dataDir) || filepath.Clean(p.dataDir) != p.dataDir || seen[p.dataDir] {
				t.Fatalf("root %q", p.dataDir)
			}
			seen[p.dataDir] = true
		}
	})
}
