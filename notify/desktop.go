package notify

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

// Escape is a terminal's own notification sequence.
type Escape uint8

const (
	// EscapeOSC9 is ESC ] 9 ; text BEL (iTerm2, WezTerm, Windows Terminal,
	// Ghostty, kitty).
	EscapeOSC9 Escape = iota
	// EscapeOSC777 is ESC ] 777 ; notify ; title ; body BEL (rxvt-unicode,
	// foot, WezTerm, Ghostty).
	EscapeOSC777
)

// DesktopOptions describe the desktop sink.
type DesktopOptions struct {
	// LookPath finds notify-send (exec.LookPath); nil finds nothing.
	LookPath func(string) (string, error)
	// Terminal receives the escape sequence when notify-send is not there:
	// the terminal UI passes a writer that puts it on its screen. It is
	// written from the sink's own goroutine. nil: no terminal.
	Terminal io.Writer
	Escape   Escape
}

// Desktop shows messages on the desktop through notify-send, or as a
// terminal notification where there is no notify-send.
type Desktop struct {
	command string
	term    io.Writer
	escape  Escape
}

// desktopTimeout bounds one run of notify-send, which returns at once
// unless the notification daemon hangs.
const desktopTimeout = 5 * time.Second

// NewDesktop finds notify-send, or falls back to the terminal. With
// neither, there is no desktop to notify.
func NewDesktop(o DesktopOptions) (*Desktop, error) {
	d := &Desktop{term: o.Terminal, escape: o.Escape}
	if o.LookPath != nil {
		if p, err := o.LookPath("notify-send"); err == nil {
			d.command = p
		}
	}
	if d.command == "" && d.term == nil {
		return nil, tally.Errorf(tally.CodeUnavailable, "notify", "desktop: notify-send is not installed and there is no terminal to notify")
	}
	return d, nil
}

func (d *Desktop) Name() string {
	if d.command != "" {
		return "desktop notify-send"
	}
	return "desktop terminal"
}

// Send shows m once; a failure is not retried (a notification daemon that
// fails now would show the message late, if at all).
func (d *Desktop) Send(ctx context.Context, m Message) error {
	title, body := m.Title(), strings.Join(m.Lines(), "\n")
	if d.command == "" {
		_, err := io.WriteString(d.term, TerminalEscape(d.escape, title, body))
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, desktopTimeout)
	defer cancel()
	urgency := "normal"
	for _, e := range m.Events {
		if e.Kind == KindNeedsInput || e.Kind == KindBlocked {
			urgency = "critical"
		}
	}
	// The body may carry markup for the notification daemon; a title from
	// an agent must not.
	out, err := exec.CommandContext(ctx, d.command,
		"--app-name=Tally", "--urgency="+urgency, "--", title, markupEscaper.Replace(body)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("notify-send: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// TerminalEscape is the sequence that makes a terminal show a
// notification. Control characters in title and body are dropped, so that
// text from an agent can never end the sequence early and write to the
// terminal itself.
func TerminalEscape(e Escape, title, body string) string {
	body = strings.ReplaceAll(body, "\n", " / ")
	switch e {
	case EscapeOSC777:
		return "\x1b]777;notify;" + printable(title, true) + ";" + printable(body, true) + "\a"
	case EscapeOSC9:
	}
	return "\x1b]9;" + printable(title+": "+body, false) + "\a"
}

// printable drops C0 and C1 controls and DEL; with fields, it also turns
// the field separator ; into a comma.
func printable(s string, fields bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return -1
		case fields && r == ';':
			return ','
		}
		return r
	}, s)
}
