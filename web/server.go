package web

import (
	"context"
	"log"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/tasks"
)

// Defaults of Options.
const (
	defaultHeartbeat     = 15 * time.Second
	defaultRefresh       = 15 * time.Second
	defaultReplay        = 1024
	defaultClientBuffer  = 256
	defaultWriteTimeout  = 10 * time.Second
	defaultSnapshotLimit = 200
	defaultChangeBuffer  = 4096
)

// Indexer is what the server needs of the indexer: the committed changes
// to sessions, each subscriber with its own bounded buffer and count of
// changes dropped for it (*index.Indexer is one).
type Indexer interface {
	Subscribe(buf int) *broker.Subscription[index.Change]
}

// Options configure a Server. Indexer and Store are required.
type Options struct {
	Indexer Indexer
	Store   tally.Store
	// Token, when set, is required of every request (Authorization:
	// Bearer, or the cookie /?token= sets) and allows everything.
	Token string
	// Tokens are the store's tokens (tally token create), each allowing
	// its scope. They are checked when tokens are required: with Token, or
	// with RequireToken. Without either only loopback Host names are
	// served, and nothing asks for a token.
	Tokens       tally.TokenKeeper
	RequireToken bool
	// Ingest takes the batches tally push sends (POST /api/push).
	Ingest tally.Ingester
	Now    func() time.Time
	// Home is the home directory of the user the server runs as. Projects
	// under it, and only those, are named from ~ (package projectname).
	Home string
	// ErrorLog, when set, logs the failures of the server's own (a 5xx)
	// whole, with the operations that met them; a client is answered in a
	// person's words (tally.UserMessage).
	ErrorLog *log.Logger
	// Diagnostics counts the problems the indexer reported (for Stats).
	Diagnostics func() int64
	// Extra handlers are mounted on the same mux, behind the same token
	// check and headers; keys are ServeMux patterns ("/mcp").
	Extra map[string]http.Handler
	// Lists, when set, are Tally's own task lists, whose plans the page
	// may approve (POST /api/tasks/{name}/approve).
	Lists tasks.Updater
	// Plans, when set, are the plans of the sessions' projects: snapshots
	// carry them, /api/plans lists them, and the stream tells their
	// changes (plan_updated, plan_removed).
	Plans Plans
	// Requests, when set, are the requests agents ask of their users,
	// which the page may decide (POST /api/requests/{id}).
	Requests tally.RequestKeeper
	// Hooks, when set, answers agents' hook calls posted to
	// /api/hook/{agent}, as `tally hook AGENT` answers them on stdin.
	Hooks Hooks

	// Heartbeat is the period of the ": ping" comment on idle streams.
	Heartbeat time.Duration
	// Refresh is how often the activity of live sessions is re-derived.
	Refresh time.Duration
	// Replay is how many recent events a reconnecting client can resume.
	Replay int
	// ClientBuffer is how many events may wait for one client before it
	// is disconnected.
	ClientBuffer int
	// WriteTimeout bounds one write to a client: a client that stops
	// reading is cut off after it.
	WriteTimeout time.Duration
	// SnapshotLimit bounds the sessions of a snapshot: every session that
	// has not ended, and the most recent others up to this many.
	SnapshotLimit int
	// ChangeBuffer is the hub's backlog of indexer changes. Past it the
	// broker drops changes for the hub, which then resynchronises every
	// client from the store.
	ChangeBuffer int

	// The limits of HTTPServer's connections (see HTTPServer).
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
	// MaxConnsPerClient bounds the open connections of one client address.
	// Behind a reverse proxy every client has the proxy's address: raise
	// it there.
	MaxConnsPerClient int
	// MaxStreams bounds the open event streams; one more is answered 503
	// with Retry-After.
	MaxStreams int
	// MaxBody bounds a request body (an MCP call), in bytes.
	MaxBody int64
}

// Server serves the API, the event stream and the page. Run must be
// running for the stream to deliver anything.
type Server struct {
	o     Options
	hub   *hub
	stats counters
	snap  snapshotCache
	mux   *http.ServeMux
	conns connLimit
	// streams counts the event streams open or being opened, against
	// MaxStreams.
	streams atomic.Int64
	// planSub follows the plans' changes, when there are Plans.
	planSub *broker.Subscription[planner.Change]
	auth    *authority
	push    pushCounters
	// ingests holds a slot for each batch being applied (maxIngests).
	ingests chan struct{}
	// decided wakes the asks for decisions (GET /api/push/decisions).
	decided decided
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// counters are the figures of Stats, updated without locks.
type counters struct {
	clients      atomic.Int64
	eventsSent   atomic.Int64
	snapshots    atomic.Int64
	replays      atomic.Int64
	drops        atomic.Int64
	resyncs      atomic.Int64
	encodeErrors atomic.Int64
	refusedSSE   atomic.Int64
}

// Stats is GET /api/stats.
type Stats struct {
	// Clients is the number of open event streams.
	Clients int64 `json:"clients"`
	// EventsPublished is how many events the hub produced this run.
	EventsPublished uint64 `json:"eventsPublished"`
	// EventsSent counts events written to clients (replays included).
	EventsSent int64 `json:"eventsSent"`
	Snapshots  int64 `json:"snapshots"`
	Replays    int64 `json:"replays"`
	// Drops counts clients disconnected because they fell too far behind.
	Drops int64 `json:"drops"`
	// IndexerDrops counts changes the indexer could not hand to the
	// server; each led to a resync (Resyncs) of every client.
	IndexerDrops int64 `json:"indexerDrops"`
	Resyncs      int64 `json:"resyncs"`
	// EncodeErrors counts sessions that could not be encoded (a timestamp
	// JSON cannot hold, such as a year past 9999) and were not sent.
	EncodeErrors int64 `json:"encodeErrors"`
	// ConnsRefused counts connections closed unserved because their
	// client address had MaxConnsPerClient open already.
	ConnsRefused int64 `json:"connsRefused"`
	// StreamsRefused counts event streams refused (503) at MaxStreams.
	StreamsRefused int64 `json:"streamsRefused"`
	// Push counts what tally push sent: batches, records written, the
	// changed lines they stand for, batches that were repeats, records
	// refused (their id belongs to another origin).
	Push PushStats `json:"push"`
	// Diagnostics counts the problems with the input the indexer met.
	Diagnostics int64  `json:"diagnostics"`
	LastEventID string `json:"lastEventId"`
}

// PushStats are the push figures of Stats.
type PushStats struct {
	Batches int64 `json:"batches"`
	Records int64 `json:"records"`
	Lines   int64 `json:"lines"`
	Repeats int64 `json:"repeats"`
	Refused int64 `json:"refused"`
}

// New builds a Server. It subscribes to the indexer at once, so that no
// change committed between New and Run is missed.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = defaultHeartbeat
	}
	if o.Refresh <= 0 {
		o.Refresh = defaultRefresh
	}
	if o.Replay <= 0 {
		o.Replay = defaultReplay
	}
	if o.ClientBuffer <= 0 {
		o.ClientBuffer = defaultClientBuffer
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = defaultWriteTimeout
	}
	if o.ChangeBuffer <= 0 {
		o.ChangeBuffer = defaultChangeBuffer
	}
	if o.SnapshotLimit <= 0 {
		o.SnapshotLimit = defaultSnapshotLimit
	}
	o.ReadHeaderTimeout = orDefault(o.ReadHeaderTimeout, defaultReadHeaderTimeout)
	o.ReadTimeout = orDefault(o.ReadTimeout, defaultReadTimeout)
	o.IdleTimeout = orDefault(o.IdleTimeout, defaultIdleTimeout)
	o.MaxConnsPerClient = orDefault(o.MaxConnsPerClient, defaultMaxConnsPerClient)
	o.MaxStreams = orDefault(o.MaxStreams, defaultMaxStreams)
	o.MaxBody = orDefault(o.MaxBody, defaultMaxBody)
	s := &Server{o: o, conns: connLimit{max: o.MaxConnsPerClient}, ingests: make(chan struct{}, maxIngests)}
	s.auth = newAuthority(&s.o)
	s.hub = newHub(&s.o, &s.stats)
	if s.relays() {
		s.hub.changed = s.decidedElsewhere
	}
	if o.Plans != nil {
		// Subscribed now, as the hub is to the indexer: no change between
		// New and Run is missed.
		s.planSub = o.Plans.Subscribe(planBuffer)
	}
	s.mux = s.routes()
	return s
}

// Run runs the hub until ctx ends; then every event stream ends, so that
// http.Server.Shutdown does not wait for them.
func (s *Server) Run(ctx context.Context) error {
	if s.planSub != nil {
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); s.feedPlans(fctx, s.planSub, s.hub.plans) }()
		defer func() { cancel(); <-done }()
	}
	return s.hub.run(ctx)
}

// Handler is the whole site: API, stream, page and Extra, behind the
// token check and security headers.
func (s *Server) Handler() http.Handler { return s.guard(s.mux) }

// Stats reads the counters.
func (s *Server) Stats() Stats {
	st := Stats{
		Clients:         s.stats.clients.Load(),
		EventsPublished: s.hub.published(),
		EventsSent:      s.stats.eventsSent.Load(),
		Snapshots:       s.stats.snapshots.Load(),
		Replays:         s.stats.replays.Load(),
		Drops:           s.stats.drops.Load(),
		IndexerDrops:    s.hub.sub.Dropped(),
		Resyncs:         s.stats.resyncs.Load(),
		EncodeErrors:    s.stats.encodeErrors.Load(),
		ConnsRefused:    s.conns.refused.Load(),
		StreamsRefused:  s.stats.refusedSSE.Load(),
		LastEventID:     strconv.FormatUint(s.hub.latest.Load(), 10),
		Push: PushStats{Batches: s.push.batches.Load(), Records: s.push.records.Load(), Lines: s.push.lines.Load(),
			Repeats: s.push.repeats.Load(), Refused: s.push.refused.Load()},
	}
	if s.o.Diagnostics != nil {
		st.Diagnostics = s.o.Diagnostics()
	}
	return st
}

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/sessions", s.listSessions)
	mux.HandleFunc("GET /api/sessions/{id}", s.getSession)
	mux.HandleFunc("GET /api/events", s.events)
	mux.HandleFunc("GET /api/plans", s.listPlans)
	if s.o.Lists != nil {
		mux.HandleFunc("POST /api/tasks/{name}/approve", s.approvePlan)
	}
	if s.o.Requests != nil {
		mux.HandleFunc("POST /api/requests/{id}", s.decideRequest)
	}
	if s.o.Hooks != nil {
		mux.HandleFunc("POST /api/hook/{agent}", s.hook)
	}
	if s.o.Ingest != nil {
		mux.HandleFunc("POST /api/push", s.ingest)
	}
	if s.relays() {
		mux.HandleFunc("GET /api/push/decisions", s.pushDecisions)
	}
	mux.HandleFunc("POST /api/login", s.loginAPI)
	mux.HandleFunc("GET /api/stats", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusOK, s.Stats()) })
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	mux.HandleFunc("GET /{$}", serveIndex)
	mux.Handle("GET /static/", staticHandler())
	for pattern, h := range s.o.Extra {
		mux.Handle(pattern, h)
	}
	return mux
}

// snapshotCache shares one encoded snapshot among the clients that join
// at the same event id within a second: a thousand browsers reconnecting
// after a restart cost one store query, not a thousand.
type snapshotCache struct {
	mu   sync.Mutex
	id   uint64
	at   time.Time
	data []byte
}
