package hook

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tallyhq/tally"
)

// Bounds on what an answer names, so a huge list cannot flood the model's
// context: the first maxItems unfinished items of each list, each title cut
// to maxTitle characters.
const (
	maxItems = 30
	maxTitle = 200
)

var nudgeText = fmt.Sprintf("You have completed %d or more items of your list and none of them verifies the work. "+
	"Before you finish, add an item to verify it (run the tests, the linter or a smoke check) and do it.", tally.VerificationMin)

// resumeText gives a model whose context was compacted or resumed its
// unfinished items, and only those: "" when nothing is unfinished.
func resumeText(src Source, lists []List) string {
	var b strings.Builder
	done := 0
	working := false
	for i := range lists {
		l := &lists[i]
		for _, it := range l.Items {
			if it.Status == tally.StatusCompleted {
				done++
			}
		}
		open := unfinished(l)
		for _, o := range open {
			working = working || o.view.Status == tally.StatusInProgress && !o.view.Blocked
		}
		writeList(&b, l, open)
	}
	if b.Len() == 0 {
		return ""
	}
	when := "before the context was compacted"
	if src == SourceResume {
		when = "when this session last ran"
	}
	left := ""
	if done > 0 {
		left = fmt.Sprintf(" (%d completed left out)", done)
	}
	next := "Go on with the item in progress, and keep the lists current as you work."
	if !working {
		next = "No item is in progress: start the next one you can (mark it in progress), and keep the lists current as you work."
	}
	return "Your lists as they stood " + when + ", unfinished items only" + left + ":\n" + b.String() + next
}

// stopText is the reason a stop is refused.
func stopText(left []open) string {
	var b strings.Builder
	b.WriteString("Your lists still have unfinished items that nothing blocks:\n")
	writeItems(&b, left)
	b.WriteString("Work on them before you stop. If one is done, mark it completed; if it is no longer needed, " +
		"take it off the list; if you need the user's answer to go on, ask for it.")
	return b.String()
}

// reminderText reminds of the unfinished items of lists that went turns
// without an update; "" if none is unfinished.
func reminderText(lists []List, turns int) string {
	var b strings.Builder
	for i := range lists {
		writeList(&b, &lists[i], unfinished(&lists[i]))
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("Reminder: your lists have not changed for %d turns and still have unfinished items:\n", turns) +
		b.String() + "If you have finished any, mark them completed; if your plan changed, update the list."
}

func writeList(b *strings.Builder, l *List, items []open) {
	if len(items) == 0 {
		return
	}
	if l.Kind == ListTally {
		fmt.Fprintf(b, "Tally task list %q (Tally's MCP task tools):\n", l.Name)
	} else {
		b.WriteString("Your own list:\n")
	}
	writeItems(b, items)
}

func writeItems(b *strings.Builder, items []open) {
	for i, o := range items {
		if i == maxItems {
			fmt.Fprintf(b, "- … and %d more\n", len(items)-maxItems)
			break
		}
		b.WriteString("- ")
		if o.view.ID != "" && o.view.Source == tally.SourceTask || o.list.Kind == ListTally {
			b.WriteString("#" + o.view.ID + " ")
		}
		b.WriteString("[" + statusWord(o.view) + "] " + cut(o.view.Title))
		if len(o.blockers) > 0 {
			b.WriteString(" (waits on " + cut(strings.Join(o.blockers, ", ")) + ")")
		}
		b.WriteByte('\n')
	}
}

func statusWord(v tally.ItemView) string {
	switch {
	case v.Blocked:
		return "blocked"
	case v.Status == tally.StatusInProgress:
		return "in progress"
	}
	return v.StatusWord()
}

func cut(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxTitle {
		return s
	}
	r := []rune(s)
	return string(r[:maxTitle-1]) + "…"
}
