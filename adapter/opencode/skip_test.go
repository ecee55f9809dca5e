package opencode

import "testing"

func TestAdapter_SkipDir_OnlyLegacyTodoAndSessionTreesAreWalked(t *testing.T) {
	a := New(Options{DataDir: "/d", DB: "/d/opencode.db"})
	for dir, want := range map[string]bool{
		"/d/storage": false, "/d/storage/todo": false, "/d/storage/session": false, "/d/storage/session/proj": false,
		"/d/snapshot": true, "/d/storage/message": true, "/d/storage/part": true, "/d/log": true,
		"/d/storage/todo/x": true, "/d/storage/session/proj/x": true,
	} {
		if got := a.SkipDir("/d", dir); got != want {
			t.Errorf("SkipDir(%s) = %v, want %v", dir, got, want)
		}
	}
}
