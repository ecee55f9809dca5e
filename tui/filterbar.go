package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// filterBar is the bottom line: the filter being typed after `/`, or the
// keys to press, or the last thing an action said.
type filterBar struct {
	editing bool
	text    string
	// note replaces the hints until the next key (an approval's result).
	note string
}

// key edits the filter text; done reports that editing ended (Enter keeps
// the text, Esc drops it).
func (f *filterBar) key(k tea.KeyPressMsg) (done bool) {
	switch k.String() {
	case "enter":
		f.editing = false
		return true
	case "esc":
		f.editing, f.text = false, ""
		return true
	case "backspace":
		if r := []rune(f.text); len(r) > 0 {
			f.text = string(r[:len(r)-1])
		}
	case "ctrl+u":
		f.text = ""
	case "space":
		f.text += " "
	default:
		if k.Text != "" && k.Mod&^tea.ModShift == 0 {
			f.text += k.Text
		}
	}
	return false
}

var listHints = []string{"/ filter", "a agent", "p project", "s sort", "⏎ open", "T tasks", "? help", "q quit"}
var detailHints = []string{"esc back", "T tasks", "j/k scroll", "? help", "q quit"}

func (f *filterBar) line(p *palette, w int, hints []string) string {
	switch {
	case f.editing:
		return cut(render(p.title, "/")+oneLine(f.text)+render(p.faint, "▏")+render(p.faint, "  ⏎ keep · esc clear"), w)
	case f.note != "":
		return cut(f.note, w)
	}
	return render(p.faint, cut(strings.Join(hints, " · "), w))
}
