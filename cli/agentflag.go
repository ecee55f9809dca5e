package cli

import (
	"fmt"
	"strings"
)

// agentFlag is an --agent flag. Every command that takes one validates it
// here, while the flags are parsed: the name is matched without regard to
// case (--agent Claude is claude), and a name the command does not accept
// is a usage error that lists the names it does — never a filter that
// silently matches nothing, nor a stream read with a format that cannot
// read it.
type agentFlag struct {
	value *string
	// accept are the names the command takes, in the order listed.
	accept []string
	// none allows the empty value (no agent: no filter).
	none bool
}

func newAgentFlag(value *string, accept []string, none bool) *agentFlag {
	return &agentFlag{value: value, accept: accept, none: none}
}

func (f *agentFlag) String() string { return *f.value }

func (f *agentFlag) Type() string { return "agent" }

func (f *agentFlag) Set(s string) error {
	if s == "" && f.none {
		*f.value = ""
		return nil
	}
	for _, name := range f.accept {
		if strings.EqualFold(s, name) {
			*f.value = name
			return nil
		}
	}
	return fmt.Errorf("unknown agent %q (want %s)", s, f.names())
}

func (f *agentFlag) names() string { return strings.Join(f.accept, "|") }
