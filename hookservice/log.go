package hookservice

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"github.com/tallyhq/tally/hook"
)

// logger writes the failures of one call to Tally's log, each line naming
// the agent, and the event and session once they are known. The worker
// and the deadline may both write: mu guards the event.
type logger struct {
	write func(string)
	agent string
	now   func() time.Time
	mu    sync.Mutex
	event hook.Event
}

func (s *Service) logger(agent string) *logger {
	return &logger{write: s.o.Log, agent: agent, now: s.o.Now}
}

func (l *logger) setEvent(ev hook.Event) {
	l.mu.Lock()
	l.event = ev
	l.mu.Unlock()
}

func (l *logger) printf(format string, args ...any) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s hook %s", l.now().UTC().Format(time.RFC3339), l.agent)
	l.mu.Lock()
	ev := l.event
	l.mu.Unlock()
	if ev.Name != "" {
		fmt.Fprintf(&b, " %s session=%s", ev.Name, ev.SessionID)
	}
	b.WriteString(": ")
	fmt.Fprintf(&b, format, args...)
	l.write(b.String())
}
