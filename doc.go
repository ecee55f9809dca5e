// Package tally is the domain of Tally: the progress model every agent's todo
// list is folded into, the events adapters emit, the fold that turns events
// into state, and the small contracts (Adapter, Decoder) the rest of the
// program is built on.
//
// It imports only the standard library. Everything that touches bytes on
// disk, a database or a screen lives in a subpackage that imports this one.
//
// Derived facts — "blocked", "3 of 5", the current step, a session's
// activity — are computed from state on demand and never stored, so they
// can never disagree with the items they are derived from.
//
// The JSON form shared by every surface (CLI --json, watch, web, MCP) is the
// Session type below; see SessionJSON.md beside this file for the schema.
package tally
