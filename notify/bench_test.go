package notify

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// BenchmarkNotifier_Publish is what the live path pays per update while
// the only sink is hung: Publish must stay well under a microsecond
// whether the queue has room or is full.
func BenchmarkNotifier_Publish(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	h := hungSink{entered: make(chan struct{}, 1)}
	n := New(ctx, Options{Burst: -1, Now: func() time.Time { return start }, Sinks: []SinkOptions{{Sink: h}}})
	updates := make([]Update, 1024)
	for i := range updates {
		updates[i] = Update{Session: sess(fmt.Sprint("s", i)), At: after(time.Second),
			Flags: flags(tally.FlagStalled, after(time.Duration(i)*time.Second)), Done: 1, Total: 3}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n.Publish(updates[i&1023])
		i++
	}
	b.StopTimer()
	st := n.Stats()
	b.ReportMetric(float64(st.Dropped)/float64(st.Published+st.Dropped), "dropped/op")
	cancel()
	n.Close()
}

// BenchmarkTracker_update is the notifier goroutine's cost per update:
// deciding what is news for a session it already knows.
func BenchmarkTracker_update(b *testing.B) {
	o := Options{Now: func() time.Time { return start }}
	o.defaults()
	tr := newTracker(o)
	var st counters
	updates := make([]Update, 1024)
	for i := range updates {
		updates[i] = Update{Session: sess(fmt.Sprint("s", i%100)), At: after(time.Duration(i) * time.Second),
			Flags: flags(tally.FlagStalled, after(time.Second)), Done: i % 3, Total: 3}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tr.update(updates[i&1023], &st)
		i++
	}
}
