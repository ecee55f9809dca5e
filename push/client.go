package push

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/tallyhq/tally"
)

// maxAnswer bounds what is read of an answer: an ack is small.
const maxAnswer = 1 << 20

// errTooLarge is the server refusing a batch for its size or for what one
// of its records holds (413, 400): retrying the same batch cannot help,
// sending less may.
type errTooLarge struct{ err error }

func (e errTooLarge) Error() string { return e.err.Error() }

// send posts the batch until the server answers it: failures that may pass
// are retried with backoff for as long as ctx lasts.
func (p *Pusher) send(ctx context.Context, b *tally.PushBatch) (tally.PushAck, error) {
	body, err := encode(b)
	if err != nil {
		return tally.PushAck{}, errFatal{err}
	}
	down := false
	for n := 0; ; n++ {
		ack, retry, err := p.post(ctx, body)
		if err == nil {
			if down {
				p.o.Log("the server answers again")
			}
			return ack, nil
		}
		if !retry || ctx.Err() != nil {
			return tally.PushAck{}, err
		}
		wait := p.backoff(n)
		var ra retryAfter
		if errors.As(err, &ra) {
			wait = max(wait, ra.d)
		}
		if !down {
			down = true
			p.o.Log(fmt.Sprintf("%v; retrying (backoff up to %v)", err, p.o.MaxBackoff))
		}
		p.stats.retries.Add(1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return tally.PushAck{}, ctx.Err()
		case <-t.C:
		}
	}
}

// encode is the batch as gzipped JSON.
func encode(b *tally.PushBatch) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := json.NewEncoder(zw).Encode(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// retryAfter is a 429 or 503 that said how long to wait.
type retryAfter struct {
	err error
	d   time.Duration
}

func (e retryAfter) Error() string { return e.err.Error() }

// post sends one request. retry tells whether the failure may pass.
func (p *Pusher) post(ctx context.Context, body []byte) (ack tally.PushAck, retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return ack, false, errFatal{err}
	}
	req.Header.Set("Authorization", "Bearer "+p.o.Token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	if p.o.UserAgent != "" {
		req.Header.Set("User-Agent", p.o.UserAgent)
	}
	resp, err := p.o.Client.Do(req)
	if err != nil {
		// The client's error quotes the URL, and a URL may hold a user
		// and password: the message names the server as redact shows it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return ack, true, fmt.Errorf("the server %s is unreachable: %w", p.name, err)
	}
	defer resp.Body.Close()
	data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	msg := serverMessage(data)
	switch code := resp.StatusCode; {
	case code == http.StatusOK:
		if rerr != nil {
			return ack, true, fmt.Errorf("the server's answer was cut: %w", rerr)
		}
		if err := json.Unmarshal(data, &ack); err != nil {
			return ack, true, fmt.Errorf("the server's answer is not an ack (%v): is %s a tally server?", err, p.name)
		}
		return ack, false, nil
	case code == http.StatusUnauthorized, code == http.StatusForbidden:
		return ack, false, errFatal{tally.Errorf(tally.CodeInvalid, "push", "the server refuses the token (%s): %s; make one for this machine with 'tally token create --scope push --machine NAME' on the server's store", resp.Status, msg)}
	case code == http.StatusRequestEntityTooLarge, code == http.StatusBadRequest:
		return ack, false, errTooLarge{fmt.Errorf("the server refused the batch (%s): %s", resp.Status, msg)}
	case code == http.StatusNotFound:
		return ack, false, errFatal{tally.Errorf(tally.CodeInvalid, "push", "%s has no /api/push (%s): is it a tally serve of this version?", p.name, resp.Status)}
	case code == http.StatusTooManyRequests, code == http.StatusServiceUnavailable:
		e := fmt.Errorf("the server is busy (%s): %s", resp.Status, msg)
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			return ack, true, retryAfter{e, min(time.Duration(s)*time.Second, p.o.MaxBackoff)}
		}
		return ack, true, e
	default:
		return ack, true, fmt.Errorf("the server failed (%s): %s", resp.Status, msg)
	}
}

// serverMessage is the error a server's JSON answer holds, else its text.
func serverMessage(data []byte) string {
	var e struct{ Error string }
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error
	}
	if len(data) > 200 {
		data = data[:200]
	}
	return string(bytes.TrimSpace(data))
}
