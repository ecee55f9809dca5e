package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally/tasks"
)

// Store is what the tools need of a store; store/sqlite implements it.
type Store interface {
	// UpdateTaskList runs fn on the list in one serialised transaction.
	UpdateTaskList(ctx context.Context, name string, fn func(*tasks.List) error) (tasks.List, error)
	// TaskList reads a list; CodeNotFound if it was never written.
	TaskList(ctx context.Context, name string) (tasks.List, error)
}

// Options configure the tools.
type Options struct {
	Store Store
	// List is the list used when a call names none (TALLY_LIST). Empty:
	// one list per MCP session.
	List string
	// PlanFirst starts new lists in plan mode: execution waits for
	// `tally tasks approve`.
	PlanFirst bool
	// Project is recorded on new lists (the server's working directory).
	Project string
	// Protocol, when set, follows the instructions: how an agent keeps the
	// plan of a project that has a plan folder (planner.Protocol), so that
	// it writes progress markers without being told by hand.
	Protocol string
	Now      func() time.Time
	// Version is reported to clients.
	Version string
}

// instructions tell a client's model how the tools behave.
const instructions = `Tally keeps durable task lists. Create tasks with TaskCreate, move them with TaskUpdate
(pending -> in_progress -> completed; "deleted" removes one), read them with TaskList and TaskGet.
todo_write (whole list, or merge by id) and update_plan (Codex style) write the same list.
At most one task per list is in_progress; a task with open blockers cannot start; a list in plan
mode accepts no execution until the user approves it. Every call may name a "list".`

// NewServer returns the MCP server with the task tools.
func NewServer(o Options) *sdk.Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	text := instructions
	if o.Protocol != "" {
		text += "\n\n" + o.Protocol
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "tally", Title: "Tally tasks", Version: o.Version},
		&sdk.ServerOptions{Instructions: text})
	t := &tools{o: o, fallback: "mcp-" + randomHex(4)}
	t.register(srv)
	return srv
}

// ServeStdio serves one client on in and out (newline-delimited JSON-RPC)
// until the client closes in or ctx ends. A line that is not a message is
// answered with a JSON-RPC error and the session goes on; requests read
// before in closes are answered before it returns (see stdioTransport).
func ServeStdio(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	err := NewServer(o).Run(ctx, &stdioTransport{in: in, out: out})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// httpSessionTimeout closes an HTTP session idle this long, so sessions of
// clients that went away do not pile up in a server that runs for days.
const httpSessionTimeout = 30 * time.Minute

// NewHTTPHandler serves the same tools over streamable HTTP, one MCP
// session per client. Requests a browser sends from another site are
// refused (they could change lists); it does no authentication: mount it
// behind the token check of whatever serves it (tally serve does).
func NewHTTPHandler(o Options) http.Handler {
	srv := NewServer(o)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{SessionTimeout: httpSessionTimeout})
	return http.NewCrossOriginProtection().Handler(h)
}

// listName picks the list of a call: its own argument, else the server's
// list, else the session's own.
func (t *tools) listName(arg string, ss *sdk.ServerSession) (string, error) {
	name := arg
	if name == "" {
		name = t.o.List
	}
	if name == "" {
		name = t.fallback
		if ss != nil {
			if id := sanitize(ss.ID()); id != "" {
				name = "mcp-" + id
			}
		}
	}
	if err := tasks.CheckName(name); err != nil {
		return "", err
	}
	return name, nil
}

// sanitize keeps the first characters of a session id usable in a list name.
func sanitize(id string) string {
	var b strings.Builder
	for _, r := range id {
		if b.Len() == 12 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
