package plan

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rules draw nothing: no file of this package imports a terminal
// package; the views are planview's.
func TestPackage_drawsNothing(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(path, "/termstyle") || strings.Contains(path, "charmbracelet") || strings.Contains(path, "lipgloss") {
				t.Errorf("%s imports %s: views belong in planview", name, path)
			}
		}
	}
}
