// Package agentdbtest builds agents' SQLite databases from the SQL scripts
// in an adapter's testdata and reads them the way the indexer does, so the
// tests of the database adapters (Hermes, OpenCode, Crush) check what a
// user would see rather than repeat this plumbing each.
package agentdbtest
