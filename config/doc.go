// Package config reads Tally's settings file, config.toml, and says where
// every effective setting came from.
//
// What it promises:
//
//   - Every setting has a default in Default, so a missing file, an empty
//     file and a file that names only one key all give a complete Config.
//     A default that a package uses itself (detection's thresholds, the
//     hooks' limits, the notifier's windows and events, the plan folder) is
//     that package's constant, which Default takes: each is written once. The file is found at
//     $XDG_CONFIG_HOME/tally/config.toml, else ~/.config/tally/config.toml
//     (DefaultPath); a caller may name another.
//   - Settings come in three layers, later ones winning: the default, the
//     file, a command-line flag (Set, AddWebhook). Source tells, per key,
//     which layer gave the value, and Write prints the effective settings as
//     TOML with that source beside each key.
//   - Nothing in the file is ignored silently. A key Tally does not know is
//     an error naming the file, line and column; a value of the wrong type is
//     an error naming the key and what it wants ("detect.loop_repeats: want a
//     whole number, not a string"); a value out of range is an error naming
//     the key. A file over MaxFileSize is refused, not read.
//   - Secrets stay on screen only when asked: a webhook URL carries its
//     token, so Write shows only its scheme and host unless told to reveal.
//
// The package knows the shape and syntax of settings, not what other
// packages do with them: event and format names are checked where they are
// used (package notify parses them; the hook and plan commands read their
// sections).
package config
