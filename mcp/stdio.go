package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport. An agent's tool server must not die on one bad
// line, and the SDK's own stdio transport ends the session at the first
// line it cannot decode, losing the answers to requests already sent. So
// every line is checked here first (checkFrame), answered with a JSON-RPC
// error if it is not a message the SDK can take, and skipped; the session
// goes on.

const (
	// MaxFrame bounds one message (one line), in bytes. A longer line is
	// answered with an error and skipped as it streams past: it is never
	// held in memory whole.
	MaxFrame = 16 << 20
	// drainTimeout bounds how long requests already read are waited for
	// once the input ends, so that their answers are written before the
	// process exits. A tool call is one store transaction, which gives up
	// well within it.
	drainTimeout = 30 * time.Second
)

// stdioTransport serves one client on newline-delimited JSON-RPC.
type stdioTransport struct {
	in  io.Reader
	out io.Writer
}

func (t *stdioTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &stdioConn{
		out:      t.out,
		msgs:     make(chan jsonrpc.Message),
		done:     make(chan struct{}),
		answered: make(chan struct{}, 1),
		pending:  make(map[jsonrpc.ID]bool),
	}
	go c.readLoop(t.in)
	return c, nil
}

// stdioConn is the sdk.Connection of stdioTransport. A goroutine reads and
// checks lines (readLoop); Read hands the SDK the good ones; Write writes
// one message per line.
type stdioConn struct {
	out io.Writer
	wmu sync.Mutex

	// msgs carries checked messages; readLoop closes it when the input
	// ends, after setting readErr.
	msgs    chan jsonrpc.Message
	readErr error

	done      chan struct{}
	closeOnce sync.Once

	mu sync.Mutex
	// pending are the ids of requests handed to the SDK and not answered
	// yet: when the input ends, Read waits for them.
	pending map[jsonrpc.ID]bool
	// answered is signalled when an answer was written.
	answered chan struct{}
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	return nil
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	case msg, ok := <-c.msgs:
		if ok {
			return msg, nil
		}
	}
	// The input ended. The SDK stops a session at once when Read fails,
	// so first let it answer every request it was given.
	timeout := time.NewTimer(drainTimeout)
	defer timeout.Stop()
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-c.answered:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.done:
			return nil, io.EOF
		case <-timeout.C:
			return nil, fmt.Errorf("input closed with %d requests still unanswered after %v", n, drainTimeout)
		}
	}
	if c.readErr != nil {
		return nil, c.readErr
	}
	return nil, io.EOF
}

func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode an answer: %w", err)
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// readLoop reads lines until the input ends, answering the bad ones and
// handing the others to Read.
func (c *stdioConn) readLoop(in io.Reader) {
	defer close(c.msgs)
	fr := frameReader{r: bufio.NewReaderSize(in, 64<<10), max: MaxFrame}
	for {
		line, over, err := fr.next()
		if over > 0 {
			c.answer(errorReply(nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("a message of %d bytes is over the limit of %d; it was skipped", over, MaxFrame)))
		} else if len(bytes.TrimSpace(line)) > 0 && !c.take(line) {
			return
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.readErr = err
			}
			return
		}
	}
}

// take checks one line and answers it or hands it on; false means the
// connection is closed.
func (c *stdioConn) take(line []byte) bool {
	msg, reply := checkFrame(line)
	if reply != nil {
		c.answer(reply)
	}
	if msg == nil {
		return true
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		dup := c.pending[req.ID]
		c.pending[req.ID] = true
		c.mu.Unlock()
		if dup {
			c.answer(errorReply(idJSON(req.ID), jsonrpc.CodeInvalidRequest,
				"a request with this id is still being answered; give each request its own id"))
			return true
		}
	}
	select {
	case c.msgs <- msg:
		return true
	case <-c.done:
		return false
	}
}

// answer writes an error reply. A write that fails is the session's end,
// which the SDK learns from its own next write.
func (c *stdioConn) answer(reply []byte) { _ = c.writeLine(reply) }

// frameReader splits a stream into lines of at most max bytes. A longer
// line is read past in pieces and reported by its length alone.
type frameReader struct {
	r   *bufio.Reader
	max int
}

// next returns the next line without its newline, or over > 0 (the
// line's length) for a line over the limit. The last line may lack its
// newline; err is io.EOF after it. A line is gathered in the reader's
// pieces and joined once, so it costs about twice its length, and one
// over the limit no more than the limit.
func (f *frameReader) next() (line []byte, over int, err error) {
	var pieces [][]byte
	size := 0
	for {
		var piece []byte
		piece, err = f.r.ReadSlice('\n')
		size += len(piece)
		if size <= f.max+1 { // the newline is not part of the message
			pieces = append(pieces, bytes.Clone(piece))
		} else {
			pieces = nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	if err == nil { // ReadSlice found the newline
		size--
	}
	if size > f.max {
		return nil, size, err
	}
	line = bytes.Join(pieces, nil)
	if len(pieces) == 1 {
		line = pieces[0]
	}
	return bytes.TrimSuffix(line, []byte("\n")), 0, err
}
