package tally

import (
	"errors"
	"fmt"
)

// Code classifies an Error. Each edge of the program (exit codes, HTTP
// statuses, MCP errors) maps codes through one table of its own.
type Code uint8

const (
	CodeInternal    Code = iota
	CodeInvalid          // bad input: a malformed line, a bad argument
	CodeNotFound         // no such session, task or file
	CodeConflict         // the request contradicts current state
	CodeUnavailable      // a resource (store, file) cannot be reached now
)

var codeNames = [...]string{
	CodeInternal:    "internal",
	CodeInvalid:     "invalid",
	CodeNotFound:    "not_found",
	CodeConflict:    "conflict",
	CodeUnavailable: "unavailable",
}

func (c Code) String() string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "internal"
}

// Error is the one error type of the domain: what kind of failure (Code),
// where (Op) and the cause (Err).
type Error struct {
	Code Code
	Op   string
	Err  error
}

func (e *Error) Error() string {
	if e.Op == "" {
		return e.Err.Error()
	}
	return e.Op + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(code Code, op, format string, args ...any) error {
	return &Error{Code: code, Op: op, Err: fmt.Errorf(format, args...)}
}

// Errorf builds an *Error.
func Errorf(code Code, op, format string, args ...any) error {
	return errorf(code, op, format, args...)
}

// ErrorCode returns the Code of the first *Error in err's chain, CodeInternal
// if there is none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}
