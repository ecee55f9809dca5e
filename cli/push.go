package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/redact"
	"github.com/tallyhq/tally/internal/version"
	"github.com/tallyhq/tally/push"
)

type pushOptions struct {
	*app
	Server  string
	Token   string
	Machine string
	User    string
}

func (a *app) pushCommand() *cobra.Command {
	o := &pushOptions{app: a}
	cmd := &cobra.Command{
		Use:   "push --server URL --token TOKEN",
		Short: "Ship this machine's sessions to a team's tally serve, live",
		Long: `Index this machine's agent sessions, as tally watch does, into the local store
(--db), and ship every change to a team's server until Ctrl-C: the sessions
show on the team's board with the machine and user they came from.

What is shipped is each session's folded record, not its logs. Changes go in
batches, gzipped, each acknowledged by the server; a batch is retried with
backoff while the server cannot be reached, and the last acknowledged point
is kept in ` + "$XDG_STATE_HOME/tally/" + `, so a network cut or a restart sends
nothing twice and loses nothing.

A request an agent here asks (tally setup claude --remote-approvals) shows
on the team's board with its buttons: while one is open, push asks the
server for the decisions taken there and writes them to the local store,
where the agent's hook waits. The server never connects to this machine.

The token needs scope push, made for this machine: tally token create
--scope push --machine MACHINE, run against the team's store. --server defaults to $TALLY_SERVER, --token to
$TALLY_TOKEN (which keeps it out of the process list).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPush(cmd.Context(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Server, "server", a.env.Getenv("TALLY_SERVER"), "the team server's address, http(s)://host[:port] (env TALLY_SERVER)")
	f.StringVar(&o.Token, "token", "", "a token of scope push (env TALLY_TOKEN)")
	f.StringVar(&o.Machine, "machine", "", "the machine's name on the board (default: the host name)")
	f.StringVar(&o.User, "user", "", "the user's name on the board (default: $USER)")
	return cmd
}

func runPush(ctx context.Context, o *pushOptions) error {
	if o.Token == "" {
		o.Token = o.env.Getenv("TALLY_TOKEN")
	}
	if o.Machine == "" {
		o.Machine = o.env.Hostname
	}
	if o.User == "" {
		o.User = o.env.Getenv("USER")
	}
	switch {
	case o.Server == "":
		return &usageError{err: errArgs("push needs --server URL (or TALLY_SERVER)")}
	case o.Token == "":
		return &usageError{err: errArgs("push needs --token (or TALLY_TOKEN): a token of scope push")}
	case o.Machine == "":
		return &usageError{err: errArgs("this machine's name is unknown: pass --machine")}
	}
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	// The indexer's commits wake the pusher; one waiting wake stands for
	// any number of commits.
	wake := make(chan struct{}, 1)
	p, err := push.New(push.Options{
		Store: st, Server: o.Server, Token: o.Token, Machine: o.Machine, User: o.User, Wake: wake,
		StateFile: o.pushState(), UserAgent: "tally/" + version.String(),
		Log: func(s string) { fmt.Fprintf(o.env.Err, "tally: %s\n", s) },
	})
	if err != nil {
		return err
	}
	l, err := o.newLive(ctx, st, liveOptions{bar: true, notify: notifyPlans})
	if err != nil {
		return err
	}
	if err := l.CatchUp(ctx); err != nil {
		return err
	}
	if ctx.Err() != nil {
		l.closeNews()
		return nil
	}
	changes := l.ix.Subscribe(1)
	defer changes.Close()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for range changes.C {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	ixDone := make(chan error, 1)
	go func() { ixDone <- l.Run(runCtx) }()
	o.nowLive()
	fmt.Fprintf(o.env.Err, "tally: pushing this machine's sessions to %s as %s (Ctrl-C to stop)\n", redact.URL(o.Server), originText(&tally.Session{Machine: o.Machine, User: o.User}))
	pushErr := make(chan error, 1)
	go func() { pushErr <- p.Run(runCtx) }()
	select {
	case err = <-pushErr:
		cancel()
		if ixErr := <-ixDone; ixErr != nil && !errors.Is(ixErr, context.Canceled) {
			err = errors.Join(err, ixErr)
		}
	case err = <-ixDone:
		cancel()
		err = errors.Join(err, <-pushErr)
	}
	return err
}

// pushState is where push keeps its stream and acknowledged mark: one
// file per server, machine and local store, in Tally's state folder.
func (o *pushOptions) pushState() string {
	sum := sha256.Sum256([]byte(o.Server + "\x00" + o.Machine + "\x00" + o.g.DB))
	return filepath.Join(filepath.Dir(o.logPath()), "push-"+hex.EncodeToString(sum[:6])+".json")
}
