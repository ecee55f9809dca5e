package normalize

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tail"
)

// AgentAuto asks for the format to be told from the stream itself.
const AgentAuto = "auto"

// How far auto-detection reads ahead before it gives up: a stream that has
// not shown its format by then is not one Tally knows.
const (
	sniffLines = 64
	sniffBytes = 4 << 20
)

// Options configure Run and Stream.
type Options struct {
	// Agent names the adapter to read with, a key of Adapters; "" or
	// "auto" tells it from the first lines.
	Agent string
	// Adapters are the formats a stream may be in, by name ("claude",
	// "acp", …).
	Adapters map[string]tally.StreamReader
	// Now stamps events of formats that carry no time of their own
	// (codex exec --json, ACP); nil means time.Now.
	Now func() time.Time
	// MaxLine is the longest line read; 0 means tail.MaxLine.
	MaxLine int
}

// Step is what one input line did.
type Step struct {
	// N is the 1-based line number.
	N int64
	// Line is the line without its newline; nil for a line too long to
	// hold. It is valid until the next call to Next.
	Line []byte
	// Lists holds a new version of every list this line changed.
	Lists   []TodoList
	Markers []Marker
	// Diags are problems with this line, each starting with its number.
	Diags []string
	// Decoded is false for a line no adapter read (the format is unknown,
	// the line was too long): a surface may show it as the agent's own text.
	Decoded bool
}

// Stream reads an agent's output line by line, folding it as it goes.
type Stream struct {
	opts    Options
	lr      *lineReader
	ahead   [][]byte // lines read while telling the format, not yet folded
	started bool
	name    string
	adapter tally.StreamReader
	dec     tally.Decoder
	st      tally.FileState
	n       int64
	shown   map[string]*shownList
}

// shownList is what was last written for one list.
type shownList struct {
	items   []tally.Item
	gen     int
	session string
}

// NewStream prepares to read in. It fails only for an agent name that is
// not among opts.Adapters.
func NewStream(in io.Reader, opts Options) (*Stream, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxLine <= 0 {
		opts.MaxLine = tail.MaxLine
	}
	s := &Stream{opts: opts, lr: newLineReader(in, opts.MaxLine), shown: make(map[string]*shownList)}
	if opts.Agent != "" && opts.Agent != AgentAuto {
		if opts.Adapters[opts.Agent] == nil {
			return nil, tally.Errorf(tally.CodeInvalid, "normalize", "unknown agent %q (known: %s, auto)",
				opts.Agent, strings.Join(names(opts.Adapters), ", "))
		}
		if err := s.use(opts.Agent); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func names(m map[string]tally.StreamReader) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (s *Stream) use(name string) error {
	a := s.opts.Adapters[name]
	dec, err := a.NewDecoder(tally.FileInfo{Path: "-"}, nil)
	if err != nil {
		return err
	}
	s.name, s.adapter, s.dec = name, a, dec
	s.st = tally.FileState{Path: "-", Agent: a.Agent()}
	return nil
}

// Adapter is the adapter reading the stream, nil if none could be told
// (known after the first call to Next).
func (s *Stream) Adapter() tally.StreamReader { return s.adapter }

// Agent is the name the adapter was chosen by.
func (s *Stream) Agent() string { return s.name }

// Stats counts what the stream held so far.
func (s *Stream) Stats() tally.Stats { return s.st.Stats }

// Next reads and folds one line. It returns io.EOF at the end of input.
func (s *Stream) Next() (Step, error) {
	if !s.started {
		s.started = true
		if s.adapter == nil {
			if err := s.detect(); err != nil {
				return Step{}, err
			}
		}
	}
	var line []byte
	var skipped int64
	if len(s.ahead) > 0 {
		line, s.ahead = s.ahead[0], s.ahead[1:]
		if line == nil {
			skipped = -1 // its length was reported when it was read ahead
		}
	} else {
		var err error
		if line, skipped, err = s.lr.next(); err != nil {
			return Step{}, err
		}
	}
	s.n++
	step := Step{N: s.n}
	if skipped != 0 {
		d := s.st.SkipLine(max(skipped, 0))
		step.Diags = append(step.Diags, fmt.Sprintf("line %d: %s", s.n, d.Msg))
		return step, nil
	}
	step.Line = bytes.TrimRight(line, "\r\n")
	if s.dec == nil {
		return step, nil
	}
	step.Decoded = true
	s.st.Markers = s.st.Markers[:0] // so that after Feed it holds this line's
	blank := s.st.Stats.Blank
	changed, diags := s.st.Feed(s.dec, line)
	for _, d := range diags {
		step.Diags = append(step.Diags, fmt.Sprintf("line %d: %s", s.n, d.Msg))
	}
	if n := s.st.Stats.Blank - blank; n > 0 {
		step.Diags = append(step.Diags, fmt.Sprintf("line %d: %s without text skipped (not shown, not counted in progress)", s.n, itemCount(n)))
	}
	if changed {
		s.lists(&step)
	}
	s.markers(&step)
	return step, nil
}

// itemCount is "1 item" or "n items".
func itemCount(n int64) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// detect reads ahead until exactly one adapter claims a line. A line
// several adapters claim only sets the fallback — the first of them by
// name — used if no line is ever claimed by one alone.
func (s *Stream) detect() error {
	sniffers := names(s.opts.Adapters)
	fallback, size := "", 0
	for len(s.ahead) < sniffLines && size < sniffBytes {
		line, skipped, err := s.lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if skipped > 0 {
			s.ahead = append(s.ahead, nil)
			size += int(min(skipped, sniffBytes))
			continue
		}
		s.ahead = append(s.ahead, bytes.Clone(line))
		size += len(line)
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		var hits []string
		for _, name := range sniffers {
			if s.opts.Adapters[name].Sniff(trimmed) {
				hits = append(hits, name)
			}
		}
		if len(hits) == 1 {
			return s.use(hits[0])
		}
		if len(hits) > 1 && fallback == "" {
			fallback = hits[0]
		}
	}
	if fallback != "" {
		return s.use(fallback)
	}
	return nil
}

func (s *Stream) lists(step *Step) {
	keys := make([]string, 0, len(s.st.Lists))
	for k := range s.st.Lists {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		l := s.st.Lists[key]
		items := l.Items()
		prev := s.shown[key]
		if prev == nil && len(items) == 0 || prev != nil && reflect.DeepEqual(prev.items, items) {
			continue
		}
		switch {
		case prev == nil:
			prev = &shownList{gen: 1, session: s.st.Session}
			s.shown[key] = prev
		case len(prev.items) == 0:
			prev.gen++
			prev.session = s.st.Session
		}
		prev.items = items
		step.Lists = append(step.Lists, s.todoList(key, l, prev))
	}
}

func (s *Stream) todoList(key string, l *tally.List, sh *shownList) TodoList {
	views := tally.DeriveBlocked(sh.items)
	p := tally.ProgressOf(views)
	return TodoList{
		Type:      TypeTodoList,
		EventID:   eventID(TypeTodoList, s.st.Session, key, s.n, 0),
		AgentID:   AgentID(s.st.Agent, key),
		AgentType: AgentType(s.st.Agent),
		Timestamp: s.stamp(l.UpdatedAt),
		TodoID:    todoID(sh.session, key, sh.gen),
		Items:     items(views),
		SessionID: s.st.Session,
		List:      key,
		Name:      l.Name,
		Progress:  TodoProgress{Done: p.Done, Total: p.Total, InProgress: p.InProgress, Blocked: p.Blocked},
		Line:      s.n,
	}
}

func (s *Stream) markers(step *Step) {
	for i, m := range s.st.Markers {
		step.Markers = append(step.Markers, Marker{
			Type:      TypeMarker,
			EventID:   eventID(TypeMarker, s.st.Session, "", s.n, i),
			AgentID:   AgentID(s.st.Agent, ""),
			AgentType: AgentType(s.st.Agent),
			Timestamp: s.stamp(s.st.LastAt),
			SessionID: s.st.Session,
			Line:      s.n,
			Marker:    m,
		})
	}
}

// stamp is the agent's own time when its format has one, else Now.
func (s *Stream) stamp(at time.Time) int64 {
	if at.IsZero() {
		at = s.opts.Now()
	}
	return at.UnixMilli()
}
