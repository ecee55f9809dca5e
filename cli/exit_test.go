package cli

import (
	"net"
	"strings"
	"testing"
)

// TestRun_serveOnAPortInUseHasItsOwnExitCode: a port held by another
// program is not "store unavailable" (5): a script can tell it apart and
// try another address.
func TestRun_serveOnAPortInUseHasItsOwnExitCode(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	code, _, errOut := run(t, newStore(t), nil, "serve", "--addr", addr)
	if code != ExitListen || code == ExitUnavailable {
		t.Errorf("exit %d, want %d", code, ExitListen)
	}
	want := "tally: cannot listen on " + addr + ": address already in use (is another tally serve running?)"
	if !strings.HasPrefix(errOut, want) || strings.Contains(errOut, "bind:") {
		t.Errorf("stderr %q, want it to start %q", errOut, want)
	}
}
