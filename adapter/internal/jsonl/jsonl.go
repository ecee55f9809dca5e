package jsonl

import "bytes"

// Object tells whether line has the shape of a JSON object: '{' first and
// '}' last, blanks aside. Every line of an agent's JSON Lines log has it,
// so a line without it is malformed however a prefilter would have judged
// it: random bytes, a line cut short and finished by another. It costs two
// bytes' look, where parsing would cost the line.
func Object(line []byte) bool {
	line = bytes.TrimSpace(line)
	return len(line) >= 2 && line[0] == '{' && line[len(line)-1] == '}'
}
