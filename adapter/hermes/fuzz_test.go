package hermes

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		`"{\"todos\": [{\"id\": \"1\", \"content\": \"a\", \"status\": \"done\"}], \"merge\": true}"`,
		`{"todos": "[{\"id\": 1}]", "merge": "yes"}`,
		`{"todos": [1, null, {"id": null, "content": true}]}`, `{}`, `[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := parseArgs(data)
		if err != nil {
			return
		}
		if ev.Kind != tally.EventSnapshot && ev.Kind != tally.EventMerge {
			t.Fatalf("kind %v", ev.Kind)
		}
		for _, it := range ev.Items {
			if ev.Kind == tally.EventMerge && it.ID == "" {
				t.Fatal("a merge item without id")
			}
			if ev.Kind == tally.EventSnapshot && (it.ID == "" || it.Title == "" || it.Status == tally.StatusUnknown) {
				t.Fatalf("a replace item Hermes would not store: %+v", it)
			}
		}
	})
}

func FuzzParseResult(f *testing.F) {
	for _, s := range []string{
		`{"todos": [{"id": "1", "content": "a", "status": "deferred"}], "revision": 3}`,
		`{"error": "x"}`, `"{\"todos\": []}"`, `{"todos": null}`, `{"todos": [{"id": 1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := parseResult(data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(items); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzLog(f *testing.F) {
	if data, err := os.ReadFile(logFixture); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"messages": [{"role": "tool", "tool_call_id": "", "content": 3}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &tally.FileState{}
		st.FeedWhole(&logDecoder{}, data)
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzStream(f *testing.F) {
	data, _ := os.ReadFile("testdata/built-stream.jsonl")
	adaptertest.Fuzz(f, New(Options{Home: f.TempDir()}), tally.FileInfo{}, data,
		[]byte("{\"role\": \"tool\", \"tool_name\": \"todo\", \"content\": \"{}\"}\n"))
}
