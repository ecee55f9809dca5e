package tally_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every package says what it promises in a doc.go, and only there: a
// package comment in another file would be a second, drifting copy.
func TestEveryPackageDocumentsItselfInDocGo(t *testing.T) {
	dirs := map[string][]string{} // directory → its non-test Go files
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for dir, files := range dirs {
		hasDoc := false
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			isDoc := filepath.Base(path) == "doc.go"
			switch {
			case isDoc && f.Doc == nil:
				t.Errorf("%s has no package comment", path)
			case isDoc:
				hasDoc = true
			case f.Doc != nil:
				t.Errorf("%s carries a package comment; it belongs in %s", path, filepath.Join(dir, "doc.go"))
			}
		}
		if !hasDoc {
			t.Errorf("package %s has no doc.go saying what it promises", dir)
		}
	}
}
