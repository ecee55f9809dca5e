package tally

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxClockSkew is how far past the reader's clock a time may be and still
// be taken as written: the clocks of one machine, or of a VM beside it,
// differ by less. A later time is the time the line was read instead, or a
// session would look active until that time came (a year 9999, for ever).
const MaxClockSkew = time.Minute

// RepairNotUTF8 is the repair note of text that was not valid UTF-8,
// whether the fold repaired it or an adapter's parser did (Event.Repair).
const RepairNotUTF8 = "text that is not UTF-8 kept, with U+FFFD for the bad bytes"

// maxRepairNotes bounds the kinds of repair noted for one line.
const maxRepairNotes = 4

// repair makes an event fit to fold instead of dropping it: text that is
// not valid UTF-8 keeps its good bytes, the bad ones becoming U+FFFD, and
// a time past the reader's clock (and MaxClockSkew) becomes the time of
// reading. A list of four with one bad byte is still a list of four. Each
// repair is counted in Stats.Repaired and noted for TakeRepairs, as is
// what an adapter says it had to repair (Event.Repair).
func (f *FileState) repair(ev *Event) {
	if ev.Repair != "" {
		f.noteRepair(ev.Repair)
	}
	if !ev.At.IsZero() {
		if now := f.now(); ev.At.After(now.Add(MaxClockSkew)) {
			f.noteRepair(fmt.Sprintf("time %s is later than when it was read; %s taken instead",
				ev.At.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339)))
			ev.At = now
		}
	}
	if !validEvent(ev) {
		fixEvent(ev)
		f.noteRepair(RepairNotUTF8)
	}
}

func (f *FileState) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *FileState) noteRepair(msg string) {
	f.Stats.Repaired++
	for _, m := range f.repairs {
		if m == msg {
			return
		}
	}
	if len(f.repairs) < maxRepairNotes {
		f.repairs = append(f.repairs, msg)
	}
}

// TakeRepairs returns what Apply repaired since the last call, as one
// diagnostic of the line at offset off, and forgets it. A reader calls it
// after each line (or document, or database) it folds.
func (f *FileState) TakeRepairs(off int64) (Diagnostic, bool) {
	if len(f.repairs) == 0 {
		return Diagnostic{}, false
	}
	d := Diagnostic{Path: f.Path, Offset: off, Msg: "repaired: " + strings.Join(f.repairs, "; ")}
	f.repairs = f.repairs[:0]
	return d, true
}

func validEvent(ev *Event) bool {
	ok := utf8.ValidString(ev.List) && utf8.ValidString(ev.ToolUseID) && validItems(ev.Items)
	p := &ev.Patch
	ok = ok && utf8.ValidString(p.ID) && utf8.ValidString(p.RawStatus) && validPtr(p.Subject) &&
		validPtr(p.Description) && validPtr(p.ActiveForm) && validPtr(p.Owner) &&
		validAll(p.AddBlocks) && validAll(p.AddBlockedBy)
	m := &ev.Meta
	ok = ok && utf8.ValidString(m.SessionID) && utf8.ValidString(m.Project) && utf8.ValidString(m.Title)
	k := &ev.Marker
	return ok && utf8.ValidString(k.Task) && utf8.ValidString(k.Step) && utf8.ValidString(k.Verb) && utf8.ValidString(k.Reason) && utf8.ValidString(k.Line)
}

func validItems(items []Item) bool {
	for i := range items {
		it := &items[i]
		if !utf8.ValidString(it.ID) || !utf8.ValidString(it.Title) || !utf8.ValidString(it.ActiveForm) ||
			!utf8.ValidString(it.Description) || !utf8.ValidString(it.RawStatus) || !utf8.ValidString(it.Priority) ||
			!utf8.ValidString(it.Owner) || !validAll(it.Blocks) || !validAll(it.BlockedBy) {
			return false
		}
	}
	return true
}

func validPtr(s *string) bool { return s == nil || utf8.ValidString(*s) }

func validAll(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// fixEvent replaces invalid UTF-8 in every text of ev. Slices and pointers
// are copied, not written through: they may be the adapter's own.
func fixEvent(ev *Event) {
	ev.List, ev.ToolUseID = fix(ev.List), fix(ev.ToolUseID)
	if ev.Items != nil {
		items := make([]Item, len(ev.Items))
		for i, it := range ev.Items {
			it.ID, it.Title, it.ActiveForm, it.Description = fix(it.ID), fix(it.Title), fix(it.ActiveForm), fix(it.Description)
			it.RawStatus, it.Priority, it.Owner = fix(it.RawStatus), fix(it.Priority), fix(it.Owner)
			it.Blocks, it.BlockedBy = fixAll(it.Blocks), fixAll(it.BlockedBy)
			items[i] = it
		}
		ev.Items = items
	}
	p := &ev.Patch
	p.ID, p.RawStatus = fix(p.ID), fix(p.RawStatus)
	p.Subject, p.Description, p.ActiveForm, p.Owner = fixPtr(p.Subject), fixPtr(p.Description), fixPtr(p.ActiveForm), fixPtr(p.Owner)
	p.AddBlocks, p.AddBlockedBy = fixAll(p.AddBlocks), fixAll(p.AddBlockedBy)
	m := &ev.Meta
	m.SessionID, m.Project, m.Title = fix(m.SessionID), fix(m.Project), fix(m.Title)
	k := &ev.Marker
	k.Task, k.Step, k.Verb, k.Reason, k.Line = fix(k.Task), fix(k.Step), fix(k.Verb), fix(k.Reason), fix(k.Line)
}

func fix(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

func fixPtr(s *string) *string {
	if s == nil {
		return nil
	}
	v := fix(*s)
	return &v
}

func fixAll(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fix(s)
	}
	return out
}
