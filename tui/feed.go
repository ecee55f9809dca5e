package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
)

// maxBatch bounds how many changes one Changed carries.
const maxBatch = 4096

// Feed hands the indexer's committed changes to the dashboard through
// send (the program's Send) until the subscription closes or ctx ends. It
// is the dashboard's only input from the indexer, the same stream the web
// board's hub reads.
//
// Changes that are waiting together go as one Changed, the last word on
// each session kept, so a burst (a scan committing thousands of sessions)
// is one update and one frame, not thousands. Send waits for the model, so
// while it draws, changes gather in the subscription's buffer; if the
// broker dropped any for this subscriber, a Reload follows, and the model
// reads the store again.
func Feed(ctx context.Context, send func(tea.Msg), sub *broker.Subscription[index.Change]) {
	var seen int64
	for {
		var first index.Change
		select {
		case <-ctx.Done():
			return
		case ch, ok := <-sub.C:
			if !ok {
				return
			}
			first = ch
		}
		batch := gather(first, sub.C)
		send(batch)
		if d := sub.Dropped(); d > seen {
			seen = d
			send(Reload{})
		}
	}
}

// gather collects first and whatever else is waiting into one Changed, in
// which each session appears once, as its last change left it.
func gather(first index.Change, more <-chan index.Change) Changed {
	last := map[string]index.Change{first.ID: first}
	order := []string{first.ID}
	add := func(ch index.Change) {
		if _, ok := last[ch.ID]; !ok {
			order = append(order, ch.ID)
		}
		last[ch.ID] = ch
	}
	for len(order) < maxBatch {
		select {
		case ch, ok := <-more:
			if !ok {
				return changed(order, last)
			}
			add(ch)
			continue
		default:
		}
		break
	}
	return changed(order, last)
}

func changed(order []string, last map[string]index.Change) Changed {
	var c Changed
	for _, id := range order {
		switch ch := last[id]; ch.Kind {
		case index.SessionUpdated:
			c.Updated = append(c.Updated, ch.Record)
		case index.SessionRemoved:
			c.Removed = append(c.Removed, id)
		}
	}
	return c
}
