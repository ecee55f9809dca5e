package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
)

// The list screen's fixed lines: the title, the column header, the rule
// above the panel and the bar at the bottom.
const (
	listTop    = 2
	listFixed  = listTop + 2
	detailTop  = 4
	minPanel   = 3
	footerRows = 1
)

// View draws the whole screen: exactly height lines of at most width
// columns each.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "tally"
	return v
}

func (m *Model) frame() string {
	var lines []string
	switch {
	case m.help:
		lines = append([]string{m.title()}, helpLines(&m.pal, m.width)...)
		lines = m.pad(lines, m.height-footerRows)
		lines = append(lines, m.bar.line(&m.pal, m.width, []string{"? or esc back", "q quit"}))
	case m.screen == screenDetail && m.current() != nil:
		lines = m.detailFrame()
	default:
		lines = m.listFrame()
	}
	lines = m.pad(lines, m.height)
	for i := range lines {
		lines[i] = cut(lines[i], m.width)
	}
	return strings.Join(lines, "\n")
}

// pad makes lines exactly n long: cut, or filled with blank lines.
func (m *Model) pad(lines []string, n int) []string {
	n = max(n, 0)
	if len(lines) > n {
		return lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

func (m *Model) panelView(s *tally.Session, maxLines int) panelView {
	spin := ""
	if s.Activity == tally.ActivityWorking {
		spin = spinnerFrames[m.spinFrame]
	}
	pv := panelView{
		s: s, head: m.headline(s), expanded: m.expanded, spin: spin,
		approvable: m.o.Approve != nil && m.plan(s.ID),
		width:      m.width, maxLines: maxLines, cursor: -1,
	}
	if m.expanded {
		pv.cursor = m.cursor
	}
	return pv
}

// listPanel is the Task Panel under the list, for the selected session.
func (m *Model) listPanel() []string {
	s := m.current()
	if s == nil {
		return nil
	}
	return m.panelView(s, max(minPanel, (m.height-listFixed)/2)).lines(&m.pal)
}

// listRows is how many sessions the list shows at once.
func (m *Model) listRows() int {
	if m.screen != screenList || m.help {
		return max(m.height-listFixed-footerRows, 1)
	}
	return max(m.height-listFixed-len(m.listPanel()), 1)
}

func (m *Model) listFrame() []string {
	p := &m.pal
	panel := m.listPanel()
	n := max(m.height-listFixed-len(panel), 1)
	lines := append([]string{m.title()}, m.listRowsFrame(n)...)
	if len(panel) > 0 {
		lines = append(lines, render(p.faint, strings.Repeat("─", m.width)))
		lines = append(lines, panel...)
	} else {
		lines = append(lines, "")
	}
	return append(lines, m.bar.line(p, m.width, listHints))
}

// rowsKey is everything the list's rows depend on: the same key draws the
// same rows, so a spinner frame redraws the panel only.
type rowsKey struct {
	gen           uint64
	top, n, width int
	selected      string
	second        int64
	color, dark   bool
	empty         string
}

// listRowsFrame is the column header and n rows of the list window. Only
// the sessions in the window are derived from their records.
func (m *Model) listRowsFrame(n int) []string {
	now := m.o.Now()
	rows := m.roster.rows()
	key := rowsKey{gen: m.roster.gen, top: m.top, n: n, width: m.width, selected: m.selected,
		second: now.Unix(), color: m.pal.color, dark: m.pal.dark, empty: m.emptyText()}
	if key == m.rowsKey && m.rowsLines != nil {
		return m.rowsLines
	}
	end := min(m.top+n, len(rows))
	window := make([]tally.Session, 0, max(end-m.top, 0))
	ids := make([]string, 0, max(end-m.top, 0))
	sel := -1
	for i := m.top; i < end; i++ {
		window = append(window, rows[i].rec.Session(now))
		ids = append(ids, m.roster.shortID(rows[i]))
		if rows[i].rec.ID == m.selected {
			sel = i - m.top
		}
	}
	lv := listView{rows: window, ids: ids, selected: sel, width: m.width, now: now,
		names: m.roster.projectNames(m.o.Home), projectWidth: m.roster.projectWidth}
	body := lv.lines(&m.pal)
	if len(rows) == 0 {
		body = []string{"", "  " + key.empty}
		if m.roster.filter.empty() && m.loadErr == nil && len(m.o.Looked) > 0 {
			body = append(body, "", "  Tally looks for agents' logs in:")
			for _, l := range m.o.Looked {
				body = append(body, "    "+oneLine(l))
			}
			body = append(body, "", "  Point it at other folders with the flags in 'tally --help'.")
		}
	}
	m.rowsKey, m.rowsLines = key, append([]string{lv.header(&m.pal)}, m.pad(body, n)...)
	return m.rowsLines
}

// emptyText says why the list is empty: no history, a store that cannot
// be read, or a filter that matches nothing.
func (m *Model) emptyText() string {
	switch {
	case m.loadErr != nil:
		return "Cannot read the index: " + m.loadErr.Error()
	case !m.roster.filter.empty():
		return "No session matches the filter (Esc clears it)."
	case m.scan != "":
		return "No sessions yet: reading the agents' logs…"
	}
	return "No sessions yet: start a coding agent and its session shows here."
}

// detailPanelLines bounds the panel on the detail screen: the whole body.
func (m *Model) detailPanelLines() int { return max(m.height-detailTop-footerRows, minPanel) }

func (m *Model) detailFrame() []string {
	s := m.current()
	p := &m.pal
	dv := detailView{s: s, width: m.width, now: m.o.Now(), names: m.roster.projectNames(m.o.Home), item: m.item,
		panel: m.panelView(s, m.detailPanelLines())}
	lines := dv.header(p)
	body := dv.body(p)
	room := max(m.height-detailTop-footerRows, 0)
	m.scroll = min(m.scroll, max(len(body)-room, 0))
	lines = append(lines, m.pad(body[m.scroll:], room)...)
	hints := detailHints
	if dv.panel.approvable {
		hints = append([]string{"A approve"}, hints...)
	}
	return append(lines, m.bar.line(p, m.width, hints))
}
