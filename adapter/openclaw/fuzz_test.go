package openclaw

import "testing"

// FuzzEvent: any transcript event, compressed or not, and any steps_json
// is read without a panic, a bad one an error.
func FuzzEvent(f *testing.F) {
	for _, s := range []string{
		`{"type":"session","version":4,"id":"x","cwd":"/w"}`,
		`{"type":"message","timestamp":"2026-11-26T08:20:01Z","message":{"role":"user","content":"System: CLI agent (x) produced no output for 300s and was terminated."}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"c"},{"type":"text","text":"ok?"}]}}`,
		`[{"step":"a","status":"in_progress"}]`, "\x28\xb5\x2f\xfd\x00", `{"message":{"content":7}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w := &window{}
		_ = w.event(b)
		if raw, err := unzstd(b); err == nil {
			_ = w.event(raw)
		}
		if items, err := stepItems(b); err == nil && items == nil {
			t.Fatal("a card read without error is a list")
		}
	})
}
