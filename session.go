package tally

import (
	"sort"
	"strings"
	"time"
)

// SchemaVersion is the version of the JSON form of Session. It changes when
// a field changes meaning or disappears; adding a field does not change it.
const SchemaVersion = 1

// Activity is what a session is doing now, derived from the last thing its
// log said and how long ago.
type Activity uint8

const (
	ActivityWorking Activity = iota
	ActivityNeedsInput
	ActivityIdle
	ActivityEnded
)

var activityNames = [...]string{
	ActivityWorking:    "working",
	ActivityNeedsInput: "needs_input",
	ActivityIdle:       "idle",
	ActivityEnded:      "ended",
}

func (a Activity) String() string {
	if int(a) < len(activityNames) {
		return activityNames[a]
	}
	return "unknown"
}

func (a Activity) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

func (a *Activity) UnmarshalText(b []byte) error {
	v, err := ParseActivity(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// ParseActivity parses the words String returns, and "needs-input".
func ParseActivity(s string) (Activity, error) {
	switch s {
	case "working":
		return ActivityWorking, nil
	case "needs_input", "needs-input":
		return ActivityNeedsInput, nil
	case "idle":
		return ActivityIdle, nil
	case "ended":
		return ActivityEnded, nil
	}
	return 0, errorf(CodeInvalid, "ParseActivity", "unknown activity %q (want working, needs_input, idle or ended)", s)
}

// Thresholds of DeriveActivity.
const (
	// IdleAfter: a working session silent this long is idle (stalled).
	IdleAfter = 2 * time.Minute
	// EndedAfter: any session silent this long is over.
	EndedAfter = 30 * time.Minute
	// TurnGrace: a turn end the agent did not say was over (a reply
	// written before its tool calls, as Gemini CLI writes it) counts only
	// once the session has been silent this long.
	TurnGrace = 15 * time.Second
)

// DeriveActivity is the pure rule behind Session.Activity.
func DeriveActivity(sig Signal, last, now time.Time) Activity {
	if sig == SignalEnded {
		return ActivityEnded
	}
	since := now.Sub(last)
	if last.IsZero() || since > EndedAfter {
		return ActivityEnded
	}
	switch sig {
	case SignalWaiting, SignalAsking:
		return ActivityNeedsInput
	case SignalNone, SignalWorking, SignalEnded:
	}
	if since > IdleAfter {
		return ActivityIdle
	}
	return ActivityWorking
}

// Record is a session as stored: facts only, nothing derived. Session
// derives the rest.
type Record struct {
	ID           string    `json:"id"`
	Agent        Agent     `json:"agent"`
	Project      string    `json:"project,omitempty"`
	Title        string    `json:"title,omitempty"`
	TitleWeak    bool      `json:"titleWeak,omitempty"`
	StartedAt    time.Time `json:"startedAt"`
	LastActivity time.Time `json:"lastActivity"`
	Signal       Signal    `json:"signal"`
	// Tentative: Signal is a turn end the agent did not say was over; it
	// counts from TurnGrace after LastActivity on (SignalAt).
	Tentative bool `json:"tentative,omitempty"`
	// ListTools and ListToolsHint: see Meta.
	ListTools     ListTools `json:"listTools,omitempty"`
	ListToolsHint string    `json:"listToolsHint,omitempty"`
	// Lists: "" is the main agent's list, other keys are sub-agents'.
	Lists map[string][]Item `json:"lists,omitempty"`
	// Names are the sub-agents' own names (their descriptions) by list
	// key, where their logs say.
	Names   map[string]string `json:"names,omitempty"`
	Markers []Marker          `json:"markers,omitempty"`
	// Runtime counts the tool calls the runtime list (Lists[RuntimeList])
	// let go: see MaxRuntime.
	Runtime RuntimeCount `json:"runtime,omitzero"`
	Stats   Stats        `json:"stats"`
	// TaskList is set on the sessions that are Tally's own task lists.
	TaskList *OwnList `json:"taskList,omitempty"`
	// Shared is set on a record that is a task list rather than a
	// session: read from the list's own files with no session log of its
	// id (a list several sessions share, as Claude Code's
	// CLAUDE_CODE_TASK_LIST_ID and agent teams make, or one whose
	// session's log is gone). Its id is the list's.
	Shared bool `json:"shared,omitempty"`
	// Writers are the other sessions whose logs show them using this
	// record's task list.
	Writers []string `json:"writers,omitempty"`
	// TasksIn names the record whose task list this session's tasks are
	// kept in, when that list is not its own: they are shown there, once,
	// and not here.
	TasksIn string `json:"tasksIn,omitempty"`
	// Flags are what detection found as of the last change, each since
	// when; stalled is not among them, since the clock alone makes it
	// (StallAt). Session derives the flags at a given time.
	Flags Flags `json:"flags,omitzero"`
	// StallAt is when the session counts as stalled if nothing new comes:
	// zero when it is not working.
	StallAt time.Time `json:"stallAt,omitzero"`
	// Machine and User say where a record pushed to a team's store came
	// from (tally push); both are empty for what the store's own indexer
	// and task tools wrote.
	Machine string `json:"machine,omitempty"`
	User    string `json:"user,omitempty"`
	// Relayed: the tally push that pushed the record takes decisions on
	// its machine's requests home (PushBatch.Relays), so a team server may
	// take one for it. Set by the store from the batch, never by a fold.
	Relayed bool `json:"relayed,omitempty"`
	// Requests are the session's newest requests to its user that Tally
	// lets be answered from elsewhere (a permission, a plan), newest
	// first: the open one, and the decisions before it. The store sets
	// them (RequestKeeper); a fold never does.
	Requests []Request `json:"requests,omitempty"`
}

// OwnList says which of Tally's own task lists (kept through tally mcp) a
// session is: its name, as `tally tasks NAME` takes it, and whether its
// plan waits for the person's approval, without which its tools refuse
// execution.
type OwnList struct {
	Name             string `json:"name"`
	AwaitingApproval bool   `json:"awaitingApproval,omitempty"`
}

// Empty tells a record its files said nothing about: no list, no time,
// no title or project, no marker. Such files (random bytes, a log with no
// line an adapter could use) make no session: there is nothing to show.
func (r *Record) Empty() bool {
	return len(r.Lists) == 0 && r.StartedAt.IsZero() && r.LastActivity.IsZero() &&
		r.Title == "" && r.Project == "" && len(r.Markers) == 0
}

// Stats counts what reading a session's logs met. Every line that could not
// be used is counted somewhere here.
type Stats struct {
	Files     int   `json:"files"`
	Bytes     int64 `json:"bytes"`
	Lines     int64 `json:"lines"`
	Parsed    int64 `json:"parsed"`
	Malformed int64 `json:"malformed"`
	Orphans   int64 `json:"orphans"`
	Resets    int64 `json:"resets"`
	// Repaired counts values used only after a repair: text that was not
	// UTF-8, times in the future (see FileState.Apply).
	Repaired int64 `json:"repaired"`
	// Blank counts items that came without text: skipped (see HasText).
	Blank int64 `json:"blank"`
}

func (s *Stats) Add(o Stats) {
	s.Files += o.Files
	s.Bytes += o.Bytes
	s.Lines += o.Lines
	s.Parsed += o.Parsed
	s.Malformed += o.Malformed
	s.Orphans += o.Orphans
	s.Resets += o.Resets
	s.Repaired += o.Repaired
	s.Blank += o.Blank
}

// KeptNoList tells a session whose agent had no tool to keep a list: a
// surface says so, with ListToolsHint, instead of "no list yet".
func (s *Session) KeptNoList() bool {
	if s.ListTools != ListToolsNone || len(s.Items) > 0 {
		return false
	}
	for i := range s.SubAgents {
		if s.SubAgents[i].ID != RuntimeList { // the runtime's calls are no list
			return false
		}
	}
	return true
}

// Label is how surfaces name the sub-agent: its name, else its id.
func (s *SubAgentList) Label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// Session is the JSON form every surface shares (CLI --json, watch, web,
// MCP). See SessionJSON.md.
type Session struct {
	Schema       int        `json:"schema"`
	ID           string     `json:"id"`
	Agent        Agent      `json:"agent"`
	Project      string     `json:"project,omitempty"`
	Title        string     `json:"title,omitempty"`
	StartedAt    time.Time  `json:"startedAt"`
	LastActivity time.Time  `json:"lastActivity"`
	Activity     Activity   `json:"activity"`
	Progress     Progress   `json:"progress"`
	Items        []ItemView `json:"items"`
	// ListTools says whether the agent had a tool to keep a list:
	// "offered", "none" (it kept none, and ListToolsHint says how to
	// give it one), or left out when its log does not say.
	ListTools     ListTools      `json:"listTools,omitempty"`
	ListToolsHint string         `json:"listToolsHint,omitempty"`
	SubAgents     []SubAgentList `json:"subAgents,omitempty"`
	// Runtime is what the session's tool calls say it does (the runtime
	// list, RuntimeList, among SubAgents): absent when it made none.
	Runtime  *RuntimeProgress `json:"runtime,omitempty"`
	Markers  []Marker         `json:"markers,omitempty"`
	Stats    Stats            `json:"stats"`
	TaskList *OwnList         `json:"taskList,omitempty"`
	Shared   bool             `json:"shared,omitempty"`
	Writers  []string         `json:"writers,omitempty"`
	TasksIn  string           `json:"tasksIn,omitempty"`
	Machine  string           `json:"machine,omitempty"`
	User     string           `json:"user,omitempty"`
	// Relayed is Record.Relayed: a decision on the team's server reaches
	// the machine's hook.
	Relayed bool `json:"relayed,omitempty"`
	// Flags are the conditions that call a person back, each with when it
	// began: {"needs_input": "2026-11-22T14:03:00Z"}; {} when none.
	Flags Flags `json:"flags"`
	// BlockedReason says why the session is blocked (Blocked), while
	// Flags has blocked: "Update README waits on Add unit test".
	BlockedReason string `json:"blockedReason,omitempty"`
	// StallAt is when a working session counts as stalled if nothing new
	// comes, so that a page can age it between updates; absent when it is
	// not working.
	StallAt time.Time `json:"stallAt,omitzero"`
	// Requests are the session's newest requests to its user (a
	// permission, a plan), newest first, each saying whether it is open.
	Requests []RequestView `json:"requests,omitempty"`
}

// RequestView is a request as surfaces show it: open or not as of the
// time the view was derived.
type RequestView struct {
	Request
	Open bool `json:"open"`
}

// SignalAt is the record's signal as it counts at time now: a tentative
// turn end (waiting or asking) is still work until TurnGrace has passed
// since the last activity, so that a reply whose tool calls are written a
// moment later never shows as a question for the person.
func (r *Record) SignalAt(now time.Time) Signal {
	if r.settling(now) {
		return SignalWorking
	}
	return r.Signal
}

func (r *Record) settling(now time.Time) bool {
	return r.Tentative && r.Signal.TurnEnd() && now.Sub(r.LastActivity) < TurnGrace
}

// NextChange is the next time after now at which the record's derived
// facts change with nothing new: it stalls (StallAt), or a tentative turn
// end comes to count (SignalAt); zero if none will.
func (r *Record) NextChange(now time.Time) time.Time {
	var next time.Time
	if r.StallAt.After(now) {
		next = r.StallAt
	}
	if r.settling(now) {
		if at := r.LastActivity.Add(TurnGrace); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// FlagsAt derives the session's flags at time now from what detection
// found and what the record says now:
//   - needs input while the signal is SignalAsking as it counts now
//     (SignalAt: a tentative turn end counts after TurnGrace; a hook's
//     mark sets it on the stored record), since detection saw the request,
//     else since the last activity; never otherwise, as the signal is the
//     newest word;
//   - stalled from StallAt on, while the signal says neither that the
//     user is awaited nor that the session ended, until it ends by the
//     clock (EndedAfter);
//   - blocked, since detection saw it, only while Blocked says so of the
//     list as it is now (a record stored under an older rule keeps no
//     flag the rule does not give).
func (r *Record) FlagsAt(now time.Time) Flags {
	f := r.Flags.Without(FlagStalled)
	if f.Has(FlagBlocked) {
		if _, ok := r.Blocked(); !ok {
			f = f.Without(FlagBlocked)
		}
	}
	sig := r.SignalAt(now)
	if sig == SignalAsking {
		if !f.Has(FlagNeedsInput) {
			f = f.With(FlagNeedsInput, r.LastActivity)
		}
	} else {
		f = f.Without(FlagNeedsInput)
	}
	if !r.StallAt.IsZero() && !now.Before(r.StallAt) && !stopped(sig) &&
		DeriveActivity(sig, r.LastActivity, now) != ActivityEnded {
		f = f.With(FlagStalled, r.StallAt)
	}
	return f
}

// Blocked is Blocked of the session's main list and its markers: why the
// agent cannot go on.
func (r *Record) Blocked() (why string, blocked bool) {
	return Blocked(r.Lists[""], r.Markers)
}

// stopped: the newest word is that the user is awaited or the session is
// over, so it cannot be stalled.
func stopped(sig Signal) bool {
	return sig.TurnEnd() || sig == SignalEnded
}

// TallyListPrefix starts the key of a session's Tally list among its
// lists (and the id of a Tally list's own record, tasks.SessionPrefix):
// the list `tally mcp` keeps for the session, shown inside it beside its
// sub-agents' lists.
const TallyListPrefix = "tally:"

// SubAgentList is one sub-agent's own list within a session, or the
// session's Tally list (Tally).
type SubAgentList struct {
	ID string `json:"id"`
	// Tally marks the session's Tally list (its id tally:NAME): the list
	// `tally mcp` keeps for the session, not a sub-agent's.
	Tally bool `json:"tally,omitempty"`
	// Name is the sub-agent's own description ("Audit string helpers"),
	// "" when its log does not say: surfaces show it instead of the id.
	Name     string     `json:"name,omitempty"`
	Progress Progress   `json:"progress"`
	Items    []ItemView `json:"items"`
}

// Session derives the session's JSON form from its record at time now.
func (r *Record) Session(now time.Time) Session {
	items := DeriveBlocked(r.Lists[""])
	sig := r.SignalAt(now)
	s := Session{
		Schema: SchemaVersion, ID: r.ID, Agent: r.Agent, Project: r.Project, Title: r.Title,
		StartedAt: r.StartedAt, LastActivity: r.LastActivity,
		Activity: DeriveActivity(sig, r.LastActivity, now),
		Progress: ProgressOf(items), Items: items, Markers: r.Markers, Stats: r.Stats,
		ListTools: r.ListTools, ListToolsHint: r.ListToolsHint,
		Shared: r.Shared, Writers: append([]string(nil), r.Writers...), TasksIn: r.TasksIn,
		Machine: r.Machine, User: r.User, Relayed: r.Relayed,
		Flags: r.FlagsAt(now),
	}
	if s.Activity != ActivityEnded && !stopped(sig) {
		s.StallAt = r.StallAt
	}
	if s.Flags.Has(FlagBlocked) {
		s.BlockedReason, _ = r.Blocked()
	}
	for _, q := range r.Requests {
		s.Requests = append(s.Requests, RequestView{Request: q, Open: q.Open(now)})
	}
	if r.TaskList != nil {
		own := *r.TaskList
		s.TaskList = &own
	}
	keys := make([]string, 0, len(r.Lists))
	for k := range r.Lists {
		if k != "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := DeriveBlocked(r.Lists[k])
		if k == RuntimeList {
			s.Runtime = RuntimeOf(r.Lists[k], r.Runtime)
		}
		sub := SubAgentList{ID: k, Tally: strings.HasPrefix(k, TallyListPrefix), Name: r.Names[k], Progress: ProgressOf(v), Items: v}
		if sub.Tally {
			// The session's Tally list is the session's work too.
			s.Progress.add(sub.Progress)
		}
		s.SubAgents = append(s.SubAgents, sub)
	}
	return s
}

// LocalProject is the project folder on this machine whose files may be
// read for the session (its plan): Project, unless the session was pushed
// from a machine (Machine set). A pushed session's folder is a folder of
// another machine, named by whoever pushed it: it must never point the
// server at its own disk.
func (s *Session) LocalProject() string {
	if s.Machine != "" {
		return ""
	}
	return s.Project
}

// add counts o's items in p, whose current step stays first.
func (p *Progress) add(o Progress) {
	p.Done += o.Done
	p.Total += o.Total
	p.InProgress += o.InProgress
	p.Blocked += o.Blocked
	if p.Current == nil {
		p.Current = o.Current
	}
}
