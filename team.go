package tally

import (
	"context"
	"time"
)

// The small interfaces below are parts of the stores' contract beside
// Store (package store composes them): both stores (store/sqlite,
// store/postgres) implement every one, the compiler checks it, and
// store/storetest checks what each promises. Only Elector is a store's
// option: only PostgreSQL, shared by several processes, elects.

// HookKeeper keeps what agents' hooks remember between calls, and the
// needs-input marks they set. A mark shows in the session's record at
// once; a commit keeps it in every record whose last activity is not after
// it (an indexer folding lines written before the prompt cannot undo it),
// and the first record with newer activity ends it.
type HookKeeper interface {
	// UpdateHook runs fn on the session's saved hook state (nil if none)
	// in one transaction, so the hook processes of one session take turns,
	// and saves the state fn returns (nil keeps the saved one). The signal
	// fn returns is what the call learned of the session at at:
	// SignalWaiting marks it as waiting for its user, SignalWorking ends
	// such a mark, SignalNone says nothing. An error of fn writes nothing
	// and is returned as is.
	UpdateHook(ctx context.Context, session string, at time.Time, fn func(saved []byte) ([]byte, Signal, error)) error
}

// Scope is what a token lets its bearer do.
type Scope uint8

const (
	// ScopeRead reads sessions and lists: the board, the API, the stream.
	ScopeRead Scope = iota + 1
	// ScopeWrite changes things (task tool calls, approving a plan, hook
	// calls) and reads.
	ScopeWrite
	// ScopePush ships a machine's sessions to the team's store (tally
	// push), and nothing else.
	ScopePush
)

var scopeNames = [...]string{ScopeRead: "read", ScopeWrite: "write", ScopePush: "push"}

func (s Scope) String() string {
	if s > 0 && int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "none"
}

func (s Scope) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Scope) UnmarshalText(b []byte) error {
	v, err := ParseScope(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseScope parses the words String returns.
func ParseScope(s string) (Scope, error) {
	for i, n := range scopeNames {
		if n != "" && n == s {
			return Scope(i), nil
		}
	}
	return 0, errorf(CodeInvalid, "ParseScope", "unknown scope %q (want push, read or write)", s)
}

// Allows tells whether a token of scope s may do what needs scope need:
// its own scope, and reading for a write token.
func (s Scope) Allows(need Scope) bool {
	return s == need || (s == ScopeWrite && need == ScopeRead)
}

// Token is what a store keeps of an access token: never the secret, only
// its public id and, beside it, the secret's hash (see package token).
type Token struct {
	// ID is the public part of the token, which it starts with: what
	// `tally token list` shows and `revoke` takes.
	ID      string    `json:"id"`
	Name    string    `json:"name,omitempty"`
	Scope   Scope     `json:"scope"`
	Created time.Time `json:"created"`
	// Machine and User bind a push token to the origin it was made for:
	// it pushes only batches naming that machine (and, when User is set,
	// that user). Every push token names its machine; a token of another
	// scope names none.
	Machine string `json:"machine,omitempty"`
	User    string `json:"user,omitempty"`
}

// CheckToken checks what every store requires of a token it adds: an id,
// a scope, and an origin exactly when it is a push token.
func CheckToken(t Token) error {
	const op = "AddToken"
	switch {
	case t.ID == "" || t.Scope.String() == "none":
		return errorf(CodeInvalid, op, "a token needs an id and a scope")
	case t.Scope == ScopePush && t.Machine == "":
		return errorf(CodeInvalid, op, "a push token names the machine it pushes for (--machine): a token that could push as any machine would let one machine rewrite another's sessions")
	case t.Scope != ScopePush && (t.Machine != "" || t.User != ""):
		return errorf(CodeInvalid, op, "only a push token names a machine or a user")
	}
	return nil
}

// MayPush tells whether a push token may ship batch b: only as the
// machine (and user, if it names one) it was made for. A push token made
// before tokens named their machine speaks for none.
func (t Token) MayPush(b *PushBatch) error {
	const op = "push"
	switch {
	case t.Scope != ScopePush:
		return errorf(CodeInvalid, op, "this token's scope is %s, not push", t.Scope)
	case t.Machine == "":
		return errorf(CodeInvalid, op, "this push token names no machine (it was made before tokens did): make one per machine with tally token create --scope push --machine NAME")
	case b.Machine != t.Machine:
		return errorf(CodeInvalid, op, "this token pushes for machine %q, not %q: each machine pushes with its own token (tally token create --scope push --machine %s)", t.Machine, b.Machine, b.Machine)
	case t.User != "" && b.User != t.User:
		return errorf(CodeInvalid, op, "this token pushes for user %q, not %q", t.User, b.User)
	}
	return nil
}

// TokenKeeper keeps access tokens by id, each with the hash of its secret.
type TokenKeeper interface {
	// AddToken stores a new token; an id already stored is CodeConflict.
	AddToken(ctx context.Context, t Token, hash []byte) error
	// Tokens lists the tokens, oldest first.
	Tokens(ctx context.Context) ([]Token, error)
	// TokenHash returns a token and its secret's hash; an unknown id is
	// CodeNotFound.
	TokenHash(ctx context.Context, id string) (Token, []byte, error)
	// RevokeToken deletes the token whose id or name is ref and returns
	// it. No match is CodeNotFound; a name several tokens share is
	// CodeConflict.
	RevokeToken(ctx context.Context, ref string) (Token, error)
}

// PushBatch is what a machine's `tally push` ships to a team's store in one
// request: the records its local store committed between two of its change
// marks, From (exclusive) and To (inclusive). Stream names the pusher's
// local store (a new store, a new stream), so the marks of one stream only
// grow.
type PushBatch struct {
	Machine string `json:"machine"`
	User    string `json:"user"`
	Stream  string `json:"stream"`
	From    int64  `json:"from"`
	To      int64  `json:"to"`
	// Lines counts the source lines whose folding changed these records
	// since the previous batch (for figures only).
	Lines int64 `json:"lines,omitempty"`
	// Relays: the pusher asks for the decisions taken on the server on
	// its machine's requests and takes them home (Record.Relayed).
	Relays   bool     `json:"relays,omitempty"`
	Sessions []Record `json:"sessions"`
}

// PushAck is a store's answer to a PushBatch.
type PushAck struct {
	// Acked is the stream's mark the store holds everything up to. The
	// pusher goes on from it: past To when the batch was applied or was a
	// repeat, and back to it (Resend) when the store holds less than the
	// batch assumed.
	Acked int64 `json:"acked"`
	// Applied is how many records were written; 0 for a repeat.
	Applied int  `json:"applied"`
	Repeat  bool `json:"repeat,omitempty"`
	Resend  bool `json:"resend,omitempty"`
	// Refused names the records not written because their id belongs to
	// a session of another origin (another machine, or the team's own task
	// lists).
	Refused []string `json:"refused,omitempty"`
}

// Ingester is a store that takes pushed batches. Ingest is one transaction,
// idempotent by (machine, stream, mark): a batch whose To the stream's
// mark already reached is a Repeat and writes nothing; a batch whose From
// is past it writes nothing and asks for a Resend from the mark; any other
// writes its records, each stamped with the batch's machine and user, and
// moves the mark to To. A record whose id is held by a session of another
// origin is left alone (Refused). Marks set by hooks (HookKeeper) hold over
// pushed records as over committed ones.
type Ingester interface {
	Ingest(ctx context.Context, b PushBatch) (PushAck, error)
}

// MaxPushSessions bounds the records one pushed batch holds: a batch is
// one transaction on the team's store, and one that held a machine's
// whole history at once would hold the store for as long. tally push
// sends at most this many; a batch with more is refused whole.
const MaxPushSessions = 500

// CheckPush checks what every store requires of a batch before it writes
// anything: a machine, a stream, marks that do not go backwards, at most
// MaxPushSessions records, each with an id.
func CheckPush(b *PushBatch) error {
	const op = "push"
	switch {
	case len(b.Sessions) > MaxPushSessions:
		return errorf(CodeInvalid, op, "the batch holds %d sessions, more than the %d a batch may hold: send them in batches", len(b.Sessions), MaxPushSessions)
	case b.Machine == "":
		return errorf(CodeInvalid, op, "the batch names no machine")
	case b.Stream == "":
		return errorf(CodeInvalid, op, "the batch names no stream")
	case b.From < 0 || b.To < b.From:
		return errorf(CodeInvalid, op, "the batch's marks run from %d to %d; want 0 ≤ from ≤ to", b.From, b.To)
	}
	for i := range b.Sessions {
		if b.Sessions[i].ID == "" {
			return errorf(CodeInvalid, op, "session %d of the batch has no id; nothing was written", i)
		}
	}
	return nil
}

// Elector is a store shared by several processes (replicas of tally serve)
// that can elect one of them for a role, such as sending notifications,
// so the team gets each once rather than once per replica. It is the one
// part a store may lack (store/postgres has it): a caller asks with a type
// assertion, and a store without it is one process's, which leads always.
type Elector interface {
	// Lead campaigns for role until ctx ends. At most one process leads a
	// role at a time; when the leader dies another takes over.
	Lead(ctx context.Context, role string) Lease
}

// Lease is one process's campaign for a role.
type Lease interface {
	// Leading tells whether this process leads the role now.
	Leading() bool
	// Changes receives true when this process starts leading and false
	// when it stops; only the newest value waits.
	Changes() <-chan bool
}
