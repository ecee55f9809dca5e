package migration

import (
	"testing"
	"testing/fstest"
)

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		ok    bool
	}{
		{"in order", []string{"001_a.sql", "002_b.sql", "003_c.sql"}, true},
		{"gap", []string{"001_a.sql", "003_c.sql"}, false},
		{"not numbered", []string{"001_a.sql", "init.sql"}, false},
		{"duplicate number", []string{"001_a.sql", "001_b.sql"}, false},
		{"zero", []string{"000_a.sql"}, false},
	} {
		fsys := fstest.MapFS{}
		for _, f := range tc.files {
			fsys["migrations/"+f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
		}
		ms, err := Load(fsys, "migrations")
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if tc.ok && (len(ms) != len(tc.files) || ms[0].Name != tc.files[0] || ms[0].Version != 1 || ms[0].SQL != "SELECT 1;") {
			t.Errorf("%s: loaded %+v", tc.name, ms)
		}
	}
}
