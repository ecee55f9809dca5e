package hermes

import (
	"path/filepath"
	"testing"
)

func TestAdapter_SkipDir_OnlySessionsIsWalked(t *testing.T) {
	a := New(Options{Home: "/h"})
	for dir, want := range map[string]bool{
		"/h/sessions": false, "/h/hermes-agent": true, "/h/hermes-agent/venv": true, "/h/logs": true,
	} {
		if got := a.SkipDir("/h", filepath.FromSlash(dir)); got != want {
			t.Errorf("SkipDir(%s) = %v, want %v", dir, got, want)
		}
	}
}
