// Package version says which build of Tally is running: what `tally
// --version` prints and what the MCP server tells clients it is. It is the
// one place the version is kept.
package version
