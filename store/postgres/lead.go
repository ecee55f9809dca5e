package postgres

import (
	"context"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
)

// The leader lease's timing.
const (
	// campaignEvery is how often a process that does not lead tries the
	// lock: how long a role goes without a leader after its leader died.
	campaignEvery = time.Second
	// leaseCheck is how often the leader pings its lock's connection, and
	// leaseTimeout how long a ping may take: a leader whose connection is
	// gone stops leading within their sum, before the server lets the lock
	// go (see leaderKeepalive), so two never lead at once.
	leaseCheck   = 2 * time.Second
	leaseTimeout = 2 * time.Second
)

// leaderKeepalive makes the server notice a leader's connection the
// network lost within about 5+2×3 = 11 s, and release its lock then; a
// leader killed outright has its connection closed by its system, and the
// lock goes at once.
var leaderKeepalive = map[string]string{
	"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "2", "tcp_keepalives_count": "3",
	"application_name": "tally lead",
}

// leadKey is the first half of a role's advisory lock key: tally's own
// namespace, apart from the migration lock's.
const leadKey = 742685

// Lead campaigns for role until ctx ends: of all the processes on this
// database that call it with the same role, at most one leads at a time.
// The leader holds a session-level advisory lock on a connection of its
// own; it leads until that connection fails (it then stops at once, and
// campaigns again) or ctx ends (the lock is released). The others try the
// lock every second, so when a leader dies — its connection closes with
// it — another leads within about a second.
//
// It is how replicas send notifications once per team, not once each: a
// replica notifies only while it leads the role "notify".
func (s *Store) Lead(ctx context.Context, role string) tally.Lease {
	cfg := s.w.cfg.Copy()
	for k, v := range leaderKeepalive {
		cfg.RuntimeParams[k] = v
	}
	h := fnv.New32a()
	h.Write([]byte(role))
	l := &lease{changes: make(chan bool, 1), key: int32(h.Sum32())}
	go l.run(ctx, cfg)
	return l
}

// lease is one process's campaign for a role.
type lease struct {
	key     int32
	leading atomic.Bool
	mu      sync.Mutex
	changes chan bool
}

func (l *lease) Leading() bool { return l.leading.Load() }

func (l *lease) Changes() <-chan bool { return l.changes }

// set records whether this process leads and tells Changes, keeping only
// the newest value waiting.
func (l *lease) set(on bool) {
	if l.leading.Swap(on) == on {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.changes:
	default:
	}
	l.changes <- on
}

func (l *lease) run(ctx context.Context, cfg *pgx.ConnConfig) {
	for ctx.Err() == nil {
		l.hold(ctx, cfg)
		select {
		case <-ctx.Done():
		case <-time.After(campaignEvery):
		}
	}
}

// hold connects, tries the lock until it has it, then keeps it while the
// connection answers. It returns when the connection fails or ctx ends;
// closing the connection releases the lock.
func (l *lease) hold(ctx context.Context, cfg *pgx.ConnConfig) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return
	}
	defer func() {
		// Stop leading before the lock goes: never two leaders at once.
		l.set(false)
		cctx, cancel := context.WithTimeout(context.Background(), leaseTimeout)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	for ctx.Err() == nil {
		var got bool
		qctx, cancel := context.WithTimeout(ctx, leaseTimeout)
		err := conn.QueryRow(qctx, "SELECT pg_try_advisory_lock($1, $2)", int32(leadKey), l.key).Scan(&got)
		cancel()
		if err != nil {
			return
		}
		if got {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(campaignEvery):
		}
	}
	l.set(ctx.Err() == nil)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(leaseCheck):
		}
		pctx, cancel := context.WithTimeout(ctx, leaseTimeout)
		err := conn.Ping(pctx)
		cancel()
		if err != nil {
			return
		}
	}
}
