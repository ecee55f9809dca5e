package adapter_test

import (
	"reflect"
	"testing"

	"github.com/tallyhq/tally/adapter"
)

var sample = adapter.Descriptor{
	Agent: "sample",
	Homes: []adapter.Home{
		{What: "Sample's home", Flag: "sample-dir",
			From: []adapter.Place{{Var: "SAMPLE_HOME", Path: ".sample"}, {Under: adapter.UnderHome, Path: ".sample"}}},
		{Key: "db", What: "database", From: []adapter.Place{{Var: "SAMPLE_DB"}}},
		{Key: "config", From: []adapter.Place{{Flag: "sample-dir", Path: "c.json"}, {Under: adapter.UnderHome, Path: "c.json"}}},
		{Key: "projects", What: "projects", Flag: "sample-project", Every: true,
			From: []adapter.Place{{Under: adapter.UnderWork, Path: ".s"}, {Var: "SAMPLE_PROJECTS"}}},
		{Key: "runtime", From: []adapter.Place{{Var: "SAMPLE_RUNTIME"}, {Said: "the settings' runtime", Read: func(env adapter.Env) string {
			if env.Getenv != nil && env.Getenv("SAMPLE_HOME") == "/from-settings" {
				return "/runtime"
			}
			return ""
		}}, {Under: adapter.UnderHome, Path: ".sample"}}},
	},
}

// TestDescriptor_Dirs: a flag wins, then the places in order (each one
// set, for a home read in every place), a path joined below a variable's
// value; a repeatable home's relative paths are the working folder's.
func TestDescriptor_Dirs(t *testing.T) {
	env := func(vars map[string]string, home string) adapter.Env {
		return adapter.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Dir: "/w"}
	}
	for _, c := range []struct {
		name  string
		env   adapter.Env
		flags adapter.Flags
		want  adapter.Dirs
	}{
		{"defaults", env(nil, "/h"), nil, adapter.Dirs{"": {"/h/.sample"}, "config": {"/h/c.json"}, "projects": {"/w/.s"}, "runtime": {"/h/.sample"}}},
		{"variables", env(map[string]string{"SAMPLE_HOME": "/v", "SAMPLE_DB": "x.db", "SAMPLE_PROJECTS": "p"}, "/h"), nil,
			adapter.Dirs{"": {"/v/.sample"}, "db": {"x.db"}, "config": {"/h/c.json"}, "projects": {"/w/.s", "/w/p"}, "runtime": {"/h/.sample"}}},
		{"flags", env(map[string]string{"SAMPLE_HOME": "/v"}, "/h"), adapter.Flags{"sample-dir": {"/f"}, "sample-project": {"a", "/b"}},
			adapter.Dirs{"": {"/f"}, "config": {"/f/c.json"}, "projects": {"/w/a", "/b"}, "runtime": {"/h/.sample"}}},
		{"a place read from a setting", env(map[string]string{"SAMPLE_HOME": "/from-settings"}, "/h"), nil,
			adapter.Dirs{"": {"/from-settings/.sample"}, "config": {"/h/c.json"}, "projects": {"/w/.s"}, "runtime": {"/runtime"}}},
		{"no home", env(nil, ""), nil, adapter.Dirs{"projects": {"/w/.s"}}},
	} {
		if got := sample.Dirs(c.env, c.flags); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDescriptor_Usage: the help says the rule the data says, with the
// homes that have no flag of their own and something to say.
func TestDescriptor_Usage(t *testing.T) {
	if got, want := sample.Usage(sample.Homes[0]), "Sample's home (default $SAMPLE_HOME/.sample, else ~/.sample; database $SAMPLE_DB)"; got != want {
		t.Errorf("usage %q, want %q", got, want)
	}
	if got, want := sample.Usage(sample.Homes[3]), "projects (repeatable; default ./.s and $SAMPLE_PROJECTS; database $SAMPLE_DB)"; got != want {
		t.Errorf("usage %q, want %q", got, want)
	}
}
