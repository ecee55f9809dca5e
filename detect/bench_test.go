package detect

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkRules_Observe is the cost the indexer pays per observation: a
// realistic mix of tool calls, their output, and list changes.
func BenchmarkRules_Observe(b *testing.B) {
	r := DefaultRules()
	obs := make([]Observation, 0, 64)
	for i := range 64 {
		at := t0.Add(time.Duration(i) * time.Second)
		switch i % 8 {
		case 0:
			obs = append(obs, ListChanged(ListState{Total: 5, Open: 3}, at))
		case 1, 3, 5:
			obs = append(obs, ToolCall(uint64(i%5), at))
		default:
			obs = append(obs, Output(at))
		}
	}
	var s State
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.Observe(&s, obs[i&63])
		i++
	}
}

// BenchmarkRules_Flags is the cost of deriving a session's flags when a
// surface shows it.
func BenchmarkRules_Flags(b *testing.B) {
	r := DefaultRules()
	var s State
	for _, o := range calls(0, 10, callA, callB) {
		r.Observe(&s, o)
	}
	now := t0.Add(10 * time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Flags(&s, now)
	}
}

// BenchmarkFingerprint hashes a typical Bash call, and a Write of a 16 KB
// file: arguments that large are why the hash is a CRC the CPU computes.
func BenchmarkFingerprint(b *testing.B) {
	write := []byte(`{"file_path":"/src/main.go","content":"` + strings.Repeat("x := f(y)\\n", 1600) + `"}`)
	for _, c := range []struct {
		name, tool string
		args       []byte
	}{
		{"bash", "Bash", []byte(`{"command":"go test -race ./...","description":"Run the tests","timeout":600000}`)},
		{"write-16KB", "Write", write},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.args)))
			for b.Loop() {
				_ = Fingerprint(c.tool, c.args)
			}
		})
	}
}
