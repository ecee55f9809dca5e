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

	takeMarks, changeMark, notify                                   string
	deleteFiles, deleteSessions, upsertFiles, upsertSessions        string
	files, fileByPath, recordByID, byPrefix, changed                string
	ingestSessions                                                  string
	needsInputOf, needsInputPut, needsInputDelete, needsInputExists string
	sessionFiles                                                    string
	hookClaim, hookLock, hookPut, hookPrune                         string
	streamLock, streamPut                                           string
	tokenAdd, tokens, tokenByID, tokenMatch, tokenDelete            string

	taskClaim, taskLock, taskPut, taskGet, taskAll, archivePut, archiveList string

	markerPut, markerPending, markerSettle, markerSession string

	requestPut, requestGet, requestLock, requestUpdate, requestsOfSession, requestsOf, requestsPrune string
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

	files:      query("files"),
	fileByPath: query("file_by_path"),
	recordByID: query("record_by_id"),
	byPrefix:   query("record_by_prefix"),
	changed:    query("changed"),

	ingestSessions:   query("ingest_sessions"),
	needsInputOf:     query("needs_input_of"),
	needsInputPut:    query("needs_input_put"),
	needsInputDelete: query("needs_input_delete"),
	needsInputExists: query("needs_input_exists"),
	sessionFiles:     query("files_of_session"),
	hookClaim:        query("hook_state_claim"),
	hookLock:         query("hook_state_lock"),
	hookPut:          query("hook_state_put"),
	hookPrune:        query("hook_state_prune"),
	streamLock:       query("push_stream_lock"),
	streamPut:        query("push_stream_put"),
	tokenAdd:         query("token_add"),
	tokens:           query("tokens"),
	tokenByID:        query("token_by_id"),
	tokenMatch:       query("token_match"),
	tokenDelete:      query("token_delete"),

	taskClaim:   query("task_list_claim"),
	taskLock:    query("task_list_lock"),
	taskPut:     query("task_list_put"),
	taskGet:     query("task_list_get"),
	taskAll:     query("task_list_all"),
	archivePut:  query("task_archive_put"),
	archiveList: query("task_archive_list"),

	markerPut:     query("marker_put"),
	markerPending: query("marker_pending"),
	markerSettle:  query("marker_settle"),
	markerSession: query("marker_session"),

	requestPut:        query("request_put"),
	requestGet:        query("request_get"),
	requestLock:       query("request_lock"),
	requestUpdate:     query("request_update"),
	requestsOfSession: query("requests_of_session"),
	requestsOf:        query("requests_of"),
	requestsPrune:     query("requests_prune"),
}

func query(name string) string {
	text, err := queryFS.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic(err) // the embedded files are part of the build
	}
	return strings.TrimSpace(string(text))
}
