package jsonl

import "bytes"

// The scanners below find where a JSON value ends without parsing it, so
// that an adapter can take a value's bytes as they are written (to hash
// a tool call's arguments, say). They check structure only: brackets
// balance and strings close. A string is skipped from quote to quote with
// IndexByte, so long text costs what searching it costs.

// ValueLen is the length of the JSON value that starts b, -1 if it does
// not end in b. A scalar (number, true, false, null) ends at the next ',',
// '}' or ']'.
func ValueLen(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	switch b[0] {
	case '"':
		k := StringEnd(b[1:])
		if k < 0 {
			return -1
		}
		return k + 2
	case '{', '[':
		return ContainerLen(b)
	}
	for i, c := range b {
		if c == ',' || c == '}' || c == ']' {
			return i
		}
	}
	return -1
}

// ContainerLen is the length of the JSON object or array that starts b,
// -1 if b does not start with one or it does not end in b.
func ContainerLen(b []byte) int {
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return -1
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			j := StringEnd(b[i+1:])
			if j < 0 {
				return -1
			}
			i += j + 1
		}
	}
	return -1
}

// StringEnd is the index of the quote that closes a JSON string whose
// contents start b, -1 if none does.
func StringEnd(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// An odd run of backslashes before it escapes the quote.
		bs := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return i
		}
		i++
	}
}

// Field finds key (written `"name":`) among the keys at the top of the
// object whose contents start b — after its '{' — and returns its value's
// bytes and the index in b just after them; ok is false when the object
// has no such key or does not read as one. Each other key's value is
// skipped whole, so a key of the same name nested inside one is never
// taken.
func Field(b []byte, key string) (value []byte, end int, ok bool) {
	for i := 0; i < len(b); {
		switch b[i] {
		case '}':
			return nil, 0, false
		case ',', ' ', '\t', '\n', '\r':
			i++
			continue
		case '"':
		default:
			return nil, 0, false
		}
		k := StringEnd(b[i+1:])
		if k < 0 {
			return nil, 0, false
		}
		name := b[i+1 : i+1+k]
		i += k + 2
		for i < len(b) && (b[i] == ' ' || b[i] == ':') {
			i++
		}
		v := ValueLen(b[i:])
		if v < 0 {
			return nil, 0, false
		}
		if string(name) == key {
			return b[i : i+v], i + v, true
		}
		i += v
	}
	return nil, 0, false
}
