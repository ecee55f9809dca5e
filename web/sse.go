package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/planner"
)

// retryFrame tells EventSource how long to wait before reconnecting.
const retryFrame = "retry: 2000\n\n"

var pingFrame = []byte(": ping\n\n")

// snapshotData is the data of a snapshot event.
type snapshotData struct {
	Sessions []tally.Session `json:"sessions"`
	// Projects names every project the hub names and those of Sessions,
	// among one another (projects events change them later).
	Projects map[string]string `json:"projects"`
	// Plans are the plans of the sessions' projects that keep one.
	Plans      []planner.View `json:"plans"`
	Now        time.Time      `json:"now"`
	Thresholds thresholds     `json:"thresholds"`
	// Relay is sessionList's.
	Relay bool `json:"relay,omitempty"`
}

// events is GET /api/events. The stream starts with what the client
// missed — a replay after its Last-Event-ID, or a snapshot — then follows
// the hub until the client leaves, falls behind, or the server stops.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if n := s.streams.Add(1); n > int64(s.o.MaxStreams) {
		s.streams.Add(-1)
		s.stats.refusedSSE.Add(1)
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the server has %d event streams open, the most it serves; try again later", s.o.MaxStreams))
		return
	}
	defer s.streams.Add(-1)
	after, hasAfter := parseID(r.Header.Get("Last-Event-ID"))
	if !hasAfter {
		// A page that read /api/sessions may start the stream where
		// that list stood (EventSource cannot set the header itself).
		after, hasAfter = parseID(r.URL.Query().Get("lastEventId"))
	}
	j, err := s.hub.subscribe(ctx, after, hasAfter)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, tally.UserMessage(err))
		return
	}
	defer s.hub.unsubscribe(j.c)

	buf := []byte(retryFrame)
	if j.snapshot {
		data, err := s.snapshot(ctx, j.at)
		if err != nil {
			s.fail(w, err)
			return
		}
		buf = appendFrame(buf, j.at, eventSnapshot, data)
		s.stats.snapshots.Add(1)
	} else {
		s.stats.replays.Add(1)
	}
	for _, ev := range j.replay {
		buf = append(buf, ev.frame...)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // a proxy in front must not hold events back
	w.WriteHeader(http.StatusOK)

	out := stream{w: w, rc: http.NewResponseController(w), timeout: s.o.WriteTimeout}
	if out.write(buf) != nil {
		return
	}
	s.stats.eventsSent.Add(int64(len(j.replay)))
	ping := time.NewTicker(s.o.Heartbeat)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ping.C:
			if out.write(pingFrame) != nil {
				return
			}
		case ev, ok := <-j.c.ch:
			if !ok {
				return // fell behind, or the server stops: the client reconnects
			}
			// Whatever else is already waiting goes in the same write.
			buf = append(buf[:0], ev.frame...)
			n := int64(1)
			for more := true; more; {
				select {
				case ev, ok := <-j.c.ch:
					if !ok {
						more = false
						break
					}
					buf = append(buf, ev.frame...)
					n++
				default:
					more = false
				}
			}
			if out.write(buf) != nil {
				return
			}
			s.stats.eventsSent.Add(n)
		}
	}
}

// stream writes frames and flushes them at once, each write bounded by a
// deadline so that a client that stopped reading is let go.
type stream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (s stream) write(b []byte) error {
	if err := s.rc.SetWriteDeadline(time.Now().Add(s.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// snapshot encodes the sessions a page starts from, standing for every
// event up to id. Clients joining at the same id within a second share
// one encoding.
func (s *Server) snapshot(ctx context.Context, id uint64) ([]byte, error) {
	c := &s.snap
	c.mu.Lock()
	defer c.mu.Unlock()
	now := s.o.Now()
	if c.data != nil && c.id == id && now.Sub(c.at).Abs() < time.Second {
		return c.data, nil
	}
	recs, err := s.o.snapshotRecords(ctx, now)
	if err != nil {
		return nil, err
	}
	d := snapshotData{Sessions: make([]tally.Session, 0, len(recs)), Now: now, Thresholds: activityThresholds, Relay: s.relays()}
	paths := s.hub.knownProjects()
	for i := range recs {
		d.Sessions = append(d.Sessions, recs[i].Session(now))
		paths = append(paths, recs[i].Project)
	}
	d.Projects = projectNames(s.o.Home, paths)
	d.Plans = s.views(d.Sessions)
	data, err := json.Marshal(d)
	if err != nil {
		s.stats.encodeErrors.Add(1)
		return nil, tally.Errorf(tally.CodeInternal, "snapshot", "encode: %v", err)
	}
	c.id, c.at, c.data = id, now, data
	return data, nil
}

// snapshotRecords are the SnapshotLimit most recent sessions, or every
// session that has not ended when there are more of those.
func (o *Options) snapshotRecords(ctx context.Context, now time.Time) ([]tally.Record, error) {
	limit := o.SnapshotLimit
	recs, err := o.Store.Records(ctx, tally.SessionFilter{Limit: limit})
	if err != nil || len(recs) < limit {
		return recs, err
	}
	if since := now.Add(-tally.EndedAfter); !recs[len(recs)-1].LastActivity.Before(since) {
		return o.Store.Records(ctx, tally.SessionFilter{Since: since})
	}
	return recs, nil
}
