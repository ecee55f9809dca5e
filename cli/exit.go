package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/tallyhq/tally"
)

// ExitCode is the status `tally` exits with. Scripts branch on it, so the
// values are part of the interface and never renumbered.
type ExitCode int

const (
	ExitOK ExitCode = 0
	// ExitError: anything not classified below.
	ExitError ExitCode = 1
	// ExitUsage: a bad flag, argument or command.
	ExitUsage ExitCode = 2
	// ExitNotFound: no session matches.
	ExitNotFound ExitCode = 3
	// ExitConflict: an id prefix matches several sessions.
	ExitConflict ExitCode = 4
	// ExitUnavailable: the store or an agent home cannot be reached.
	ExitUnavailable ExitCode = 5
	// ExitListen: serve cannot listen on its address (in use by another
	// program, not this machine's, or a port it may not open). The index
	// is fine: another address will do.
	ExitListen ExitCode = 6
	// ExitData: some agent files could not be read (each was reported,
	// naming it); every other file was indexed.
	ExitData ExitCode = 7
	// ExitNotify: config --test could not deliver its message to some
	// notification sink (each was named). The store is not involved.
	ExitNotify ExitCode = 8
)

// exitCodes is the one table from domain error codes to exit statuses.
var exitCodes = map[tally.Code]ExitCode{
	tally.CodeInternal:    ExitError,
	tally.CodeInvalid:     ExitUsage,
	tally.CodeNotFound:    ExitNotFound,
	tally.CodeConflict:    ExitConflict,
	tally.CodeUnavailable: ExitUnavailable,
}

// exitCodeOf maps an error returned by a command to an exit status.
func exitCodeOf(err error) ExitCode {
	if err == nil {
		return ExitOK
	}
	var u *usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	var l *listenError
	if errors.As(err, &l) {
		return ExitListen
	}
	var d *dataError
	if errors.As(err, &d) {
		return ExitData
	}
	var n *notifyError
	if errors.As(err, &n) {
		return ExitNotify
	}
	if c, ok := exitCodes[tally.ErrorCode(err)]; ok {
		return c
	}
	return ExitError
}

// usageError is a mistake in how tally was invoked, found before any
// command ran (cobra's flag and argument checks).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// listenError is serve's address refusing to be listened on.
type listenError struct {
	addr string
	err  error
}

func (e *listenError) Error() string {
	reason := e.err.Error()
	var se *os.SyscallError
	if errors.As(e.err, &se) {
		reason = se.Err.Error() // not Go's "listen tcp …: bind:" prefix
	}
	msg := "cannot listen on " + e.addr + ": " + reason
	if errors.Is(e.err, syscall.EADDRINUSE) {
		msg += " (is another tally serve running?); choose another address with --addr or TALLY_ADDR"
	}
	return msg
}

func (e *listenError) Unwrap() error { return e.err }

// dataError is a scan that could not read some agent files; the problems
// were printed as they were met.
type dataError struct{ files int }

func (e *dataError) Error() string {
	if e.files == 1 {
		return "1 file could not be read (see above); every other file was indexed"
	}
	return fmt.Sprintf("%d files could not be read (see above); every other file was indexed", e.files)
}

// notifyError is config --test's sinks failing; each failure was printed
// as it happened.
type notifyError struct{ failed, sinks int }

func (e *notifyError) Error() string {
	return fmt.Sprintf("%d of %d sinks failed", e.failed, e.sinks)
}

type errArgs string

func (e errArgs) Error() string { return string(e) }
