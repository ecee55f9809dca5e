package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
)

// key routes a key press: to the filter while one is typed, to help while
// it is open, else to the screen in view.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return tea.Quit
	}
	m.bar.note = ""
	if m.bar.editing {
		m.bar.key(k)
		m.roster.setFilter(Filter{Text: m.bar.text, Agent: m.roster.filter.Agent, Project: m.roster.filter.Project})
		return nil
	}
	if m.help {
		if s == "?" || s == "esc" || s == "q" {
			m.help = false
		}
		return nil
	}
	switch s {
	case "q":
		return tea.Quit
	case "?":
		m.help = true
	case "T", "t":
		m.expanded = !m.expanded
	case "tab":
		m.step(1)
	case "shift+tab":
		m.step(-1)
	case "A":
		return m.approve()
	case "y":
		return m.decide(tally.VerdictAllow)
	case "Y":
		return m.decide(tally.VerdictAlways)
	case "n":
		return m.decide(tally.VerdictDeny)
	default:
		if m.screen == screenDetail {
			m.detailKey(s)
		} else {
			m.listKey(s)
		}
	}
	return nil
}

func (m *Model) listKey(s string) {
	f := m.roster.filter
	switch s {
	case "j", "down":
		m.move(1)
	case "k", "up":
		m.move(-1)
	case "pgdown", "ctrl+f", "space":
		m.move(m.listRows())
	case "pgup", "ctrl+b":
		m.move(-m.listRows())
	case "g", "home":
		m.move(-len(m.roster.byID))
	case "G", "end":
		m.move(len(m.roster.byID))
	case "/":
		m.bar.editing = true
	case "a":
		f.Agent = next(m.roster.agents(), f.Agent)
	case "p":
		f.Project = next(m.roster.projects(), f.Project)
	case "s":
		m.roster.setSort((m.roster.sort + 1) % numSorts)
	case "enter":
		m.open()
	case "esc":
		switch {
		case m.expanded:
			m.expanded, m.cursor = false, -1
		case !f.empty():
			f, m.bar.text = Filter{}, ""
		}
	}
	m.roster.setFilter(f)
}

func (m *Model) detailKey(s string) {
	switch s {
	case "enter":
		// The row Tab chose, shown in full; Enter again closes it.
		if m.expanded && m.cursor >= 0 {
			if m.item == m.cursor {
				m.item = -1
			} else {
				m.item = m.cursor
			}
		}
	case "esc", "backspace", "left", "h":
		switch {
		case s == "esc" && m.item >= 0:
			m.item = -1
			return
		case s == "esc" && m.expanded:
			m.expanded, m.cursor = false, -1
			return
		}
		m.screen = screenList
	case "j", "down":
		m.scroll++
	case "k", "up":
		m.scroll = max(m.scroll-1, 0)
	case "g", "home":
		m.scroll = 0
	}
}

// click selects the row clicked, opens it when it was already selected,
// and toggles the panel on its [T].
func (m *Model) click(ms tea.Mouse) tea.Cmd {
	if ms.Button != tea.MouseLeft || m.help {
		return nil
	}
	if y, ok := m.toggleRow(); ok && ms.Y == y && ms.X >= m.width-width(toggleHint) {
		m.expanded = !m.expanded
		return nil
	}
	if m.screen != screenList {
		m.clickItem(ms)
		return nil
	}
	if m.clickPanelRow(ms) {
		return nil
	}
	i := ms.Y - listTop
	rows := m.roster.rows()
	if i < 0 || i >= m.listRows() || m.top+i >= len(rows) {
		return nil
	}
	id := rows[m.top+i].rec.ID
	if id == m.selected {
		m.open()
	}
	m.selected = id
	return nil
}

// open shows the selected session in full, and the panel's row Tab
// chose, if any, in full under it.
func (m *Model) open() {
	if m.selected != "" {
		m.screen, m.scroll, m.item = screenDetail, 0, -1
		if m.expanded && m.cursor >= 0 {
			m.item = m.cursor
		}
	}
}

// clickItem shows the item clicked in the open session's expanded panel
// in full, or closes it when it is shown already.
func (m *Model) clickItem(ms tea.Mouse) {
	s := m.current()
	if s == nil || !m.expanded {
		return
	}
	k := ms.Y - detailTop + m.scroll
	_, refs := m.panelView(s, m.detailPanelLines()).layout(&m.pal)
	if k < 0 || k >= len(refs) || ms.Y < detailTop {
		return
	}
	i := refs[k].at(ms.X)
	if i < 0 {
		return
	}
	m.cursor = i
	if i == m.item {
		i = -1
	}
	m.item = i
}

// clickPanelRow opens the selected session with the task clicked in the
// expanded panel under the list shown in full; false when the click was
// not on a task row of it.
func (m *Model) clickPanelRow(ms tea.Mouse) bool {
	s := m.current()
	y, ok := m.toggleRow()
	if s == nil || !ok || !m.expanded || ms.Y <= y {
		return false
	}
	_, refs := m.panelView(s, max(minPanel, (m.height-listFixed)/2)).layout(&m.pal)
	k := ms.Y - y
	if k >= len(refs) {
		return false
	}
	i := refs[k].at(ms.X)
	if i < 0 {
		return false
	}
	m.cursor = i
	m.open()
	return true
}

// toggleRow is the screen row of the panel's [T], if it is on screen.
func (m *Model) toggleRow() (int, bool) {
	if m.current() == nil {
		return 0, false
	}
	if m.screen == screenDetail {
		y := detailTop - m.scroll
		return y, y >= detailTop
	}
	return m.height - footerRows - len(m.listPanel()), true
}

func (m *Model) wheel(ms tea.Mouse) {
	by := 0
	switch ms.Button {
	case tea.MouseWheelDown:
		by = 1
	case tea.MouseWheelUp:
		by = -1
	default:
		return
	}
	if m.screen == screenDetail {
		m.scroll = max(m.scroll+by, 0)
		return
	}
	m.move(by)
}

var _ tea.Model = (*Model)(nil)
