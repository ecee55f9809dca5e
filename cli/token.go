package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/token"
)

func (a *app) tokenCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list and revoke the access tokens of a team's server",
		Long: `Manage the access tokens tally serve accepts, in the store --db names (the
team's PostgreSQL database, or a server's SQLite file). A store that holds a
token makes tally serve require one of every request.

Scopes: read (the board, the API, the event stream), write (task tool calls
at /mcp, approving a plan, hooks; and reading), push (tally push, nothing
else). A push token is made for one machine (--machine, and --user to bind
the user too) and pushes only that machine's sessions: give each machine a
token of its own. Only a hash of each token is stored: a token is shown
once, when it is created.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.tokenCreateCommand(), a.tokenListCommand(), a.tokenRevokeCommand())
	return cmd
}

// openTokens opens the store, which keeps the tokens.
func (a *app) openTokens(ctx context.Context) (tally.TokenKeeper, func(), error) {
	st, err := a.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

func (a *app) tokenCreateCommand() *cobra.Command {
	var scope, name, machine, user string
	cmd := &cobra.Command{
		Use:   "create --scope read|write [--name NAME] | --scope push --machine MACHINE [--user USER]",
		Short: "Create a token; it is printed once, on the last line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc, err := tally.ParseScope(scope)
			if err != nil {
				return err
			}
			switch {
			case sc == tally.ScopePush && machine == "":
				return &usageError{err: errArgs("a push token is made for one machine: --scope push --machine NAME (the name tally push --machine gives, by default the host name)")}
			case sc != tally.ScopePush && (machine != "" || user != ""):
				return &usageError{err: errArgs("--machine and --user are for push tokens")}
			}
			k, done, err := a.openTokens(cmd.Context())
			if err != nil {
				return err
			}
			defer done()
			if name, err = freeName(cmd.Context(), k, name, machine); err != nil {
				return err
			}
			secret, t, hash := token.New(name, sc, a.now())
			t.Machine, t.User = machine, user
			if err := k.AddToken(cmd.Context(), t, hash); err != nil {
				return err
			}
			label := t.ID
			if name != "" {
				label = name + " (" + t.ID + ")"
			}
			if machine != "" {
				label += ", pushing for " + originText(&tally.Session{Machine: machine, User: user})
			}
			fmt.Fprintf(a.env.Err, "tally: token %s, scope %s; it is shown only now:\n", label, sc)
			fmt.Fprintln(a.env.Out, secret)
			return nil
		},
	}
	cmd.Flags().StringVar(&scope, "scope", "", "what the token may do: push, read or write (required)")
	cmd.Flags().StringVar(&name, "name", "", "a name to tell it by (a person, a board; default for push: the machine)")
	cmd.Flags().StringVar(&machine, "machine", "", "push: the one machine the token pushes for (required with --scope push)")
	cmd.Flags().StringVar(&user, "user", "", "push: the one user the token pushes for (default: any user of the machine)")
	_ = cmd.MarkFlagRequired("scope")
	return cmd
}

// freeName is the name a new token gets: the one asked for, which no
// other token may have ('revoke NAME' must name one token); else, for a
// push token, its machine, or machine-2, -3… when a token for the machine
// has that name already (a token being replaced).
func freeName(ctx context.Context, k tally.TokenKeeper, asked, machine string) (string, error) {
	list, err := k.Tokens(ctx)
	if err != nil {
		return "", err
	}
	taken := make(map[string]string, len(list))
	for _, t := range list {
		taken[t.Name] = t.ID
	}
	if asked != "" {
		if id, ok := taken[asked]; ok {
			return "", tally.Errorf(tally.CodeInvalid, "token create",
				"a token named %q exists already (%s): choose another --name, or revoke that one first (tally token revoke %s)", asked, id, id)
		}
		return asked, nil
	}
	if machine == "" {
		return "", nil
	}
	name := machine
	for n := 2; taken[name] != ""; n++ {
		name = fmt.Sprintf("%s-%d", machine, n)
	}
	return name, nil
}

func (a *app) tokenListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tokens (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, done, err := a.openTokens(cmd.Context())
			if err != nil {
				return err
			}
			defer done()
			list, err := k.Tokens(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				if list == nil {
					list = []tally.Token{}
				}
				return writeJSON(a.env.Out, list)
			}
			if len(list) == 0 {
				fmt.Fprintln(a.env.Err, "No tokens: tally serve on this store asks for none unless given --token.")
				return nil
			}
			w := tabwriter.NewWriter(a.env.Out, 0, 4, 2, ' ', 0)
			if a.env.OutTTY {
				fmt.Fprintln(w, "ID\tSCOPE\tNAME\tPUSHES FOR\tCREATED")
			}
			for _, t := range list {
				origin := "-"
				switch {
				case t.Scope == tally.ScopePush && t.Machine == "":
					origin = "nothing (made before tokens named their machine)"
				case t.Machine != "":
					origin = originText(&tally.Session{Machine: t.Machine, User: t.User})
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.ID, t.Scope, oneLine(t.Name), oneLine(origin), t.Created.UTC().Format("2006-01-02T15:04:05Z"))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of tokens")
	return cmd
}

func (a *app) tokenRevokeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke a token: servers refuse it within seconds",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{err: errArgs("revoke needs one token id or name")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			k, done, err := a.openTokens(cmd.Context())
			if err != nil {
				return err
			}
			defer done()
			t, err := k.RevokeToken(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(a.env.Out, "revoked %s (%s, scope %s)\n", t.ID, t.Name, t.Scope)
			return nil
		},
	}
}
