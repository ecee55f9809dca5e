package adapter_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tallyhq/tally/adapter"
)

func TestBelow_partsOfAPathBelowRootAndFalseOutsideIt(t *testing.T) {
	for _, c := range []struct {
		root, path string
		want       []string
		ok         bool
	}{
		{"/r", "/r/a", []string{"a"}, true},
		{"/r", "/r/a/b/c.jsonl", []string{"a", "b", "c.jsonl"}, true},
		{"/r/", "/r//a/./b/", []string{"a", "b"}, true},
		{"/r", "/r", []string{"."}, true},
		{"/r", "/r/a/..", []string{"."}, true},
		{"/r", "/r/..a", []string{"..a"}, true},
		{"/", "/a/b", []string{"a", "b"}, true},
		{"/r", "/", nil, false},
		{"/r", "/s/a", nil, false},
		{"/r/a", "/r", nil, false},
		{"/r", "/r/../r2/a", nil, false},
		{"/r", "a", nil, false}, // filepath.Rel fails: one absolute, one not
	} {
		got, ok := adapter.Below(filepath.FromSlash(c.root), filepath.FromSlash(c.path))
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Below(%q, %q) = %q, %v; want %q, %v", c.root, c.path, got, ok, c.want, c.ok)
		}
	}
}
