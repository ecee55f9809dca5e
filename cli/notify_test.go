package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tallyhq/tally/config"
)

// The desktop sink is on by default; on a machine without notify-send and
// without a terminal, watch and serve start without it and say nothing,
// as nobody asked for it. Asked for in the settings file, its absence is
// said at start; `tally config` lists it either way.
func TestNewLive_desktopLeftOutIsSaidOnlyWhenAskedFor(t *testing.T) {
	noDesktop(t)
	const left = "tally: not notifying desktop: notify-send is not installed and there is no terminal to notify\n"
	for _, c := range []struct {
		name, file string
		said       bool
	}{
		{"on by default", "", false},
		{"set in the file", "[notify]\ndesktop = true\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Parse("config.toml", []byte(c.file))
			if err != nil {
				t.Fatal(err)
			}
			st := newStore(t)
			var errOut syncBuffer
			a := &app{env: testEnv(st, &syncBuffer{}, &errOut, nil), cfg: cfg}
			l, err := a.newLive(context.Background(), st, liveOptions{notify: notifySessions, skipped: a.printSkipped})
			if err != nil {
				t.Fatal(err)
			}
			l.closeNews()
			if said := errOut.String() == left; said != c.said {
				t.Errorf("stderr %q; want the desktop's absence said: %v", errOut.String(), c.said)
			}

			code, out, _ := run(t, nil, configHome(t, c.file), "config")
			if code != ExitOK || !strings.Contains(out, "(not desktop: notify-send is not installed") {
				t.Errorf("tally config: exit %d, does not list the desktop left out:\n%s", code, out)
			}
		})
	}
}
