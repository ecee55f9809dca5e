package cli

import (
	"context"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store"
)

type scanOptions struct {
	*app
	JSON bool
}

func (a *app) scanCommand() *cobra.Command {
	o := &scanOptions{app: a}
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Index all agent history once",
		Long: `Read every agent log not yet indexed (from where the last scan stopped) into
the index, then print what was read: sessions, files, lines, bytes, lines
parsed, malformed lines, and time taken. When no session is found at all,
it says where it looked.

A progress bar is drawn on standard error when it is a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runScan(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the summary as JSON")
	cmd.Flags().DurationVar(&a.commitEvery, "commit-every", 0,
		"commit what is folded at least this often (default 2s); a scan stopped early resumes from the last commit")
	return cmd
}

func runScan(ctx context.Context, o *scanOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := o.scanOnce(ctx, st)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if tally.StoreUnusable(err) {
		// What was read could not be kept: a summary of it would read as
		// success.
		return err
	}
	var werr error
	if o.JSON {
		werr = RenderSummaryJSON(o.env.Out, sum)
	} else {
		werr = RenderSummary(o.env.Out, sum)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if err := o.explainNothingFound(ctx, st); err != nil {
		return err
	}
	if sum.Unreadable > 0 {
		return &dataError{files: sum.Unreadable}
	}
	return nil
}

// explainNothingFound says, on stderr, where the scan looked when the index
// holds no session after it: finding nothing is the first thing a new user
// must be able to act on.
func (o *scanOptions) explainNothingFound(ctx context.Context, st store.Store) error {
	some, err := st.Records(ctx, tally.SessionFilter{Limit: 1})
	if err != nil || len(some) > 0 {
		return err
	}
	return renderRoots(o.env.Err, o.agentRoots(), o.env.Home)
}

// scanOnce brings the store up to date with every agent home, with a
// progress bar on a terminal, and reports the problems it met on stderr.
func (a *app) scanOnce(ctx context.Context, st store.Store) (index.Summary, error) {
	l, err := a.newLive(ctx, st, liveOptions{bar: true})
	if err != nil {
		return index.Summary{}, err
	}
	sum, err := l.scan(ctx)
	l.diags.flush(a.env.Err)
	return sum, err
}

// bar draws scan progress on stderr when stderr is a terminal, and is
// silent otherwise.
type bar struct {
	mu  sync.Mutex
	pb  *progressbar.ProgressBar
	max int64
}

func (a *app) newBar() *bar {
	if !a.env.ErrTTY {
		return &bar{}
	}
	return &bar{pb: progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(a.env.Err),
		progressbar.OptionSetDescription("scanning"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond), // redraws cost more than they tell
		progressbar.OptionClearOnFinish(),
		progressbar.OptionEnableColorCodes(a.env.Getenv("NO_COLOR") == ""),
	)}
}

func (b *bar) update(p index.ScanProgress) {
	if b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.Bytes != b.max {
		b.max = p.Bytes
		b.pb.ChangeMax64(max(p.Bytes, 1))
	}
	_ = b.pb.Set64(p.BytesDone)
}

func (b *bar) finish() {
	if b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.pb.Finish()
	_ = b.pb.Clear()
}
