// Package kilo reads Kilo Code's CLI (a fork of OpenCode): its SQLite
// database kilo.db in its data directory ($XDG_DATA_HOME/kilo, else
// ~/.local/share/kilo; $KILO_DB moves it), which keeps OpenCode's tables.
//
// What it promises:
//
//   - A session's list is its rows of the todo table, in position order:
//     todowrite replaces them whole (SessionTodo.update), so they are the
//     list as Kilo holds it now. The tables are read as OpenCode's are
//     (package opencodedb): the title, folder and times of a session,
//     whose turn it is from its newest message, a sub-agent's session as
//     a list of its root.
//   - The database is read only when it, or its write-ahead log, changes;
//     nothing else in the data directory is walked or watched.
//   - A row it cannot use is a diagnostic, never a failed read.
package kilo
