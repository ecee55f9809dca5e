// Command tally shows the live progress of coding agents' todo lists. It
// only wires: the commands are package cli, the store is store/sqlite or,
// given a postgres:// URL, store/postgres.
//
// What it promises:
//
//   - The exit status is cli.Main's, and so is every word printed.
//   - The heap is held to a soft limit (memoryLimit) unless GOMEMLIMIT
//     says otherwise, as Tally runs beside the agents all day.
package main
