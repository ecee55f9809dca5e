package agentdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

var testAgent = DB{Name: "Testagent", Pkg: "testagent"}

// TestAgent_Read reads a database whose path holds the characters SQLite
// URIs give a meaning to, and finds the columns of its table.
func TestAgent_Read(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a#b?c%20d.db")
	w, err := sql.Open("sqlite", "file:"+strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Exec(`CREATE TABLE t (a TEXT, b INTEGER); INSERT INTO t VALUES ('x', 7)`); err != nil {
		t.Fatal(err)
	}
	var a string
	var b, missing int64
	err = testAgent.Read(context.Background(), path, func(ctx context.Context, tx *sql.Tx) error {
		cols, err := Columns(ctx, tx, "t")
		if err != nil {
			return err
		}
		if none, err := Columns(ctx, tx, "nope"); err != nil || len(none) != 0 {
			return fmt.Errorf("columns of a missing table: %v, %v", none, err)
		}
		q := "SELECT " + Text(cols, "a") + ", " + Integer(cols, "b") + ", " + Integer(cols, "c") + " FROM t"
		return tx.QueryRowContext(ctx, q).Scan(&a, &b, &missing)
	})
	if err != nil {
		t.Fatal(err)
	}
	if a != "x" || b != 7 || missing != 0 {
		t.Errorf("read %q %d %d, want x 7 0 (a column the schema lacks reads as zero)", a, b, missing)
	}
}

func TestAgent_Read_Errors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not a database, but long enough for SQLite to look at its header"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := testAgent.Read(context.Background(), junk, func(ctx context.Context, tx *sql.Tx) error {
		_, err := Columns(ctx, tx, "t")
		return err
	})
	if tally.ErrorCode(err) != tally.CodeInvalid || !strings.Contains(err.Error(), "not a readable SQLite database") || !strings.Contains(err.Error(), junk) {
		t.Errorf("junk file: %v, want invalid naming the file", err)
	}

	missing := filepath.Join(dir, "missing.db")
	noop := func(context.Context, *sql.Tx) error { return nil }
	if err := testAgent.Read(context.Background(), missing, noop); err == nil || !strings.Contains(err.Error(), "testagent.ReadDatabase") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a read-only open created the database")
	}

	own := tally.Errorf(tally.CodeInvalid, "testagent.ReadDatabase", "no column t.a")
	if err := testAgent.Read(context.Background(), junk, func(context.Context, *sql.Tx) error { return own }); !errors.Is(err, own) || err.Error() != own.Error() {
		t.Errorf("an adapter's own error came back as %v", err)
	}
}

func TestDiags(t *testing.T) {
	d := Diags{Path: "/x/state.db"}
	if got := d.List(); len(got) != 0 {
		t.Fatalf("no rows: %v", got)
	}
	d.Add(17, "messages", "row 17 (session s)", "tool_calls is not JSON")
	want := tally.Diagnostic{Path: "/x/state.db", Offset: 17, Msg: "messages row 17 (session s): tool_calls is not JSON"}
	if got := d.List(); len(got) != 1 || got[0] != want {
		t.Errorf("one row: %v, want %v", got, want)
	}
	for i := range 2 * MaxDiagnostics {
		d.Add(int64(i), "todo", "x", "bad")
	}
	got := d.List()
	if d.Len() != 2*MaxDiagnostics+1 || len(got) != MaxDiagnostics+1 {
		t.Fatalf("Len %d, %d listed", d.Len(), len(got))
	}
	if last := got[MaxDiagnostics].Msg; !strings.Contains(last, fmt.Sprintf("%d more rows could not be used (%d in all)", MaxDiagnostics+1, 2*MaxDiagnostics+1)) {
		t.Errorf("summary = %q", last)
	}
	d.Add(0, "todo", "y", "bad")
	if again := d.List(); len(again) != MaxDiagnostics+1 || !strings.Contains(again[MaxDiagnostics].Msg, "in all") {
		t.Errorf("a second List after more rows: %d listed", len(again))
	}
}
