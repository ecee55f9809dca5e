package jsonl

import "testing"

func TestObject(t *testing.T) {
	for line, want := range map[string]bool{
		`{"type":"user"}`:  true,
		" {}\t":            true,
		`{"type":`:         false,
		`["TodoWrite"]`:    false,
		"\xff\xfe{\"":      false,
		"":                 false,
		"{":                false,
		`"{}"`:             false,
		"plain text {x}":   false,
		`{"a":1} trailing`: false,
	} {
		if got := Object([]byte(line)); got != want {
			t.Errorf("Object(%q) = %v, want %v", line, got, want)
		}
	}
}
