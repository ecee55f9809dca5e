// Package setup makes an agent report its progress to Tally and receive
// Tally's help, with no change to the agent: it registers `tally mcp` as
// the agent's MCP server and installs `tally hook` into the agent's hooks,
// by editing the agent's own user settings files.
//
// What it promises:
//   - It merges, never overwrites: everything in a file that is not
//     Tally's stays as it was — unknown keys, their order, comments where
//     the agent allows them, the file's indentation. Only Tally's entries
//     are added, replaced or (Uninstall) removed; an entry is Tally's when
//     it runs `tally hook AGENT` or is the MCP server named "tally" running
//     `tally mcp`.
//   - It is idempotent: a second run plans no change.
//   - A file it cannot read as the agent reads it (invalid JSON or TOML,
//     or comments in a file whose agent allows none) is left untouched and
//     reported with its path and line; so is the whole run: Plan fails
//     before anything is written.
//   - Apply backs up every file it changes (FILE.tally-backup-TIME) and
//     replaces it atomically (a temporary file renamed over it), keeping
//     its permissions. A settings file that is a link (a dotfiles
//     manager's) is written through it: its target is replaced and backed
//     up beside it, the link stays. A file the user made read-only is
//     refused, and only a regular file is read (never a FIFO).
//   - No one's change is lost: a file is written holding the agent's own
//     lock where it takes one (Claude Code's .claude.json.lock) and an
//     flock of its folder that setup runs take turns on, read again under
//     them, the edit made again on what it now holds, and compared once
//     more before the rename.
//   - Uninstall removes exactly what setup added: an entry that is not
//     Tally's by what it runs (CLAUDE_CODE_ENABLE_TODO_TOOLS, the
//     mcp__tally permission) is Tally's only if setup recorded adding it
//     (Owned); one the user had stays, with a note.
//
// Plan is pure apart from reading the files; Apply writes. Each agent's
// settings are a Target (Claude, Codex, Gemini), built over the folders the
// agent's descriptor resolves (package adapter): which agents tally setup
// takes is the agents that have one.
package setup
