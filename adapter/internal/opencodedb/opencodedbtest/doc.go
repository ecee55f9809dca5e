// Package opencodedbtest checks a real capture of an agent that keeps
// OpenCode's tables (OpenCode's opencode.db, Kilo Code's kilo.db, both read
// through package opencodedb) against the agent's own record: the list
// Tally shows is the session's rows of the todo table, read with the
// test's own SQL, and what the capture's last todowrite returned. One copy
// for every such adapter, as the reader it checks is one.
package opencodedbtest
