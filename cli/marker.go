package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
	"github.com/tallyhq/tally/plan"
)

// maxMarkerInput bounds what tally marker reads from stdin: a message, not
// a log.
const maxMarkerInput = 1 << 20

type markerOptions struct {
	planOptions
	Session string
	JSON    bool
}

func (a *app) markerCommand() *cobra.Command {
	o := &markerOptions{planOptions: planOptions{app: a}}
	cmd := &cobra.Command{
		Use:   "marker",
		Short: "Apply the progress markers in a message read from stdin to the project's plan",
		Long: `Read a message on stdin, find its progress markers ("progress: T001.S1 done", one per
line) and apply them, in order, to the project's plan, as Tally does with the markers it
reads in agents' logs. For agents and scripts whose logs Tally does not read:

  echo "progress: T001.S1 done" | tally marker --session build-bot

Prints what became of each marker. A message given twice with the same --session is
applied once. Exit status 4 if any marker was rejected (an unknown task or step, or a
step that is already complete).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMarker(cmd.Context(), o) },
	}
	o.addFlags(cmd)
	cmd.Flags().StringVar(&o.Session, "session", "cli", "who wrote the message: recorded in the ledger, and part of each marker's key")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what became of each marker as JSON")
	return cmd
}

func runMarker(_ context.Context, o *markerOptions) error {
	if o.env.In == nil {
		return tally.Errorf(tally.CodeInvalid, "marker", "no input: pipe the message to tally marker")
	}
	msg, err := io.ReadAll(io.LimitReader(o.env.In, maxMarkerInput+1))
	if err != nil {
		return &tally.Error{Code: tally.CodeUnavailable, Op: "read stdin", Err: err}
	}
	if len(msg) > maxMarkerInput {
		return tally.Errorf(tally.CodeInvalid, "marker", "the message is over %d bytes: give one message, not a log", maxMarkerInput)
	}
	found := marker.Scan(msg)
	if len(found) == 0 {
		_, err := fmt.Fprintln(o.env.Err, `tally: no progress marker in the input (a line like "progress: T001.S1 done")`)
		return err
	}
	// stdin has no log offset: the message's digest stands for it, so the
	// same message from the same session is recognised, and another is not.
	sum := sha256.Sum256(msg)
	source := o.Session + "@stdin-" + hex.EncodeToString(sum[:6])
	ms := make([]plan.Marker, len(found))
	for i, m := range found {
		ms[i] = plan.Marker{Marker: m, Key: plan.Key(source, 0, i), By: o.Session}
	}
	f, err := o.folder()
	if err != nil {
		return err
	}
	outs, err := f.Apply(ms)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		_, err = o.load() // the same "no plan" message as tally task
	}
	if err != nil {
		return err
	}
	if o.JSON {
		err = writeJSON(o.env.Out, outs)
	} else {
		tw := tabwriter.NewWriter(o.env.Out, 0, 4, 2, ' ', 0)
		for _, out := range outs {
			line := out.Verdict.String() + "\t" + out.Text
			if out.Reason != "" && out.Verdict != plan.Applied {
				line += "\t" + out.Reason
			}
			fmt.Fprintln(tw, line)
		}
		err = tw.Flush()
	}
	if err != nil {
		return err
	}
	rejected := 0
	for _, out := range outs {
		if out.Verdict == plan.Rejected {
			rejected++
		}
	}
	if rejected > 0 {
		return tally.Errorf(tally.CodeConflict, "marker", "%d of %d markers rejected", rejected, len(outs))
	}
	return nil
}
