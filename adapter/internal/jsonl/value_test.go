package jsonl

import (
	"bytes"
	"encoding/json"
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

// FuzzContainerLen: on any bytes the scan ends; on a JSON object followed
// by anything, it finds exactly where the object ends.
func FuzzContainerLen(f *testing.F) {
	f.Add([]byte(`{"command":"ls \"}\" \\","n":[1,{"x":"]"}]}`), []byte(`,"caller":{}}`))
	f.Add([]byte(`{}`), []byte(`}`))
	f.Add([]byte(`{} `), []byte(`0`))
	f.Fuzz(func(t *testing.T, obj, tail []byte) {
		_ = ContainerLen(tail)
		_, _, _ = Field(tail, "name")
		if !json.Valid(obj) || len(obj) == 0 || obj[0] != '{' {
			return
		}
		obj = bytes.TrimRight(obj, " \t\r\n") // what JSON allows after a value
		if got := ContainerLen(append(bytes.Clone(obj), tail...)); got != len(obj) {
			t.Fatalf("ContainerLen(%q + %q) = %d, want %d", obj, tail, got, len(obj))
		}
	})
}
