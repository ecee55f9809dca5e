package tally

import (
	"bytes"
	"context"
	"io"
	"time"
)

// Adapter knows where one agent keeps its sessions: the directories, and
// which files in them are the agent's. Finding files is all it promises on
// its own; how it reads them is a capability of its own, because agents
// keep sessions in two shapes that share nothing but being files:
//
//   - LineReader: a log (or a file rewritten whole) holding one session,
//     turned into events line by line by a Decoder;
//   - DatabaseReader: a database holding many sessions, read whole.
//
// An adapter implements whichever its agent's files need (Hermes both,
// Crush only DatabaseReader), and each FileInfo's Layout says which one
// reads that file. A LineReader that can also tell its format from a
// stream is a StreamReader: only those are offered to tally normalize and
// tally follow.
//
// Discovery, tailing, the fold and the store are shared; see
// docs/ARCHITECTURE.md for everything adding an agent takes.
type Adapter interface {
	Agent() Agent
	// Roots are the directories holding this agent's files (they need not
	// exist yet). They are resolved when the adapter is built: an adapter
	// never reads the process environment itself.
	Roots() []string
	// Match tells whether path, a file under root, is this agent's, which
	// session (and sub-agent list) it holds, and how it is laid out.
	Match(root, path string) (FileInfo, bool)
}

// LineReader reads files laid out as LayoutLog or LayoutWhole.
type LineReader interface {
	Adapter
	// NewDecoder returns a decoder for a file, resuming from state (what
	// an earlier decoder's State returned; nil to start at offset 0).
	NewDecoder(f FileInfo, state []byte) (Decoder, error)
}

// StreamReader is a LineReader that can recognise its format from the
// first lines of a stream (tally normalize --agent auto): the adapters a
// pipe can be read with. NewDecoder is then called with a FileInfo naming
// no file (Path "-", LayoutLog).
type StreamReader interface {
	LineReader
	Sniff(line []byte) bool
}

// DatabaseReader reads files laid out as LayoutDatabase: an agent's
// database holding many sessions. Whenever the file (or its write-ahead
// log, path+"-wal") changes, ReadDatabase reads it whole and returns every
// session's events, in order, keyed by session id. Each session is then
// folded from scratch and stored like a log file of its own (see
// FileState.Database).
//
// A row ReadDatabase cannot use (its JSON unreadable, its session gone)
// never fails the read: it is left out and reported in diags, one
// Diagnostic per row, with Path the file's path, Offset the row's SQLite
// rowid where the adapter has it (0 where it has not), and Msg naming the
// table, the row and what was wrong. An adapter lists a bounded number of
// rows; when there were more, its last Diagnostic says how many in all. A
// value that is merely unknown, such as a status word, is kept
// (Item.RawStatus), not reported. The error is for a file that cannot be
// read at all.
type DatabaseReader interface {
	Adapter
	ReadDatabase(ctx context.Context, path string) (sessions map[string][]Event, diags []Diagnostic, err error)
}

// DirectoryReader reads files laid out as LayoutDirectory: a directory
// holding one list as many small files, each created, replaced and removed
// on its own (Claude Code keeps one file per task). Match claims each of
// those files, and the directory itself, with FileInfo.Path the directory
// and FileInfo.Session the list's id; whenever one of them changes,
// ReadDirectory reads the directory whole and returns the list's events.
// What they fold to is the list as it is now, not a history
// (FileState.Current).
//
// A file ReadDirectory cannot use never fails the read: it is left out and
// reported in diags, one Diagnostic per file, with Path the file's path. A
// file still empty (created, not yet written) is left out silently. The
// error is for a directory that cannot be listed at all.
type DirectoryReader interface {
	Adapter
	ReadDirectory(ctx context.Context, dir string) (events []Event, diags []Diagnostic, err error)
}

// Layout says how a file holds its sessions, and so which capability of
// its adapter reads it and when it is read again.
type Layout uint8

const (
	// LayoutLog is one session's log, only ever appended to: it is read
	// from the saved offset on, line by line (LineReader).
	LayoutLog Layout = iota
	// LayoutWhole is one session's file rewritten rather than appended
	// to: whenever it changes it is decoded again from the start, given
	// whole to the decoder as a single "line" (LineReader).
	LayoutWhole
	// LayoutDatabase is a database holding many sessions (FileInfo.Session
	// is ""): whenever it changes it is read whole (DatabaseReader).
	LayoutDatabase
	// LayoutDirectory is a directory holding one list as many small files
	// (FileInfo.Path is the directory): whenever one of its files
	// changes, appears or goes, it is read whole (DirectoryReader). Its
	// version is its files' names, sizes and modification times.
	LayoutDirectory
)

var layoutNames = [...]string{LayoutLog: "log", LayoutWhole: "whole", LayoutDatabase: "database", LayoutDirectory: "directory"}

func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return "unknown"
}

// Rewritten tells a file that can change without growing: it is read
// again whole, and its version is told by size and time, not offset.
func (l Layout) Rewritten() bool { return l != LayoutLog }

// FileInfo is what Match learns about a file from its path.
type FileInfo struct {
	Path    string
	Session string
	// List is the sub-agent id for a sub-agent's own log, "" otherwise.
	List   string
	Layout Layout
	// Shared, on a LayoutDirectory list, says the agent named the list
	// for several sessions to share (Claude Code's
	// CLAUDE_CODE_TASK_LIST_ID, an agent team's list) rather than after
	// the one session it is for. Only such a list is linked to the
	// sessions that use it (see package index); a list named after its
	// session is that session's alone.
	Shared bool
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

// WholeReader is implemented by decoders of LayoutWhole files that read
// the document from a stream, holding a part of it at a time, rather than
// being given it whole: the reader hands them the open file, so a file
// larger than the reader's limit on what it holds (tail.MaxLine) is still
// read, in bounded memory. ReadWhole does what Line does with the whole
// document; an error is for a document it cannot use.
type WholeReader interface {
	Decoder
	ReadWhole(r io.Reader, emit func(Event)) error
}

// Recenter is implemented by decoders that leave facts only the newest line
// matters for (when the session was last active, whose turn it is) out of
// Line, to keep Line cheap. After each read, the newest complete lines are
// passed to Recent, newest first, until it returns true.
type Recenter interface {
	Recent(line []byte, emit func(Event)) bool
}

// Turner is implemented by decoders of agents whose hooks count the
// model's turns (package hookservice): Turn tells whether a line records
// one model call, from its first bytes, cheaply (every line of a cold
// scan is asked); a decoder may remember the call it counted last, as
// Claude Code's does (a call's message takes a line per content block).
// The fold counts such lines as it reads them
// (FileState.Turns), so the turns are counted by the one read that folds
// the file, never by reading it again.
type Turner interface {
	Turn(line []byte) bool
}

// TurnHead is how far into a line the mark of a model call may be, for a
// Turner that looks for one (TurnIn).
const TurnHead = 120

// TurnIn tells whether mark is within the first TurnHead bytes of line.
func TurnIn(line, mark []byte) bool { return bytes.Contains(line[:min(len(line), TurnHead)], mark) }

// CallWindow is implemented by decoders that emit EventToolCall: tool calls
// made before from are history and not wanted, and are passed over without
// being read. Fingerprinting every call of every log costs what reading the
// calls' arguments costs, and a cold scan is mostly history whose calls no
// longer tell anything (a session over cannot be looping); the indexer asks
// for the calls of sessions that may still be going.
type CallWindow interface {
	CallsFrom(from time.Time)
}

// Diagnostic is a counted problem with the input: where it is, what is
// wrong, and what to do about it when there is something to do.
type Diagnostic struct {
	Path   string `json:"path"`
	Offset int64  `json:"offset"`
	Msg    string `json:"msg"`
}

// ParseCounter is implemented by decoders whose prefilter lets only some
// lines through to a full parse: Parsed is how many lines this decoder has
// parsed so far. Feed adds it to Stats.Parsed.
type ParseCounter interface {
	Parsed() int64
}

// PartPath is the name one session of a database is stored under, as if it
// were a file of its own. Nothing reads the name back: the database and the
// session are kept beside it (FileState.Database, FileState.Session).
func PartPath(database, session string) string { return database + "#" + session }

// DirSkipper is implemented by adapters whose roots hold much besides their
// files (Hermes' home holds its checkout and a Python environment;
// OpenCode's data directory, git snapshots). The walk and the file watches
// leave out every directory under root that SkipDir accepts, so a rescan
// stays cheap and the watches few.
type DirSkipper interface {
	SkipDir(root, dir string) bool
}
