package tui

// helpKeys is every key the dashboard answers, as help shows it.
var helpKeys = [][2]string{
	{"j k ↑ ↓", "move through the sessions (scroll, in a session)"},
	{"PgUp PgDn g G", "a page up or down; first, last"},
	{"/", "filter as you type: agent, project, title, step or id"},
	{"a", "cycle through the agents (of the project chosen with p)"},
	{"p", "cycle through the projects (of the agent chosen with a)"},
	{"s", "sort: active first, most recent, by project"},
	{"Enter / click", "open the session"},
	{"T / click [T]", "expand or collapse the Task Panel"},
	{"Tab / Shift-Tab", "choose a task of the expanded panel"},
	{"Enter / click a task", "show it in full (a plan's task: its steps)"},
	{"Esc", "collapse the panel; back; clear the filter"},
	{"A  y Y n", "approve a plan; allow, always, deny what the agent asks"},
	{"?", "this help"},
	{"q / Ctrl-C", "quit"},
}

var helpIcons = "✓ done  ◼ in progress  ◻ pending  ▸ blocked  ✗ cancelled or failed  ? unknown status"

// helpLines draws the help screen in w columns.
func helpLines(p *palette, w int) []string {
	out := []string{render(p.title, "Keys"), ""}
	keyW := 0
	for _, k := range helpKeys {
		keyW = max(keyW, width(k[0]))
	}
	for _, k := range helpKeys {
		out = append(out, cut("  "+render(p.bold, fit(k[0], keyW))+"  "+k[1], w))
	}
	out = append(out, "", render(p.title, "Marks"), "", cut("  "+helpIcons, w), "",
		cut(render(p.faint, "Activity: working, needs input (the agent waits for you), idle (silent 2 min), ended (silent 30 min or closed)."), w),
		cut(render(p.faint, "Press ? or Esc to go back."), w))
	return out
}
