package normalize

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tallyhq/tally"
)

// Run reads an agent's output from in and writes the unified events to out,
// one JSON object a line, flushed after each input line that made any.
// Problems with the input go to errOut and never stop the stream. It
// returns a *tally.Error with CodeInvalid when the agent is unknown, the
// format cannot be told, or no line of the input could be read; reading stops at the end of in or when ctx is done
// (checked between lines: a read that blocks is not interrupted).
func Run(ctx context.Context, in io.Reader, out, errOut io.Writer, opts Options) error {
	s, err := NewStream(in, opts)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for ctx.Err() == nil {
		step, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("normalize: reading input: %w", err)
		}
		if s.Adapter() == nil {
			return tally.Errorf(tally.CodeInvalid, "normalize",
				"cannot tell which agent wrote this stream from its first lines; name it with --agent (one of: %v)", names(opts.Adapters))
		}
		for _, d := range step.Diags {
			fmt.Fprintf(errOut, "tally normalize: %s\n", d)
		}
		for i := range step.Lists {
			if err := enc.Encode(&step.Lists[i]); err != nil {
				return err
			}
		}
		for i := range step.Markers {
			if err := enc.Encode(&step.Markers[i]); err != nil {
				return err
			}
		}
		if len(step.Lists)+len(step.Markers) > 0 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	if st := s.Stats(); st.Malformed > 0 {
		fmt.Fprintf(errOut, "tally normalize: %d of %d lines skipped (malformed or too long)\n", st.Malformed, st.Lines)
	}
	if st := s.Stats(); st.Blank > 0 {
		fmt.Fprintf(errOut, "tally normalize: %s without text skipped\n", itemCount(st.Blank))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if st := s.Stats(); st.Lines > 0 && st.Malformed == st.Lines {
		return tally.Errorf(tally.CodeInvalid, "normalize", "no line of the input could be read as %s output", s.Agent())
	}
	return nil
}
