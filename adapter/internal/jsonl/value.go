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
		if !Escaped(b, i) {
			return i
		}
		i++
	}
}

// Escaped tells whether the quote at b[q] is escaped: an odd run of
// backslashes comes before it.
func Escaped(b []byte, q int) bool {
	n := 0
	for k := q - 1; k >= 0 && b[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// Member reads the member of an object that starts at b[i:], where i is
// just after the object's '{' or just after a member's value: blanks and
// commas before it are passed over. It returns the member's name and where
// its value starts; at the object's '}', name is nil and value is just
// after it. ok is false when b does not read as an object's members there.
// A caller walks an object by skipping each value it does not want with
// ValueLen, so that a value's own keys are never taken for the object's.
func Member(b []byte, i int) (name []byte, value int, ok bool) {
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', ' ', '\t', '\n', '\r':
			continue
		case '}':
			return nil, i + 1, true
		case '"':
			k := StringEnd(b[i+1:])
			if k < 0 {
				return nil, 0, false
			}
			name = b[i+1 : i+1+k]
			i += k + 2
			for i < len(b) && (b[i] == ' ' || b[i] == ':') {
				i++
			}
			return name, i, true
		}
		return nil, 0, false
	}
	return nil, 0, false
}

// Field finds key (written `"name":`) among the keys at the top of the
// object whose contents start b — after its '{' — and returns its value's
// bytes and the index in b just after them; ok is false when the object
// has no such key or does not read as one. Each other key's value is
// skipped whole, so a key of the same name nested inside one is never
// taken.
func Field(b []byte, key string) (value []byte, end int, ok bool) {
	for i := 0; ; {
		name, v, ok := Member(b, i)
		if !ok || name == nil {
			return nil, 0, false
		}
		n := ValueLen(b[v:])
		if n < 0 {
			return nil, 0, false
		}
		if string(name) == key {
			return b[v : v+n], v + n, true
		}
		i = v + n
	}
}

// Objects walks an array of objects whose elements start at b[i:], just
// after its '[': member is called with each member's name and value, in
// order, and end after each object's last member. Either returning false
// stops the walk there, and stopped is true. ok is false when, before the
// walk stopped, the array did not read as objects up to its ']'. Each
// value is skipped whole (ValueLen), so a nested object's members are
// never taken for an element's.
func Objects(b []byte, i int, member func(name, value []byte) bool, end func() bool) (stopped, ok bool) {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r', ',':
			i++
			continue
		case ']':
			return false, true
		case '{':
		default:
			return false, false
		}
		for j := i + 1; ; {
			name, v, ok := Member(b, j)
			if !ok {
				return false, false
			}
			if name == nil {
				i = v
				break
			}
			n := ValueLen(b[v:])
			if n < 0 {
				return false, false
			}
			if !member(name, b[v:v+n]) {
				return true, true
			}
			j = v + n
		}
		if !end() {
			return true, true
		}
	}
	return false, false
}
