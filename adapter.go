package tally

import "context"

// Adapter knows one agent's logs: where they live and how to read them.
// Adding an agent is one package implementing this and one line of wiring;
// discovery, tailing, the fold and the store are shared.
type Adapter interface {
	Agent() Agent
	// Roots are the directories holding this agent's logs (they need not
	// exist yet). Overrides from flags or the environment are applied when
	// the adapter is built.
	Roots() []string
	// Match tells whether path, a file under root, is a log of this agent,
	// and which session (and sub-agent list) it holds.
	Match(root, path string) (FileInfo, bool)
	// NewDecoder returns a decoder for a file, resuming from state (what
	// an earlier decoder's State returned; nil to start at offset 0).
	NewDecoder(f FileInfo, state []byte) (Decoder, error)
}

// FileInfo is what Match learns about a log file from its path.
type FileInfo struct {
	Path    string
	Session string
	// List is the sub-agent id for a sub-agent's own log, "" otherwise.
	List string
	// Whole marks a file that is rewritten rather than appended to: it is
	// decoded again from the start whenever it changes.
	Whole bool
}

// Decoder turns the lines of one file into events. It is used by one
// goroutine at a time.
type Decoder interface {
	// Line decodes one complete line (without its newline) found at byte
	// offset off, calling emit for each event. A line it cannot use at all
	// returns an *Error with CodeInvalid; it is counted and skipped, and
	// never stops the file.
	Line(line []byte, off int64, emit func(Event)) error
	// State is what the decoder must remember to go on after a restart
	// (nil if nothing).
	State() []byte
}

// Recenter is implemented by decoders that leave facts only the newest line
// matters for (when the session was last active, whose turn it is) out of
// Line, to keep Line cheap. After each read, the newest complete lines are
// passed to Recent, newest first, until it returns true.
type Recenter interface {
	Recent(line []byte, emit func(Event)) bool
}

// Diagnostic is a counted problem with the input: where it is, what is
// wrong, and what to do about it when there is something to do.
type Diagnostic struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Msg    string `json:"msg"`
}

// Sniffer is implemented by adapters that can recognise their format from
// the first lines of a stream (tally normalize --agent auto).
type Sniffer interface {
	Sniff(line []byte) bool
}

// ParseCounter is implemented by decoders whose prefilter lets only some
// lines through to a full parse: Parsed is how many lines this decoder has
// parsed so far. Feed adds it to Stats.Parsed.
type ParseCounter interface {
	Parsed() int64
}

// MultiDecoder is implemented by the decoders of files that hold many
// sessions — an agent's SQLite database. Such a file is matched with
// FileInfo.Whole set; whenever it (or its write-ahead log, path+"-wal")
// changes, Sessions reads it whole and returns every session's events, in
// order, keyed by session id. Each session is then folded from scratch and
// stored like a log file of its own, named MultiPath(path, id).
//
// A row Sessions cannot use (its JSON unreadable, its session gone) never
// fails the read: it is left out and reported in diags, one Diagnostic per
// row, with Path the file's path, Offset the row's SQLite rowid where the
// decoder has it (0 where it has not), and Msg naming the table, the row
// and what was wrong. A decoder lists a bounded number of rows; when there
// were more, its last Diagnostic says how many in all. A value that is
// merely unknown, such as a status word, is kept (Item.RawStatus), not
// reported. The error is for a file that cannot be read at all.
type MultiDecoder interface {
	Sessions(ctx context.Context, path string) (sessions map[string][]Event, diags []Diagnostic, err error)
}

// MultiPath names one session's part of a multi-session file.
func MultiPath(path, session string) string { return path + "#" + session }

// DirSkipper is implemented by adapters whose roots hold much besides logs
// (Hermes' home holds its checkout and a Python environment; OpenCode's
// data directory, git snapshots). The walk and the file watches leave out
// every directory under root that SkipDir accepts, so a rescan stays cheap
// and the watches few.
type DirSkipper interface {
	SkipDir(root, dir string) bool
}
