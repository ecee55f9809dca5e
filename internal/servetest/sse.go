package servetest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Event is one frame of an event stream.
type Event struct {
	ID, Type string
	Data     []byte
}

// Stream is an open GET /api/events, read the way EventSource reads it.
type Stream struct {
	body io.ReadCloser
	r    *bufio.Reader
}

// Dial opens the event stream of the server at base (http://host:port/),
// resuming after lastID when it is not empty, as a reconnecting
// EventSource does.
func Dial(ctx context.Context, base, lastID string) (*Stream, error) {
	return DialToken(ctx, base, lastID, "")
}

// DialToken is Dial with a token, sent as a bearer header; "" sends
// none.
func DialToken(ctx context.Context, base, lastID, token string) (*Stream, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"api/events", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %sapi/events: %s", base, resp.Status)
	}
	return &Stream{body: resp.Body, r: bufio.NewReaderSize(resp.Body, 1<<16)}, nil
}

// Next reads the next event, skipping comments and the retry field.
func (s *Stream) Next() (Event, error) {
	var ev Event
	for {
		line, err := s.r.ReadBytes('\n')
		if err != nil {
			return Event{}, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if ev.Type != "" || ev.Data != nil {
				return ev, nil
			}
			continue
		}
		field, value, _ := strings.Cut(string(line), ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.ID = value
		case "event":
			ev.Type = value
		case "data":
			ev.Data = append(ev.Data, value...)
		}
	}
}

// Close ends the stream.
func (s *Stream) Close() error { return s.body.Close() }
