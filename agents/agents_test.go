package agents_test

import (
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
)

// TestAll_EachAgentIsOneOfItsKind: every registered agent has a name, a
// label, a colour and a hue of its own; its adapter says it is that agent;
// its home flags are its own; every place names exactly one source, and a
// place that takes a flag's value takes one of the agent's.
func TestAll_EachAgentIsOneOfItsKind(t *testing.T) {
	names, labels := map[tally.Agent]bool{}, map[string]bool{}
	colors, hues := map[uint8]tally.Agent{}, map[uint16]tally.Agent{}
	flags, vars := map[string]tally.Agent{}, map[string]tally.Agent{}
	for _, d := range append([]*adapter.Descriptor{agents.Tally}, agents.All...) {
		switch {
		case d.Agent == "" || d.Label == "":
			t.Errorf("%+v: no name or label", d)
		case names[d.Agent] || labels[d.Label]:
			t.Errorf("%s (%s) is registered twice", d.Agent, d.Label)
		}
		names[d.Agent], labels[d.Label] = true, true
		if other, ok := colors[d.Color]; ok {
			t.Errorf("%s and %s share terminal colour %d", d.Agent, other, d.Color)
		}
		if other, ok := hues[d.Hue]; ok || d.Hue >= 360 {
			t.Errorf("%s: hue %d (shared with %q, or not a hue)", d.Agent, d.Hue, other)
		}
		colors[d.Color], hues[d.Hue] = d.Agent, d.Agent
		if agents.Find(d.Agent) != d {
			t.Errorf("Find(%s) is not its descriptor", d.Agent)
		}
		own := map[string]bool{}
		for _, h := range d.Homes {
			if h.Flag == "" {
				continue
			}
			if other, ok := flags[h.Flag]; ok {
				t.Errorf("--%s is both %s's and %s's", h.Flag, d.Agent, other)
			}
			flags[h.Flag], own[h.Flag] = d.Agent, true
			if h.What == "" {
				t.Errorf("%s: --%s has no help", d.Agent, h.Flag)
			}
		}
		for _, h := range d.Homes {
			for _, p := range h.From {
				n := 0
				for _, set := range []bool{p.Var != "", p.Flag != "", p.Under != adapter.UnderNothing, p.Read != nil} {
					if set {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s: place %+v names %d sources, want one", d.Agent, p, n)
				}
				if p.Read != nil && p.Said == "" {
					t.Errorf("%s: a place read by a function does not say what it is", d.Agent)
				}
				if p.Flag != "" && !own[p.Flag] {
					t.Errorf("%s: place %+v takes another agent's flag", d.Agent, p)
				}
			}
		}
		for _, v := range d.Vars() {
			if other, ok := vars[v]; ok && other != d.Agent && v != "XDG_DATA_HOME" {
				t.Errorf("$%s is both %s's and %s's", v, d.Agent, other)
			}
			vars[v] = d.Agent
		}
		if d.New == nil {
			if d != agents.Tally {
				t.Errorf("%s builds no adapter", d.Agent)
			}
			continue
		}
		if got := d.New(adapter.Dirs{}).Agent(); got != d.Agent {
			t.Errorf("%s's adapter says it reads %s", d.Agent, got)
		}
		if d.Reads() == 0 {
			t.Errorf("%s's adapter reads nothing", d.Agent)
		}
		if d.Hooks != nil && !d.Reads().Has(adapter.ReadsLines) {
			t.Errorf("%s has hooks but its transcripts are not read line by line", d.Agent)
		}
	}
}

// TestFind_UnknownAgent: a session of an agent this build does not know
// (pushed by a newer tally) has no descriptor; it is still shown, under
// its own name.
func TestFind_UnknownAgent(t *testing.T) {
	if d := agents.Find("nosuch"); d != nil {
		t.Errorf("Find(nosuch) = %+v", d)
	}
}
