package cli

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/notify"
)

// settingFlags are the flags that override the settings file. A command
// that reads settings (tally config today; serve, watch and the terminal UI
// when they notify) registers them with addSettingFlags and reads the
// result with loadConfig.
type settingFlags struct {
	Set      []string
	Webhooks []string
}

func addSettingFlags(cmd *cobra.Command, s *settingFlags) {
	f := cmd.Flags()
	f.StringArrayVar(&s.Set, "set", nil, "override a setting: KEY=VALUE, e.g. detect.stalled_after=10m (repeatable)")
	f.StringArrayVar(&s.Webhooks, "notify-webhook", nil,
		"send notifications to this URL too: URL or FORMAT=URL, FORMAT one of slack, discord, telegram, json (repeatable)")
}

// loadConfig reads the settings file (--config, else $TALLY_CONFIG, else
// the XDG default) and applies the flags over it. A file named explicitly
// must exist; the default one may not.
func (a *app) loadConfig(s settingFlags) (*config.Config, error) {
	path := a.g.Config
	if path == "" {
		path = config.DefaultPath(a.env.Getenv("XDG_CONFIG_HOME"), a.env.Home)
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if a.g.Config != "" && !c.Found() {
		return nil, tally.Errorf(tally.CodeNotFound, "config", "%s: no such file", path)
	}
	for _, kv := range s.Set {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, tally.Errorf(tally.CodeInvalid, "config", "--set %q: want KEY=VALUE", kv)
		}
		if err := c.Set(key, value); err != nil {
			return nil, err
		}
	}
	for _, w := range s.Webhooks {
		if err := c.AddWebhook(w); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// skip is a sink notifyOptions left out, and why.
type skip struct {
	why string
	// asked: the person asked for the sink (the settings file or a flag
	// set it), rather than it being on by default. Only then is its
	// absence news when notifying starts; `tally config` lists every skip.
	asked bool
}

// notifyOptions builds a notifier's options from the settings. term is
// where a terminal notification goes when notify-send is missing (the
// terminal UI's screen), nil where there is none; a desktop sink that has
// neither is left out and said so in skipped.
func notifyOptions(c *config.Config, term io.Writer, now func() time.Time) (o notify.Options, skipped []skip, err error) {
	n := c.Notify
	if o.Kinds, err = notify.ParseKinds(n.Events); err != nil {
		return o, nil, tally.Errorf(tally.CodeInvalid, "config", "notify.events: %v", unwrap(err))
	}
	if len(n.Events) == 0 {
		return o, []skip{{why: "every sink: notify.events is empty", asked: true}}, nil
	}
	// Zero in the settings means none; zero in Options means the default.
	o.Settle, o.Burst, o.Now = n.Settle.Duration, n.BurstWindow.Duration, now
	if o.Settle == 0 {
		o.Settle = -1
	}
	if o.Burst == 0 {
		o.Burst = -1
	}
	for i, w := range n.Webhooks {
		key := fmt.Sprintf("notify.webhook[%d]", i+1)
		format, err := notify.ParseFormat(w.Format)
		if err != nil {
			return o, nil, tally.Errorf(tally.CodeInvalid, "config", "%s.format: %v", key, unwrap(err))
		}
		hook, err := notify.NewWebhook(notify.WebhookOptions{URL: w.URL, Format: format, ChatID: w.ChatID})
		if err != nil {
			return o, nil, tally.Errorf(tally.CodeInvalid, "config", "%s: %v", key, unwrap(err))
		}
		limit := n.MaxPerMinute
		if w.MaxPerMinute > 0 {
			limit = w.MaxPerMinute
		}
		o.Sinks = append(o.Sinks, notify.SinkOptions{Sink: hook, MaxPerMinute: limit})
	}
	if n.Desktop {
		d, err := notify.NewDesktop(notify.DesktopOptions{LookPath: exec.LookPath, Terminal: term})
		if err != nil {
			skipped = append(skipped, skip{why: unwrap(err).Error(), asked: c.Source("notify.desktop") != config.SourceDefault})
		} else {
			o.Sinks = append(o.Sinks, notify.SinkOptions{Sink: d, MaxPerMinute: n.MaxPerMinute})
		}
	}
	return o, skipped, nil
}

// unwrap drops a tally.Error's Op, for a message that already says where.
func unwrap(err error) error {
	if te, ok := err.(*tally.Error); ok {
		return te.Err
	}
	return err
}

type configOptions struct {
	*app
	settings settingFlags
	Reveal   bool
	Test     bool
}

func (a *app) configCommand() *cobra.Command {
	o := &configOptions{app: a}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the effective settings and where each came from",
		Long: `Print the settings Tally runs with, as TOML, each value followed by where it
came from: the default, the settings file, or a flag. The file is --config,
else $TALLY_CONFIG, else $XDG_CONFIG_HOME/tally/config.toml (default
~/.config/tally/config.toml); it need not exist. A key the file misspells or
a value of the wrong kind is an error naming the file, line and key.

The notification sinks the settings make are listed at the end. Webhook
URLs carry tokens and are shown only to scheme and host unless --reveal.
With --test, one test message goes to every sink and each result is shown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runConfig(cmd.Context(), o) },
	}
	addSettingFlags(cmd, &o.settings)
	cmd.Flags().BoolVar(&o.Reveal, "reveal", false, "show webhook URLs whole")
	cmd.Flags().BoolVar(&o.Test, "test", false, "send a test message to every notification sink")
	return cmd
}

func runConfig(ctx context.Context, o *configOptions) error {
	c, err := o.loadConfig(o.settings)
	if err != nil {
		return err
	}
	opts, skipped, err := notifyOptions(c, nil, o.now)
	if err != nil {
		return err
	}
	out := o.env.Out
	if err := c.Write(out, o.Reveal); err != nil {
		return err
	}
	fmt.Fprintln(out, "\n# notifications go to:")
	if len(opts.Sinks) == 0 {
		fmt.Fprintln(out, "#   nowhere: add a [[notify.webhook]] or set notify.desktop")
	}
	for _, s := range opts.Sinks {
		fmt.Fprintf(out, "#   %s\n", describeSink(s))
	}
	for _, s := range skipped {
		fmt.Fprintf(out, "#   (not %s)\n", s.why)
	}
	if !o.Test {
		return nil
	}
	return testSinks(ctx, o.env.Err, opts.Sinks, o.now())
}

func describeSink(s notify.SinkOptions) string {
	if s.MaxPerMinute > 0 {
		return fmt.Sprintf("%s, at most %d a minute", s.Sink.Name(), s.MaxPerMinute)
	}
	return s.Sink.Name()
}

// testSinks sends one message to each sink, once, and says how each went.
func testSinks(ctx context.Context, w io.Writer, sinks []notify.SinkOptions, now time.Time) error {
	msg := notify.Message{Events: []notify.Event{{
		Kind:    notify.KindNeedsInput,
		Session: notify.Session{ID: "test", Agent: tally.AgentTally, Title: "a test from 'tally config --test'"},
		Since:   now,
	}}}
	failed := 0
	for _, s := range sinks {
		err := s.Sink.Send(ctx, msg)
		if c, ok := s.Sink.(interface{ Close() error }); ok {
			c.Close()
		}
		if err != nil {
			failed++
			fmt.Fprintf(w, "%s: %v\n", s.Sink.Name(), err)
			continue
		}
		fmt.Fprintf(w, "%s: sent\n", s.Sink.Name())
	}
	if failed > 0 {
		return &notifyError{failed: failed, sinks: len(sinks)}
	}
	return nil
}
