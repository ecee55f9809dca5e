// Package redact hides the credentials of a URL wherever Tally prints one:
// in a message, a log line, an error an HTTP client sees, the settings as
// `tally config` shows them. There is one rule, so no surface shows what
// another hides.
//
// A URL is shown by where it goes and nothing else: its scheme, host and
// port. Its user and password, its query (PostgreSQL takes password=,
// sslpassword=, sslkey= there; webhooks take tokens) and its fragment
// become "…". Its path becomes "…" too — Slack, Discord and Telegram put
// a webhook's token in the path — except in a database URL, whose path is
// only the database's name. Text that is not a URL is shown as "…": it
// may hold a secret anywhere.
package redact
