// Command docgen writes Tally's man pages and shell completion scripts,
// generated from its command tree, for the release archives and packages
// (GoReleaser runs it before building) or for a tally installed from a
// clone:
//
//	go run ./internal/docgen [-date 2026-01-02T15:04:05Z] [-version v1.2.0] DIR
//
// makes DIR/man/tally.1.gz and one page per command (tally-scan.1.gz, …),
// and DIR/completions/tally.bash, _tally (zsh), tally.fish and tally.ps1.
// The pages are dated -date (RFC 3339; a release passes its commit's;
// the zero time counts as none), else $SOURCE_DATE_EPOCH, else today; they are gzipped without a name or
// time in the header, so the same tree gives the same bytes.
package main
