package plan

import (
	"strings"
	"testing"
)

func TestProtocolIn(t *testing.T) {
	got := ProtocolIn("plans/")
	if strings.Contains(got, "docs/por") || strings.Count(got, "`plans/T###-slug/task.yaml`") != 2 {
		t.Fatalf("protocol for plans/:\n%s", got)
	}
	if !strings.HasPrefix(Protocol, "## Task Management Protocol\n") || !strings.Contains(Protocol, "progress: T001.S2 blocked: reason") {
		t.Fatal("the protocol block lost its heading or its markers")
	}
}
