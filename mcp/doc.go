// Package mcp is Tally's MCP server: durable task tools any agent can call
// — TaskCreate, TaskUpdate, TaskList and TaskGet with Claude Code's Tasks
// V2 shapes, todo_write (TodoWrite / write_todos / Hermes todo) and
// update_plan (Codex) — over stdio (`tally mcp`) and streamable HTTP
// (NewHTTPHandler, mounted at /mcp by `tally serve`).
//
// What it promises:
//
//   - The rules are those of package tasks, applied in one store transaction per
//     tool call: at most one task in progress per list, no start with open
//     blockers, plan mode refusing execution, owners that cannot take a
//     task another owner has in progress, the verification nudge, a fresh
//     list once everything is done. Several processes may share a list;
//     the store serialises them, and a call either lands whole or not at
//     all.
//   - Every change is durable when the answer is sent, and shows live in
//     tally watch, tally sessions and the dashboard as the session
//     "tally:LIST" of agent tally.
//   - A bad call is answered with a tool error that says what was wrong
//     and what would be right (valid statuses, live ids, the task in the
//     way); empty or missing arguments are an empty object, never an
//     error.
//   - On stdio, a line that is not a JSON-RPC 2.0 message (not JSON, not
//     UTF-8, a batch, a bad id, over MaxFrame bytes) is answered with a
//     JSON-RPC error and skipped; the session goes on. Requests read
//     before the input closes are answered before ServeStdio returns.
//
// It is the edge between those rules and a model: it parses each tool's
// words (its status vocabulary, "deleted", numeric ids) into the typed
// values tasks takes, words tasks' typed refusals for a model with what to
// call instead (words.go), and shapes the answers as Claude Code's and
// Hermes' own tools do (output.go).
//
// It never shells out: the tools call the store the CLI uses. The SDK is
// the official Go SDK; tool handlers are raw (Server.AddTool) so that
// argument errors are worded for a model, and the input schemas are the
// hand-written JSON in schemas/, matching what agents already know. Its
// stdio transport ends a session at the first line it cannot decode, so
// stdio goes through a transport of Tally's own (stdio.go) that checks
// each line before the SDK sees it.
package mcp
