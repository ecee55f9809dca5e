package crush

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

// TestSessions_BadRows: a todos column cut short is reported with its
// table, session and what was wrong; that session still shows its title
// and the others their lists. A bad status word is no diagnostic: the
// fixture's "blocked" is kept as the item's raw status.
func TestSessions_BadRows(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	if _, err := w.Exec(`UPDATE sessions SET todos = '[{"content":"Explain make","sta' WHERE id = ?`, build); err != nil {
		t.Fatal(err)
	}
	all, diags := readDB(t, path)
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics, want 1: %v", len(diags), diags)
	}
	d := diags[0]
	for _, s := range []string{`sessions "` + build + `"`, "todos is not a JSON list of todos", "no list"} {
		if !strings.Contains(d.Msg, s) {
			t.Errorf("diagnostic %q does not say %q", d.Msg, s)
		}
	}
	if d.Path != path || d.Offset != 0 {
		t.Errorf("diagnostic at %s:%d, want %s:0", d.Path, d.Offset, path)
	}
	bad := fold(build, all[build])
	if bad.Lists[""] != nil || bad.Title == "" {
		t.Errorf("damaged session: lists %v title %q", bad.Lists, bad.Title)
	}
	if got := list(fold(flaky, all[flaky]), ""); len(got) != 4 || got[3].RawStatus != "blocked" {
		t.Errorf("a sound session lost its list: %+v", got)
	}
}

// TestSessions_ManyBadRows: a database damaged throughout lists a bounded
// number of rows, says how many there were in all, and still reads.
func TestSessions_ManyBadRows(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	const n = 250
	for i := range n {
		if _, err := w.Exec(`INSERT INTO sessions (id, title, todos, created_at, updated_at) VALUES (?, 't', '{not json', 1, 1)`, fmt.Sprintf("bad%03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	all, diags := readDB(t, path)
	if len(all) != n+2 {
		t.Errorf("%d sessions, want %d", len(all), n+2)
	}
	if len(diags) != agentdb.MaxDiagnostics+1 {
		t.Fatalf("%d diagnostics, want %d listed and one summary", len(diags), agentdb.MaxDiagnostics)
	}
	last := diags[len(diags)-1].Msg
	if want := fmt.Sprintf("%d more rows could not be used (%d in all)", n-agentdb.MaxDiagnostics, n); !strings.Contains(last, want) {
		t.Errorf("summary %q does not say %q", last, want)
	}
	want := []tally.Item{todo("Reproduce the flake", "Reproducing the flake", tally.StatusCompleted, "")}
	if got := list(fold(flaky, all[flaky]), ""); len(got) == 0 || !reflect.DeepEqual(got[:1], want) {
		t.Errorf("sound session: %+v", got)
	}
}

// TestSessions_TextThatIsNotUTF8KeepsTheList: a bad byte in one todo is
// read with U+FFFD in its place, and the repair is counted; the list of
// four stays a list of four.
func TestSessions_TextThatIsNotUTF8KeepsTheList(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	if _, err := w.Exec(`UPDATE sessions SET todos = replace(todos, 'Reproduce', CAST(X'52FF70726F64756365' AS TEXT)) WHERE id = ?`, flaky); err != nil {
		t.Fatal(err)
	}
	all, _ := readDB(t, path)
	st := fold(flaky, all[flaky])
	items := list(st, "")
	if len(items) != 4 || items[0].Title != "R\uFFFDproduce the flake" {
		t.Fatalf("list = %+v", items)
	}
	if st.Stats.Repaired == 0 {
		t.Error("the repair was not counted")
	}
}
