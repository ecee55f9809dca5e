package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page is plain ES modules served as they are, each small enough to
// read in one sitting: one job a file, none over 400 lines.
func TestStatic_modulesStaySmall(t *testing.T) {
	files, err := filepath.Glob("static/*.js")
	if err != nil || len(files) < 2 {
		t.Fatalf("static modules: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > 400 {
			t.Errorf("%s has %d lines: split it by job", f, n)
		}
	}
}
