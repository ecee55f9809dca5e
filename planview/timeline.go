package planview

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tallyhq/tally/plan"
)

// RenderTimeline writes a plan's ledger entries (Folder.Entries) as a
// timeline, one line per entry in the order they were written: "[10:05]
// → T001 activated". A ledger that spans days gets a date line whenever
// the day changes. Unchanged-marker entries are bookkeeping and are left
// out.
func RenderTimeline(w io.Writer, ledger []plan.Entry, o ViewOptions) error {
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	b := &strings.Builder{}
	days := spansDays(ledger, loc)
	var day string
	for _, e := range ledger {
		text := TimelineText(e)
		if text == "" {
			continue
		}
		at := e.At.In(loc)
		if d := at.Format("Mon Jan 2, 2006"); days && d != day {
			if day != "" {
				b.WriteString("\n")
			}
			b.WriteString(d + "\n")
			day = d
		}
		fmt.Fprintf(b, "[%s] %s\n", at.Format("15:04"), text)
	}
	if b.Len() == 0 {
		b.WriteString("The ledger is empty: nothing has happened to this plan yet.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func spansDays(ledger []plan.Entry, loc *time.Location) bool {
	for i := 1; i < len(ledger); i++ {
		if ledger[i].At.In(loc).YearDay() != ledger[0].At.In(loc).YearDay() || ledger[i].At.Year() != ledger[0].At.Year() {
			return true
		}
	}
	return false
}

// TimelineText is one ledger entry as the timeline shows it, without its
// time: "✓ T001 complete (4/4)". It is empty for entries the timeline
// leaves out. Surfaces that show plan events (notifications, the board)
// use it so they all say the same thing.
func TimelineText(e plan.Entry) string {
	switch e.Type {
	case plan.EntryPlanCreated:
		return fmt.Sprintf("≡ Plan created: %s", plural(e.Total, "task"))
	case plan.EntryTaskActive:
		return fmt.Sprintf("%s %s activated", iconActive, e.Task)
	case plan.EntryTaskPaused:
		return fmt.Sprintf("‖ %s paused%s", e.Task, reasonSuffix(e.Reason))
	case plan.EntryStepStarted:
		return fmt.Sprintf("%s %s %s started", iconActive, e.Task, e.Step)
	case plan.EntryStepDone:
		return fmt.Sprintf("%s %s %s complete", iconComplete, e.Task, e.Step)
	case plan.EntryTaskDone:
		return fmt.Sprintf("%s %s complete (%d/%d)", iconComplete, e.Task, e.Done, e.Total)
	case plan.EntryAllDone:
		return fmt.Sprintf("%s All complete (%d/%d)", iconComplete, e.Done, e.Total)
	case plan.EntryStepBlocked:
		return fmt.Sprintf("%s %s %s blocked%s", iconBlocked, e.Task, e.Step, reasonSuffix(e.Reason))
	case plan.EntryTaskPromoted:
		return fmt.Sprintf("⚡ %s promoted from a quick task", e.Task)
	case plan.EntryScopeChange:
		return "⚡ Scope: " + scopeChangeText(e)
	case plan.EntryQuickTask:
		return fmt.Sprintf("⚡ Quick task: %q", e.Description)
	case plan.EntryRejected:
		return fmt.Sprintf("✗ Rejected %q: %s", e.Marker, e.Reason)
	case plan.EntryUnrecognised:
		return fmt.Sprintf("? Unrecognised %q: %s", e.Marker, e.Reason)
	case plan.EntrySkipped:
		return fmt.Sprintf("· Skipped %q: %s", e.Marker, e.Reason)
	case plan.EntryUnchanged:
		return ""
	}
	return fmt.Sprintf("· %s", e.Type)
}

// scopeChangeText: "+1 task (T006-mfa)", "-1 task (T004-profile)", or
// both ways "5 → 5 (+T006-mfa, -T004-profile)".
func scopeChangeText(e plan.Entry) string {
	switch {
	case len(e.Removed) == 0 && len(e.Added) > 0:
		return fmt.Sprintf("+%s (%s)", plural(len(e.Added), "task"), strings.Join(e.Added, ", "))
	case len(e.Added) == 0 && len(e.Removed) > 0:
		return fmt.Sprintf("-%s (%s)", plural(len(e.Removed), "task"), strings.Join(e.Removed, ", "))
	case len(e.Added) == 0:
		return fmt.Sprintf("%d → %d (%s)", e.From, e.To, e.Reason)
	}
	var parts []string
	for _, a := range e.Added {
		parts = append(parts, "+"+a)
	}
	for _, r := range e.Removed {
		parts = append(parts, "-"+r)
	}
	return fmt.Sprintf("%d → %d (%s)", e.From, e.To, strings.Join(parts, ", "))
}
