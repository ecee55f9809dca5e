package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// Options configure the dashboard. Zero fields have the defaults their
// comments give.
type Options struct {
	// Now is the clock every age and activity is derived at (time.Now).
	Now func() time.Time
	// Home is shown as ~ in project paths.
	Home string
	// Color: false under NO_COLOR or TERM=dumb, leaving bold and reverse
	// video only.
	Color bool
	// Load reads up to limit records (0: all), newest activity first: the
	// store's Records.
	Load func(ctx context.Context, limit int) ([]tally.Record, error)
	// Approve switches a Tally task list from plan to execution, as
	// `tally tasks approve` does; nil leaves A without effect.
	Approve func(ctx context.Context, list string) error
	// Decide answers the open request of a session (tally allow / deny);
	// nil leaves y, Y and n without effect.
	Decide func(ctx context.Context, session string, v tally.Verdict) (tally.Request, error)
	// Headliner describes sessions that follow a plan; nil: every panel
	// shows its todo list.
	Headliner Headliner
	// Looked says where agents' logs were looked for, one line per folder:
	// what the screen shows while there is no session at all.
	Looked []string
	// Records is what the first frame shows (the newest sessions, read
	// before the program starts); the rest is loaded once it is drawn.
	Records []tally.Record
	// Status is what the title says the indexer is doing at first
	// ("reading logs"), until a Status message says otherwise.
	Status string
}

// screen is what fills the middle of the terminal.
type screen uint8

const (
	screenList screen = iota
	screenDetail
)

// Model is the root of the dashboard: it owns every piece of state and
// routes each message to the component it concerns.
type Model struct {
	o      Options
	ctx    context.Context
	pal    palette
	roster *roster
	bar    filterBar

	width, height int
	screen        screen
	help          bool
	expanded      bool
	dark          bool

	// selected is the id of the session in hand, kept across reorderings.
	selected string
	// top is the first row of the list on screen.
	top int
	// scroll is how far the detail body is scrolled.
	scroll int
	// item is the item of the open session shown in full (-1: none).
	item int
	// cursor is the row of the expanded panel Tab chose (-1: none): what
	// Enter shows in full.
	cursor int

	spinFrame   int
	spinPending bool
	// clockAt is when the pending clock tick fires (zero: none pending).
	clockAt time.Time
	// scan says what the indexer is doing, while it catches up.
	scan string
	// loadErr is why the store could not be read, if it could not.
	loadErr error

	// rowsKey and rowsLines keep the list's last drawn rows.
	rowsKey   rowsKey
	rowsLines []string
}

// Changed is the indexer's committed changes, as Feed sends them.
type Changed struct {
	Updated []tally.Record
	Removed []string
}

// Reload asks the model to read every record again: the change stream
// dropped some changes for it.
type Reload struct{}

// Status says what the indexer is doing ("indexing 1,204 files"); "" once
// it is live.
type Status string

// loaded is a store read's result.
type loaded struct {
	recs   []tally.Record
	err    error
	reload bool
}

type approved struct {
	list string
	err  error
}

type decided struct {
	verdict tally.Verdict
	req     tally.Request
	err     error
}

// New builds the root model.
func New(ctx context.Context, o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	m := &Model{o: o, ctx: ctx, roster: newRoster(), dark: true, width: 80, height: 24, item: -1, cursor: -1, scan: o.Status}
	m.pal = newPalette(o.Color, m.dark)
	m.roster.load(o.Records, o.Now())
	m.o.Records = nil
	m.sync()
	return m
}

// Init asks the terminal for its background. The whole store is read
// once the first frame is drawn: the first frame waits for nothing but
// the records it shows.
func (m *Model) Init() tea.Cmd {
	return tea.RequestBackgroundColor
}

func (m *Model) load(reload bool) tea.Cmd {
	if m.o.Load == nil {
		return nil
	}
	ctx, load := m.ctx, m.o.Load
	return func() tea.Msg {
		recs, err := load(ctx, 0)
		return loaded{recs: recs, err: err, reload: reload}
	}
}

// Update routes one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.pal = newPalette(m.o.Color, m.dark)
	case tea.KeyPressMsg:
		cmd = m.key(msg)
	case tea.MouseClickMsg:
		cmd = m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
	case Changed:
		m.roster.update(msg.Updated, msg.Removed, m.o.Now())
	case drawn:
		cmd = m.load(false)
	case Reload:
		cmd = m.load(true)
	case Status:
		m.scan = string(msg)
	case loaded:
		m.loadErr = msg.err
		if msg.err == nil && msg.reload {
			m.roster.reload(msg.recs, m.o.Now())
		} else if msg.err == nil {
			m.roster.load(msg.recs, m.o.Now())
		}
	case decided:
		if msg.err != nil {
			m.bar.note = string(msg.verdict) + ": " + msg.err.Error()
		} else {
			m.bar.note = oneLine(msg.req.Tool) + ": " + map[tally.Verdict]string{tally.VerdictAllow: "allowed", tally.VerdictAlways: "allowed for the session", tally.VerdictDeny: "denied"}[msg.verdict]
		}
	case approved:
		if msg.err != nil {
			m.bar.note = "approve " + msg.list + ": " + msg.err.Error()
		} else {
			m.bar.note = msg.list + " approved: the plan is now in execution"
		}
	case spinTick:
		m.spinPending = false
		if m.spinning() {
			m.spinFrame = (m.spinFrame + 1) % len(spinnerFrames)
		}
	case clockTick:
		if msg.at.Equal(m.clockAt) {
			m.clockAt = time.Time{}
			m.roster.tick(m.o.Now())
		}
	}
	m.sync()
	return m, tea.Batch(cmd, m.schedule())
}

// current is the session in hand, derived now; nil when there is none.
func (m *Model) current() *tally.Session {
	e, ok := m.roster.byID[m.selected]
	if !ok {
		return nil
	}
	s := e.rec.Session(m.o.Now())
	return &s
}

// sync keeps the selection on a session that is shown and the list
// window around it.
func (m *Model) sync() {
	rows := m.roster.rows()
	i := m.index()
	if i < 0 {
		if len(rows) == 0 {
			m.selected, m.top = "", 0
			return
		}
		i = min(max(m.top, 0), len(rows)-1)
		m.selected = rows[i].rec.ID
	}
	n := m.listRows()
	m.top = min(m.top, max(len(rows)-n, 0))
	if i < m.top {
		m.top = i
	}
	if n > 0 && i >= m.top+n {
		m.top = i - n + 1
	}
}

// index is the selected session's row, or -1.
func (m *Model) index() int {
	for i, e := range m.roster.rows() {
		if e.rec.ID == m.selected {
			return i
		}
	}
	return -1
}

func (m *Model) move(by int) {
	rows := m.roster.rows()
	if len(rows) == 0 {
		return
	}
	i := min(max(m.index()+by, 0), len(rows)-1)
	if id := rows[i].rec.ID; id != m.selected {
		m.selected, m.cursor = id, -1
	}
}

// rowCount is how many rows the expanded panel of s can choose from: the
// plan's tasks for a session following one, else its items.
func (m *Model) rowCount(s *tally.Session) int {
	if pl := m.headline(s).Plan; len(pl) > 0 {
		return len(pl)
	}
	return len(s.Items)
}

// step moves the panel's cursor by one row (by -1: back), wrapping; on
// the open session, the task it lands on is shown in full.
func (m *Model) step(by int) {
	s := m.current()
	if s == nil || !m.expanded {
		return
	}
	n := m.rowCount(s)
	if n == 0 {
		return
	}
	switch {
	case m.cursor < 0 && by < 0:
		m.cursor = n - 1
	case m.cursor < 0:
		m.cursor = 0
	default:
		m.cursor = ((m.cursor+by)%n + n) % n
	}
	if m.screen == screenDetail && m.item >= 0 {
		m.item = m.cursor
	}
}

// plan tells whether the session is a Tally task list waiting for
// approval: its record asks for the person exactly while it is in plan
// mode with tasks.
func (m *Model) plan(id string) bool {
	e, ok := m.roster.byID[id]
	return ok && e.rec.Agent == tally.AgentTally && e.rec.Signal == tally.SignalAsking
}

func (m *Model) headline(s *tally.Session) Headline {
	if m.o.Headliner != nil {
		if h, ok := m.o.Headliner.Headline(s); ok {
			return h
		}
	}
	return todoHeadline(s, m.plan(s.ID))
}

// decide answers the open session's request with v.
func (m *Model) decide(v tally.Verdict) tea.Cmd {
	if m.o.Decide == nil || m.screen != screenDetail || m.selected == "" {
		return nil
	}
	ctx, decide, id := m.ctx, m.o.Decide, m.selected
	return func() tea.Msg {
		r, err := decide(ctx, id, v)
		return decided{verdict: v, req: r, err: err}
	}
}

func (m *Model) approve() tea.Cmd {
	if m.o.Approve == nil || !m.plan(m.selected) {
		return nil
	}
	list := strings.TrimPrefix(m.selected, tasks.SessionPrefix)
	ctx, approve := m.ctx, m.o.Approve
	return func() tea.Msg { return approved{list: list, err: approve(ctx, list)} }
}

// title is the top line: what is shown, out of how much, and how to get
// help.
func (m *Model) title() string {
	p := &m.pal
	r := m.roster
	parts := []string{strconv.Itoa(r.active) + " active", plural(len(r.byID), "session")}
	if f := r.filter; !f.empty() {
		shown := strconv.Itoa(len(r.order)) + " shown"
		if f.Agent != "" {
			shown += " · agent " + oneLine(string(f.Agent))
		}
		if f.Project != "" {
			shown += " · project " + projectText(r.projectNames(m.o.Home), f.Project, 24)
		}
		if f.Text != "" {
			shown += " · “" + oneLine(f.Text) + "”"
		}
		parts = append(parts, shown)
	}
	if r.sort != SortActive {
		parts = append(parts, r.sort.String())
	}
	if m.scan != "" {
		parts = append(parts, m.scan)
	}
	left := render(p.title, "tally") + render(p.faint, " · "+strings.Join(parts, " · "))
	return spread(left, render(p.faint, "? help"), m.width)
}
