// Package termstyle is how Tally draws on a terminal: the colour of each
// agent, the icon and colour of each item's state, the colour of each
// activity, the SGR sequences that paint them, and the width-aware
// measuring and cutting every table and list needs. The command line
// (package cli), the piped-stream view (package follow) and the terminal UI
// all draw with it, so that an agent, a status or a stalled session looks
// the same on every surface.
//
// What it promises:
//
//   - Colours are data before they are escape codes: AgentColor,
//     Mark.Color and ActivityColor return ANSI colours (image/color values
//     from charmbracelet/x/ansi), which Lip Gloss takes as they are and
//     which Fg turns into an SGR style for plain output.
//   - A Painter that is off returns text unchanged, so a caller decides
//     once (a terminal, NO_COLOR unset, TERM not dumb) and draws the same
//     way either way.
//   - Width counts terminal cells (wide CJK and emoji take two, escape
//     sequences none); Truncate never returns more cells than asked, keeps
//     escape sequences whole and ends a cut text with an ellipsis. Both are
//     charmbracelet/x/ansi's, the library Lip Gloss measures with, so a
//     table and the terminal UI agree on every width.
package termstyle
