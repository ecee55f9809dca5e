package postgres

import (
	"embed"
	"strings"
)

//go:embed sql/*.sql
var queryFS embed.FS

// q holds every query, read once from sql/. pgx prepares each on first use
// on a connection and keeps it prepared there.
var q = struct {
	migrateLock, migrationsTable, migrationsExist, schemaVersion, migrationDone string

	takeMarks, changeMark, notify                                  string
	deleteFiles, deleteSessions, upsertFiles, upsertSessions       string
	files, fileByPath, records, recordsAgent, recordByID, byPrefix string
	changed                                                        string

	taskClaim, taskLock, taskPut, taskGet, taskAll, archivePut, archiveList string
}{
	migrateLock:     query("migrate_lock"),
	migrationsTable: query("migrations_table"),
	migrationsExist: query("migrations_exist"),
	schemaVersion:   query("schema_version"),
	migrationDone:   query("migration_done"),

	takeMarks:  query("take_marks"),
	changeMark: query("change_mark"),
	notify:     query("notify"),

	deleteFiles:    query("delete_files"),
	deleteSessions: query("delete_sessions"),
	upsertFiles:    query("upsert_files"),
	upsertSessions: query("upsert_sessions"),

	files:        query("files"),
	fileByPath:   query("file_by_path"),
	records:      query("records"),
	recordsAgent: query("records_agent"),
	recordByID:   query("record_by_id"),
	byPrefix:     query("record_by_prefix"),
	changed:      query("changed"),

	taskClaim:   query("task_list_claim"),
	taskLock:    query("task_list_lock"),
	taskPut:     query("task_list_put"),
	taskGet:     query("task_list_get"),
	taskAll:     query("task_list_all"),
	archivePut:  query("task_archive_put"),
	archiveList: query("task_archive_list"),
}

func query(name string) string {
	text, err := queryFS.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic(err) // the embedded files are part of the build
	}
	return strings.TrimSpace(string(text))
}
