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
//     its permissions.
//
// Plan is pure apart from reading the files; Apply writes. Each agent is a
// Target.
package setup
