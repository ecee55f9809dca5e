package adapter

import (
	"path/filepath"
	"strings"
)

// Below returns path's slash-separated parts below root ("a/b/c.jsonl" is
// [a b c.jsonl]), and false when path is not root or below it: filepath.Rel
// fails, or its answer climbs out of root (its first part is ".."). Root
// itself is ["."], as filepath.Rel says it, so a caller that checks the
// number of parts or their names treats it as it always did. The parts are
// never empty: filepath.Rel cleans its answer.
//
// It is what an adapter's Match and SkipDir read a path by. (Named Below,
// not Under: a Place's Under is the folder a home is in.)
func Below(root, path string) ([]string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return nil, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if parts[0] == ".." {
		return nil, false
	}
	return parts, true
}
