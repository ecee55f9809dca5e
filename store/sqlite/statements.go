package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strings"
)

//go:embed sql/*.sql
var queryFS embed.FS

// statements are prepared once per Store: writes on the single write
// connection, reads on the read pool (database/sql prepares them again on
// each pooled connection as needed).
type statements struct {
	upsertFile, upsertSession, deleteFile, deleteSession         *sql.Stmt
	files, sessions, sessionsAgent, sessionByID, sessionByPrefix *sql.Stmt
	changed, fileByPath, changeMark                              *sql.Stmt
	all                                                          []*sql.Stmt
}

// prepareWrites prepares the write statements, on the first write: a
// process that only reads never connects for writing.
func (st *statements) prepareWrites(ctx context.Context, w *sql.DB) error {
	return st.prepare(ctx, []stmt{
		{w, "upsert_file", &st.upsertFile},
		{w, "upsert_session", &st.upsertSession},
		{w, "delete_file", &st.deleteFile},
		{w, "delete_session", &st.deleteSession},
	})
}

func (st *statements) prepareReads(ctx context.Context, r *sql.DB) error {
	return st.prepare(ctx, []stmt{
		{r, "files", &st.files},
		{r, "sessions", &st.sessions},
		{r, "sessions_agent", &st.sessionsAgent},
		{r, "session_by_id", &st.sessionByID},
		{r, "session_by_prefix", &st.sessionByPrefix},
		{r, "changed", &st.changed},
		{r, "file_by_path", &st.fileByPath},
		{r, "change_mark", &st.changeMark},
	})
}

type stmt struct {
	db   *sql.DB
	name string
	dst  **sql.Stmt
}

func (st *statements) prepare(ctx context.Context, stmts []stmt) error {
	for _, p := range stmts {
		text, err := queryFS.ReadFile("sql/" + p.name + ".sql")
		if err != nil {
			return err
		}
		// The driver caches a prepared statement only when nothing, not even
		// a newline, follows it; otherwise it parses the SQL on every call.
		query := strings.TrimSuffix(strings.TrimSpace(string(text)), ";")
		stmt, err := p.db.PrepareContext(ctx, query)
		if err != nil {
			return fmt.Errorf("prepare %s.sql: %w", p.name, err)
		}
		*p.dst = stmt
		st.all = append(st.all, stmt)
	}
	return nil
}

func (st *statements) close() error {
	var errs []error
	for _, s := range st.all {
		errs = append(errs, s.Close())
	}
	st.all = nil
	return errors.Join(errs...)
}
