// Package agentdb is what the adapters of agents that keep their sessions
// in SQLite (Hermes, OpenCode, Crush) share: opening the agent's live
// database read-only without blocking its writer, finding the columns a
// schema version has, saying in words a user can act on why a database
// could not be read, and collecting the rows a read could not use.
//
// It promises three things to every such adapter alike. Tally never writes
// to another program's database (mode=ro). A read is one transaction, so
// it sees one commit of the agent's, never half of one. A bad row never
// fails the read: it becomes a tally.Diagnostic naming its table and row,
// at most MaxDiagnostics of them per read, with one more saying how many
// were left unlisted.
//
// The package knows no agent's schema; what the rows mean stays in each
// adapter.
package agentdb
