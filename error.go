package tally

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
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
//
// Its text is what every edge shows and every diagnostic stores, so it is
// bounded here, once: one line (line breaks and other control characters
// become spaces) of at most MaxMessage bytes of cause. A parser's error for
// hostile input can be its whole chain of contexts, one per level of
// nesting, and tens of kilobytes long; the first part says what went wrong.
type Error struct {
	Code Code
	Op   string
	Err  error
}

// MaxMessage bounds the text of an Error's cause, in bytes.
const MaxMessage = 512

func (e *Error) Error() string {
	if e.Op == "" {
		return e.Message()
	}
	return e.Op + ": " + e.Message()
}

// Message is the cause's text without Op: one line, at most MaxMessage
// bytes (and the few that say how much was cut).
func (e *Error) Message() string {
	switch inner := e.Err.(type) {
	case nil:
		return "unknown error"
	case *Error:
		return inner.Error() // bounded already; its Op adds a few bytes
	}
	return oneLine(e.Err.Error(), MaxMessage)
}

func (e *Error) Unwrap() error { return e.Err }

// oneLine makes s a single line of at most limit bytes, cut at a rune
// boundary, saying how many bytes were left out.
func oneLine(s string, limit int) string {
	clean := strings.IndexFunc(s, unicode.IsControl) < 0
	if clean && len(s) <= limit {
		return s
	}
	if !clean {
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return ' '
			}
			return r
		}, s)
	}
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

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

// maxJoined bounds the errors of a join that UserMessage puts in words.
const maxJoined = 10

// UserMessage is err as a person reads it, at a terminal or on a page:
// what happened, without the operation names of the domain
// (sqlite.Record, open store), which say where in Tally it happened and
// belong in a log or a bug report (err.Error() keeps them). Words another
// error wraps an *Error in ("path: %w") are kept, and what they wrap is
// put so. Errors joined (errors.Join), as a scan joins those of several
// files, are each put so, one a line, at most maxJoined of them.
func UserMessage(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case *Error:
		if inner, ok := e.Err.(*Error); ok {
			return UserMessage(inner)
		}
		if _, joined := e.Err.(interface{ Unwrap() []error }); joined {
			return UserMessage(e.Err)
		}
		return e.Message()
	case interface{ Unwrap() []error }:
		var lines []string
		n := 0
		for _, p := range e.Unwrap() {
			if p == nil {
				continue
			}
			if n++; n <= maxJoined {
				lines = append(lines, UserMessage(p))
			}
		}
		if n > maxJoined {
			lines = append(lines, fmt.Sprintf("(and %d more)", n-maxJoined))
		}
		return strings.Join(lines, "\n")
	case interface{ Unwrap() error }:
		text, inner := err.Error(), e.Unwrap()
		if inner == nil {
			return text
		}
		if words, ok := strings.CutSuffix(text, inner.Error()); ok {
			return words + UserMessage(inner)
		}
		return text
	}
	return err.Error()
}
