//go:build unix

package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// signalChild is set in the environment of the process
// TestInterruptible_secondSignalEnds starts: that process is a command
// frozen after the first signal.
const signalChild = "TALLY_TEST_SIGNAL_CHILD"

// The first SIGINT or SIGTERM cancels the command's context; a command
// that does not end then (frozen in a system call, say) is ended by the
// second, which is no longer caught.
func TestInterruptible_secondSignalEnds(t *testing.T) {
	if os.Getenv(signalChild) != "" {
		ctx, stop := interruptible(context.Background())
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		select {} // frozen: only the second signal ends this
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptible_secondSignalEnds$")
			cmd.Env = testhome.Environ(t.TempDir(), signalChild+"=1")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(out)
			expect := func(want string) {
				t.Helper()
				if !lines.Scan() || lines.Text() != want {
					t.Fatalf("the child said %q, want %q", lines.Text(), want)
				}
			}
			expect("ready")
			cmd.Process.Signal(sig)
			expect("cancelled")
			cmd.Process.Signal(sig)
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			select {
			case err := <-ended:
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
					t.Fatalf("the child ended with %v, want killed by %v", err, sig)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the second signal did not end the process")
			}
		})
	}
}
