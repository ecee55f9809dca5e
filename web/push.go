package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/tallyhq/tally"
)

// Bounds of POST /api/push. A pusher's batch is at most a few megabytes of
// JSON before compression; one session larger than MaxPushBatch on its own
// cannot be pushed, and the pusher skips it saying so.
const (
	// MaxPushBody bounds the body as sent (compressed).
	MaxPushBody = 8 << 20
	// MaxPushBatch bounds the body once decompressed: a small body that
	// inflates past it (a zip bomb) is refused after MaxPushBatch bytes,
	// having cost no more memory than that.
	MaxPushBatch = 64 << 20
	// maxIngests bounds the batches decoded and applied at once, so the
	// memory pushes take is bounded whatever the number of machines;
	// commits take turns in the store anyway.
	maxIngests = 4
)

// ErrPushTooLarge is DecodePush's error for a body over its bounds.
var ErrPushTooLarge = errors.New("the batch is larger than the server takes")

// ErrPushTooMany is DecodePush's error for a batch of more sessions than
// tally.MaxPushSessions: refused whole, nothing written.
var ErrPushTooMany = errors.New("the batch holds more sessions than a batch may")

// DecodePush reads a pushed batch: encoding is the request's
// Content-Encoding ("" or "identity" for none, "gzip"). The body is read
// through the decompressor up to MaxPushBatch bytes and no further.
func DecodePush(body io.Reader, encoding string) (tally.PushBatch, error) {
	var r io.Reader
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		r = body
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			return tally.PushBatch{}, fmt.Errorf("the body is not gzip: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return tally.PushBatch{}, errUnsupportedEncoding
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxPushBatch+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return tally.PushBatch{}, ErrPushTooLarge
	case err != nil:
		return tally.PushBatch{}, fmt.Errorf("reading the body: %w", err)
	case len(data) > MaxPushBatch:
		return tally.PushBatch{}, ErrPushTooLarge
	}
	var b tally.PushBatch
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&b); err != nil {
		return tally.PushBatch{}, fmt.Errorf("the batch is not JSON of a push: %w", err)
	}
	if dec.More() {
		return tally.PushBatch{}, errors.New("the body holds more than one batch")
	}
	if n := len(b.Sessions); n > tally.MaxPushSessions {
		return tally.PushBatch{}, fmt.Errorf("%w: %d sessions, at most %d a batch", ErrPushTooMany, n, tally.MaxPushSessions)
	}
	if err := tally.CheckPush(&b); err != nil {
		return tally.PushBatch{}, err
	}
	return b, nil
}

var errUnsupportedEncoding = errors.New("Content-Encoding must be gzip or none")

// pushCounters are the push figures of Stats.
type pushCounters struct {
	batches, records, lines, repeats, refused atomic.Int64
}

// ingest is POST /api/push: one batch of tally push, applied in one store
// transaction, answered with the store's tally.PushAck.
func (s *Server) ingest(w http.ResponseWriter, r *http.Request) {
	select {
	case s.ingests <- struct{}{}:
		defer func() { <-s.ingests }()
	case <-r.Context().Done():
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxPushBody)
	b, err := DecodePush(r.Body, r.Header.Get("Content-Encoding"))
	switch {
	case errors.Is(err, ErrPushTooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%v: at most %d MB sent, %d MB decompressed", err, MaxPushBody>>20, MaxPushBatch>>20))
		return
	case errors.Is(err, ErrPushTooMany):
		writeError(w, http.StatusRequestEntityTooLarge, err.Error())
		return
	case errors.Is(err, errUnsupportedEncoding):
		writeError(w, http.StatusUnsupportedMediaType, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, tally.UserMessage(err))
		return
	}

	// A push token speaks for the machine (and user) it was made for: a
	// batch naming another origin would rewrite another's sessions.
	if g, ok := grantFrom(r); ok && !g.all {
		if err := g.token.MayPush(&b); err != nil {
			s.push.refused.Add(int64(len(b.Sessions)))
			writeError(w, http.StatusForbidden, tally.UserMessage(err))
			return
		}
	}
	ack, err := s.o.Ingest.Ingest(r.Context(), b)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.push.batches.Add(1)
	s.push.records.Add(int64(ack.Applied))
	s.push.refused.Add(int64(len(ack.Refused)))
	if ack.Repeat {
		s.push.repeats.Add(1)
	} else if !ack.Resend {
		s.push.lines.Add(b.Lines)
	}
	writeJSON(w, http.StatusOK, ack)
}
