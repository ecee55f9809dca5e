package planner

import (
	"context"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
)

// maxRound bounds the markers one round reads from the store.
const maxRound = 1024

// ApplyPending applies every marker pending now, oldest first, and
// records what became of each. A plan that cannot be written keeps its
// markers pending (a diagnostic says why); the error is for a store that
// cannot be read or written.
func (p *Planner) ApplyPending(ctx context.Context) error {
	p.applying.Lock()
	defer p.applying.Unlock()
	for {
		ms, err := p.pending(ctx)
		if err != nil || len(ms) == 0 {
			return err
		}
		results := p.applyAll(ms)
		if err := p.settle(ctx, results); err != nil {
			return err
		}
		if len(results) == 0 || len(ms) < maxRound {
			return nil
		}
	}
}

// pending is what waits to be applied, oldest first.
func (p *Planner) pending(ctx context.Context) ([]tally.FoundMarker, error) {
	return p.o.Store.PendingMarkers(ctx, maxRound)
}

// settleTimeout bounds how long recording the results of markers already
// applied may outlast the command's end.
const settleTimeout = 5 * time.Second

// settle records the results; markers still waiting stay pending in the
// store. The results of markers the plans took are recorded even as the
// command ends: left pending, they would be judged again by the next
// start (which finds them in the ledger, so nothing is applied twice, but
// why repeat it).
func (p *Planner) settle(ctx context.Context, results []tally.MarkerResult) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
	defer cancel()
	return p.o.Store.SettleMarkers(sctx, results)
}

// group is the markers of one round bound for one plan folder.
type group struct {
	project string
	folder  plan.Folder
	dir     string
	markers []tally.FoundMarker
}

// applyAll applies ms, each plan's markers in one write, and returns the
// results; markers whose plan could not be written have none, and wait.
func (p *Planner) applyAll(ms []tally.FoundMarker) (results []tally.MarkerResult) {
	var groups []*group
	byDir := map[string]*group{}
	for _, m := range ms {
		var pf plan.Folder
		if m.Project != "" {
			pf = p.o.Folder(m.Project)
		}
		dir := pf.Dir
		g := byDir[dir]
		if g == nil {
			g = &group{project: m.Project, folder: pf, dir: dir}
			byDir[dir] = g
			groups = append(groups, g)
		}
		g.markers = append(g.markers, m)
	}
	now := p.o.Now()
	for _, g := range groups {
		switch {
		case g.dir == "":
			results = appendAll(results, g.markers, tally.MarkerResult{Verdict: tally.MarkerNoPlan, Reason: "the session names no project", At: now})
		case !isDir(g.dir):
			results = appendAll(results, g.markers, tally.MarkerResult{Verdict: tally.MarkerNoPlan, Reason: "no plan folder " + g.dir, Plan: g.dir, At: now})
		default:
			rs, err := p.applyGroup(g, now)
			p.failure(g.dir, err)
			switch {
			case plan.Refused(err):
				// A plan folder Tally refuses to write (a link, a FIFO,
				// another user's file) does not become writable by
				// waiting: its markers are settled, saying why.
				p.refused.Add(int64(len(g.markers)))
				results = appendAll(results, g.markers, tally.MarkerResult{Verdict: tally.MarkerRejected,
					Reason: "the plan folder is refused: " + tally.UserMessage(err), Plan: g.dir, At: now})
			case err != nil: // they wait, pending
			default:
				results = append(results, rs...)
			}
		}
	}
	return results
}

func appendAll(rs []tally.MarkerResult, ms []tally.FoundMarker, r tally.MarkerResult) []tally.MarkerResult {
	for _, m := range ms {
		r.Key = m.Key
		rs = append(rs, r)
	}
	return rs
}

// applyGroup applies one plan's markers in one locked write.
func (p *Planner) applyGroup(g *group, now time.Time) ([]tally.MarkerResult, error) {
	f := p.folder(g.project, g.folder)
	in := make([]plan.Marker, len(g.markers))
	for i, m := range g.markers {
		in[i] = plan.Marker{Marker: m.Marker, Key: m.Key, At: m.Marker.At, By: m.Session}
	}
	outs, err := f.Apply(in)
	if err != nil {
		return nil, err
	}
	results := make([]tally.MarkerResult, len(outs))
	var dups []string
	for _, o := range outs {
		if o.Verdict == plan.Duplicate {
			dups = append(dups, o.Marker.Key)
		}
	}
	var before map[string]plan.Entry // read only when a marker was judged before
	if len(dups) > 0 {
		before, _ = f.Judged(dups...)
	}
	var news []plan.Entry
	changed := false
	for i, o := range outs {
		r := tally.MarkerResult{Key: g.markers[i].Key, Verdict: verdictOf(o.Verdict), Reason: o.Reason, Plan: g.dir, At: now}
		if o.Verdict == plan.Duplicate {
			r.Verdict, r.Reason = judged(before, o.Marker.Key)
		}
		results[i] = r
		changed = changed || len(o.Entries) > 0
		for _, e := range o.Entries {
			if eventKinds[e.Type] != 0 {
				e.By = g.markers[i].Session
				news = append(news, e)
			}
		}
	}
	if changed {
		p.changed(g.project, g.dir)
	}
	if len(news) > 0 && p.o.OnEvent != nil {
		pl, err := f.Load()
		if err == nil {
			for _, e := range news {
				p.o.OnEvent(eventOf(g.project, pl, e))
			}
		}
	}
	return results, nil
}

// verdictOf is the store's word for the plan's verdict.
func verdictOf(v plan.Verdict) tally.MarkerVerdict {
	switch v {
	case plan.Applied:
		return tally.MarkerApplied
	case plan.Unchanged:
		return tally.MarkerUnchanged
	case plan.Rejected:
		return tally.MarkerRejected
	case plan.Skipped:
		return tally.MarkerSkipped
	case plan.Duplicate:
	}
	return tally.MarkerApplied
}

// judged is the verdict the ledger recorded for key: a marker applied
// before (by another process, or before a crash that kept its result out
// of the store) is found by its key (plan.Folder.Judged).
func judged(before map[string]plan.Entry, key string) (tally.MarkerVerdict, string) {
	if e, ok := before[key]; ok {
		switch e.Type {
		case plan.EntryRejected, plan.EntryUnrecognised:
			return tally.MarkerRejected, e.Reason
		case plan.EntrySkipped:
			return tally.MarkerSkipped, e.Reason
		case plan.EntryUnchanged:
			return tally.MarkerUnchanged, e.Reason
		}
		return tally.MarkerApplied, ""
	}
	return tally.MarkerApplied, "applied before"
}
