package jsonl

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestContainerLen(t *testing.T) {
	for in, want := range map[string]int{
		`{"a":"}"}rest`:       len(`{"a":"}"}`),
		`{"a":"\\"}rest`:      len(`{"a":"\\"}`),
		`{"a":"\"}"}x`:        len(`{"a":"\"}"}`),
		`[{"a":[1,{}]}],`:     len(`[{"a":[1,{}]}]`),
		`{"a":"\\\"}"}}`:      len(`{"a":"\\\"}"}`),
		`{"a":"unterminated}`: -1,
		`"a string"`:          -1,
		`{`:                   -1,
		``:                    -1,
	} {
		if got := ContainerLen([]byte(in)); got != want {
			t.Errorf("ContainerLen(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestField(t *testing.T) {
	obj := []byte(`"type":"function_call","meta":{"name":"nested"},"name":"shell","n":12,"ok":true,"arguments":"{\"cmd\":\"ls\"}"}`)
	for key, want := range map[string]string{
		"name":      `"shell"`,
		"arguments": `"{\"cmd\":\"ls\"}"`,
		"n":         `12`,
		"ok":        `true`,
		"meta":      `{"name":"nested"}`,
	} {
		got, end, ok := Field(obj, key)
		if !ok || string(got) != want || string(obj[end-len(got):end]) != want {
			t.Errorf("Field(%s) = %s, %d, %v; want %s", key, got, end, ok, want)
		}
	}
	if _, _, ok := Field(obj, "missing"); ok {
		t.Error("found a key that is not there")
	}
	if _, _, ok := Field([]byte(`"a":"cut`), "a"); ok {
		t.Error("read a value cut short")
	}
}

// TestObjects: an array of objects is walked member by member, each
// element's members in order and none of a nested value's; a walk can be
// stopped; what does not read as objects up to the ']' is not ok.
func TestObjects(t *testing.T) {
	arr := []byte(`[{"type":"text","text":"a \"]\" b"} , {"type":"tool_use","input":{"type":"nested","n":[1,{}]},"name":"x"}],"more":1}`)
	var got []string
	ends := 0
	stopped, ok := Objects(arr, 1, func(name, value []byte) bool {
		got = append(got, string(name)+"="+string(value))
		return true
	}, func() bool { ends++; return true })
	want := []string{`type="text"`, `text="a \"]\" b"`, `type="tool_use"`, `input={"type":"nested","n":[1,{}]}`, `name="x"`}
	if stopped || !ok || ends != 2 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("walked %q, %d ends (stopped %v, ok %v); want %q, 2 ends", got, ends, stopped, ok, want)
	}
	n := 0
	stopped, ok = Objects(arr, 1, func(name, _ []byte) bool { n++; return string(name) != "input" }, func() bool { return true })
	if !stopped || !ok || n != 4 {
		t.Errorf("a walk stopped at input read %d members (stopped %v, ok %v)", n, stopped, ok)
	}
	for _, bad := range []string{`[{"a":1},2]`, `[{"a":1}`, `[{"a":"cut`, `[{"a":1,}x]`, `["s"]`} {
		if _, ok := Objects([]byte(bad), 1, func(_, _ []byte) bool { return true }, func() bool { return true }); ok {
			t.Errorf("%s read as an array of objects", bad)
		}
	}
	if _, ok := Objects([]byte(`[ ]`), 1, nil, nil); !ok {
		t.Error("an empty array did not read")
	}
}

// FuzzContainerLen: on any bytes the scan ends; on a JSON object followed
// by anything, it finds exactly where the object ends.
func FuzzContainerLen(f *testing.F) {
	f.Add([]byte(`{"command":"ls \"}\" \\","n":[1,{"x":"]"}]}`), []byte(`,"caller":{}}`))
	f.Add([]byte(`{}`), []byte(`}`))
	f.Add([]byte(`{} `), []byte(`0`))
	f.Fuzz(func(t *testing.T, obj, tail []byte) {
		_ = ContainerLen(tail)
		_, _, _ = Field(tail, "name")
		_, _ = Objects(tail, 0, func(_, _ []byte) bool { return true }, func() bool { return true })
		if !json.Valid(obj) || len(obj) == 0 || obj[0] != '{' {
			return
		}
		obj = bytes.TrimRight(obj, " \t\r\n") // what JSON allows after a value
		if got := ContainerLen(append(bytes.Clone(obj), tail...)); got != len(obj) {
			t.Fatalf("ContainerLen(%q + %q) = %d, want %d", obj, tail, got, len(obj))
		}
	})
}
