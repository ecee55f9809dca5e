package detect

import (
	"fmt"
	"hash/crc32"
	"time"

	"github.com/tallyhq/tally"
)

// Kind says what an Observation saw.
type Kind uint8

const (
	// KindOutput: the agent wrote something mid-turn — text, a tool's
	// result, output streaming from a running command. The agent is working.
	KindOutput Kind = iota + 1
	// KindToolCall: the agent called a tool; Fingerprint identifies the call
	// (name and arguments). The agent is working.
	KindToolCall
	// KindList: the session's todo list changed; List is its state after.
	KindList
	// KindNeedsInput: the agent asked for the person — a notification, a
	// permission request, a turn that ended on a question.
	KindNeedsInput
	// KindTurnEnded: the agent ended its turn; the next move is the person's.
	KindTurnEnded
	// KindPrompt: the person sent a prompt or answered; the agent works again.
	KindPrompt
	// KindEnded: the session is over.
	KindEnded
	// KindSeen: a line that tells only that the session is alive — a
	// progress line, an attachment, a timestamp. It is neither work nor a
	// stop: it keeps a working session from counting as stalled, and
	// leaves one that waits for its user waiting.
	KindSeen
	// KindStalled: the agent's runtime said the session stalled (a
	// watchdog's notice): it is stalled from then, without waiting for
	// StalledAfter, until work follows.
	KindStalled
)

var kindNames = [...]string{
	KindOutput: "output", KindToolCall: "tool_call", KindList: "list",
	KindNeedsInput: "needs_input", KindTurnEnded: "turn_ended", KindPrompt: "prompt", KindEnded: "ended",
	KindSeen: "seen", KindStalled: "stalled",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Observation is one thing seen in a session, at the time its log says.
// Adapters and the indexer emit them; the constructors below make each kind.
type Observation struct {
	Kind        Kind
	At          time.Time
	Fingerprint uint64
	List        ListState
}

// ListState is what detection needs of a todo list: how many items it has
// (cancelled ones left out), how many are not done, and whether the agent
// cannot go on (tally.Blocked).
type ListState struct {
	Total int  `json:"total,omitempty"`
	Open  int  `json:"open,omitempty"`
	Stuck bool `json:"stuck,omitempty"`
}

func Output(at time.Time) Observation     { return Observation{Kind: KindOutput, At: at} }
func NeedsInput(at time.Time) Observation { return Observation{Kind: KindNeedsInput, At: at} }
func TurnEnded(at time.Time) Observation  { return Observation{Kind: KindTurnEnded, At: at} }
func Prompt(at time.Time) Observation     { return Observation{Kind: KindPrompt, At: at} }
func Ended(at time.Time) Observation      { return Observation{Kind: KindEnded, At: at} }
func Seen(at time.Time) Observation       { return Observation{Kind: KindSeen, At: at} }
func Stalled(at time.Time) Observation    { return Observation{Kind: KindStalled, At: at} }

// ToolCall is a call whose name and arguments hash to fp (see Fingerprint).
func ToolCall(fp uint64, at time.Time) Observation {
	return Observation{Kind: KindToolCall, At: at, Fingerprint: fp}
}

// ListChanged is a change of the todo list to l.
func ListChanged(l ListState, at time.Time) Observation {
	return Observation{Kind: KindList, At: at, List: l}
}

// FromSignal is the observation a log line's turn signal makes: working is
// output, waiting is the end of a turn, asking is a request for input,
// ended is the end. ok is false for SignalNone, which says nothing.
func FromSignal(sig tally.Signal, at time.Time) (o Observation, ok bool) {
	switch sig {
	case tally.SignalWorking:
		return Output(at), true
	case tally.SignalWaiting:
		return TurnEnded(at), true
	case tally.SignalAsking:
		return NeedsInput(at), true
	case tally.SignalEnded:
		return Ended(at), true
	case tally.SignalNone:
	}
	return Observation{}, false
}

// ListOf is the ListState of a session's main list, from its items and its
// progress markers; whether it is stuck is tally.Blocked's to say.
func ListOf(items []tally.Item, markers []tally.Marker) ListState {
	p := tally.ProgressOf(tally.DeriveBlocked(items))
	_, stuck := tally.Blocked(items, markers)
	return ListState{Total: p.Total, Open: p.Total - p.Done, Stuck: stuck}
}

// Fingerprint identifies a tool call by its name and argument bytes. It
// is the same in every process and on every machine, so a stored State
// stays meaningful after a restart. Arguments are hashed as written: an
// agent writes the same call the same way, so an adapter hashes the bytes
// of its log without parsing them.
//
// The arguments may be large (a file written whole), and every call of
// every log passes here: they go through two CRC-32s (Castagnoli and
// IEEE), which the CPU computes with instructions of its own, seeded with
// a hash of the name; the two make the 64 bits.
func Fingerprint[T string | []byte](name T, args []byte) uint64 {
	const (
		offset = 2166136261
		prime  = 16777619
	)
	h := uint32(offset)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= prime
	}
	// A byte UTF-8 never has separates the two, so that ("ab", "c") and
	// ("a", "bc") differ.
	h = (h ^ 0xff) * prime
	return uint64(crc32.Update(h, castagnoli, args))<<32 | uint64(crc32.Update(^h, crc32.IEEETable, args))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)
