package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/internal/redact"
	"github.com/tallyhq/tally/internal/version"
	"github.com/tallyhq/tally/store"
)

// globalOptions are the flags every command takes.
type globalOptions struct {
	// Verbose errors say where in Tally they happened.
	Verbose bool
	DB      string
	// Homes are the agents' home flags, each resolved with its variables
	// and default by the agent's descriptor (app.dirs).
	Homes homeFlags
	// Config is the settings file; "" is the XDG default.
	Config string
}

// app is one invocation: the process it runs in and its global flags.
type app struct {
	env Env
	g   globalOptions
	// started is set once cobra has accepted the command line: an error
	// before that is a usage error.
	started bool
	// dbErr is why there is no default store path, if there is none.
	dbErr error
	// rescan overrides the indexer's catch-up period, and following is
	// closed once watch or the overview follow live: tests use both to
	// know when a new file is news rather than history.
	rescan    time.Duration
	following chan struct{}
	// commitEvery bounds how long a scan holds folded state before
	// committing it (scan --commit-every).
	commitEvery time.Duration
	// cfg are the settings, once loaded (see settings).
	cfg *config.Config
}

// Run runs tally with args (without the program name) and returns its exit
// status. It is what Main calls and what tests drive.
func Run(ctx context.Context, env Env, args []string) ExitCode {
	a := &app{env: env}
	return a.run(ctx, args)
}

func (a *app) run(ctx context.Context, args []string) ExitCode {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(a.env.Out)
	root.SetErr(a.env.Err)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	// A flag before "hook" that cobra does not know hides the command
	// from it (it reads "hook" as the flag's value): the root is what
	// it found.
	if isHookCommand(cmd) || cmd == root && !a.started && slices.Contains(args, "hook") {
		a.hookMisused(args, err)
		return ExitOK
	}
	if !a.started {
		err = &usageError{err: err}
	}
	code := exitCodeOf(err)
	msg := tally.UserMessage(err)
	if a.g.Verbose {
		msg = err.Error()
	}
	fmt.Fprintf(a.env.Err, "tally: %s\n", msg)
	if code == ExitUsage {
		fmt.Fprintln(a.env.Err, "Run 'tally --help' for usage.")
	}
	return code
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "tally",
		Short: "Live progress of your coding agents' todo lists",
		Long: wrap("Tally is one live progress surface for the coding agents you run: "+agentLabels()+
			". It reads their todo lists from their own logs as they are written and shows, for every session, "+
			"X\u00a0of\u00a0Y done, the current step, what is blocked and what has stalled.", helpWidth) + `

With no command on a terminal, tally opens the live dashboard (tally tui);
into a pipe, it prints the active sessions each time they change (when
none is active, the most recent ones).`,
		Version: version.String(),
		Args:    noArgsButCommands,
		// A command two edits away is named ("sesions": "sessions").
		SuggestionsMinimumDistance: 2,
		SilenceErrors:              true,
		SilenceUsage:               true,
		PersistentPreRun: func(*cobra.Command, []string) {
			a.started = true
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.env.OutTTY {
				return runTUI(cmd.Context(), a)
			}
			return runOverview(cmd.Context(), &overviewOptions{app: a})
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err: flagError(err)} })
	db := a.env.Getenv("TALLY_DB")
	if db == "" && a.env.DefaultDB != nil {
		db, a.dbErr = a.env.DefaultDB(a.env.Getenv("XDG_DATA_HOME"), a.env.Home)
	}
	f := root.PersistentFlags()
	f.StringVar(&a.g.DB, "db", db, "the store: a SQLite file, or a team's postgres:// URL (env TALLY_DB)")
	f.BoolVarP(&a.g.Verbose, "verbose", "v", false, "errors also say where in tally they happened")
	a.g.Homes.add(f)
	f.StringVar(&a.g.Config, "config", a.env.Getenv("TALLY_CONFIG"),
		"the settings file (env TALLY_CONFIG; default $XDG_CONFIG_HOME/tally/config.toml, else ~/.config/tally/config.toml)")
	root.AddCommand(a.scanCommand(), a.sessionsCommand(), a.showCommand(), a.watchCommand(),
		a.normalizeCommand(), a.followCommand(),
		a.mcpCommand(), a.tasksCommand(),
		a.serveCommand(), a.pushCommand(), a.tokenCommand(), a.configCommand(),
		a.taskCommand(), a.timelineCommand(), a.markerCommand(), a.hookCommand(), a.setupCommand(),
		a.tuiCommand(), a.allowCommand(), a.denyCommand())
	for _, c := range root.Commands() {
		if c.HasSubCommands() && !c.Runnable() {
			// A group of commands (token): a word that is none of them
			// is a mistake to name, not a reason to print the help and
			// exit 0.
			c.Args, c.SuggestionsMinimumDistance = noArgsButCommands, 2
			c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
		}
	}
	return root
}

// noArgsButCommands refuses an argument where a command was expected, and
// names the command meant when one is spelled close to it.
func noArgsButCommands(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(": did you mean %q?", s[0])
	}
	return errors.New(msg)
}

// flagError says what a flag's value should have been, in words, instead
// of the parser's ("strconv.ParseInt: parsing "abc": invalid syntax").
func flagError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	want := map[string]string{
		"int": "a whole number", "int64": "a whole number", "int32": "a whole number",
		"uint": "a whole number of at least 0", "uint64": "a whole number of at least 0",
		"float64": "a number", "bool": "true or false",
		"duration": "a duration such as 90s, 10m or 1h30m",
	}[iv.GetFlag().Value.Type()]
	if want == "" {
		return err
	}
	var ne *strconv.NumError
	if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
		want += " in range"
	}
	return fmt.Errorf("--%s takes %s, not %q", iv.GetFlag().Name, want, iv.GetValue())
}

// openStore opens the store named by --db. A store that cannot be opened
// is "unavailable" unless the store said otherwise.
func (a *app) openStore(ctx context.Context) (store.Store, error) {
	if a.g.DB == "" && a.dbErr != nil {
		return nil, a.dbErr
	}
	if a.env.OpenStore == nil || a.g.DB == "" {
		return nil, tally.Errorf(tally.CodeUnavailable, "open store", "no database: pass --db or set TALLY_DB")
	}
	st, err := a.env.OpenStore(ctx, a.g.DB)
	if err != nil {
		var te *tally.Error
		if !errors.As(err, &te) {
			err = &tally.Error{Code: tally.CodeUnavailable, Op: "open store", Err: fmt.Errorf("cannot open the index %s: %w", storeName(a.g.DB), err)}
		}
		return nil, err
	}
	return st, nil
}

// storeName is --db as a message shows it: a URL with its credentials
// hidden (redact.URL), a file's path as it is.
func storeName(db string) string {
	if strings.Contains(db, "://") {
		return redact.URL(db)
	}
	return db
}

// settings are the settings the command runs with: those a command that
// takes setting flags loaded (useSettings), else the settings file's.
func (a *app) settings() (*config.Config, error) {
	if a.cfg == nil {
		c, err := a.loadConfig(settingFlags{})
		if err != nil {
			return nil, err
		}
		a.cfg = c
	}
	return a.cfg, nil
}

// useSettings loads the settings with a command's setting flags, for
// everything the command does.
func (a *app) useSettings(s settingFlags) (*config.Config, error) {
	c, err := a.loadConfig(s)
	if err != nil {
		return nil, err
	}
	a.cfg = c
	return c, nil
}

func (a *app) now() time.Time { return a.env.Now() }
