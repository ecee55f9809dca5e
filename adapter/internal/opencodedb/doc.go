// Package opencodedb reads a database of OpenCode's schema (opencode.db,
// and the same tables in the databases of its forks, Kilo Code's kilo.db):
// the session, todo and message tables, read-only in one transaction
// (package agentdb). The todo table holds each session's current list
// only, so a session's list is one snapshot; a sub-agent's session is a
// list of its root session. It is shared so that a fork's adapter reads
// the tables as OpenCode's does, not a copy of it; where the database is
// (the data directory, the environment's override, a release channel's
// file) is placed by one rule too (PlaceDB).
package opencodedb
