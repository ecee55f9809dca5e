// Package projectname names the projects of a listing as a person tells
// them apart. Every surface — the command line's tables, the terminal UI
// and the web page — names projects with it, so one project reads the
// same everywhere.
//
// What it promises:
//
//   - The home directory of the user Tally runs as, and only that one,
//     shows as ~: a path under /home/someone-else stays as it is, and a
//     home outside /home (/Users/me, /var/lib/svc) is shortened all the
//     same. The home is the real one, resolved once by the caller.
//   - Projects that differ read differently: captures, checkouts and
//     worktrees often end in the same folder ("work", "app"), so a name
//     keeps as many of a path's last parts as no other listed path
//     shares, and the folder above the project's own when it fits.
//   - A name never takes more cells than asked; when the part that tells
//     projects apart must be cut, it is cut at its end, since a folder is
//     recognised by how its name begins, and DistinctWidth says how much
//     room keeps every name different.
//
// Names depend on the whole set of projects named: a project named alone
// may read shorter than among others. A name chosen among a set stays
// different from the others of any part of that set.
package projectname
