package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// BenchmarkHook times the real binary answering one hook call, from the
// start of the process to its exit, on a 50 MB transcript whose state the
// store already has (a warm store: an indexer, or an earlier hook, folded
// it). Before each call the session writes one more TodoWrite call and its
// result, as it would between two hooks. Reported: p50 and p99 in ms.
//
//	go test -run '^$' -bench BenchmarkHook -benchtime 200x ./e2e
func BenchmarkHook(b *testing.B) {
	const rec = "../hook/testdata/claude-2.1.330/todo/"
	real, err := os.ReadFile(rec + "transcript.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var sess struct{ SessionID string }
	for _, l := range bytes.Split(real, []byte("\n")) {
		if json.Unmarshal(l, &sess) == nil && sess.SessionID != "" {
			break
		}
	}
	b.Run("floor: the binary starting and exiting", func(b *testing.B) {
		var took []time.Duration
		for range b.N {
			start := time.Now()
			cmd := exec.Command(tallyBin, "--help")
			cmd.Env = testhome.Environ(b.TempDir())
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
		report(b, took)
	})
	for _, event := range []string{"SessionStart-compact", "PostToolUse-TodoWrite", "Stop"} {
		b.Run(event, func(b *testing.B) {
			dir := b.TempDir()
			claudeDir := filepath.Join(dir, "claude")
			transcript := filepath.Join(claudeDir, "projects", "-work", sess.SessionID+".jsonl")
			os.MkdirAll(filepath.Dir(transcript), 0o755)
			f, err := os.Create(transcript)
			if err != nil {
				b.Fatal(err)
			}
			for size := 0; size < 50<<20; size += len(real) {
				f.Write(real)
			}
			f.Close()
			db := filepath.Join(dir, "tally.db")
			env := testhome.Environ(filepath.Join(dir, "home"), "TALLY_DB="+db, "XDG_STATE_HOME="+filepath.Join(dir, "state"))
			scan := exec.Command(tallyBin, "scan", "--claude-dir", claudeDir)
			scan.Env = env
			if out, err := scan.CombinedOutput(); err != nil {
				b.Fatalf("scan: %v\n%s", err, out)
			}
			var p map[string]any
			raw, _ := os.ReadFile(rec + "payloads/" + event + ".json")
			json.Unmarshal(raw, &p)
			p["transcript_path"] = transcript
			payload, _ := json.Marshal(p)
			var took []time.Duration
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				appendTurn(b, transcript, i)
				cmd := exec.Command(tallyBin, "hook", "claude", "--guard-stop")
				cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
				var out bytes.Buffer
				cmd.Stdout = &out
				b.StartTimer()
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
				if event == "SessionStart-compact" && !strings.Contains(out.String(), "Add unit test") {
					b.Fatalf("answer: %q", out.String())
				}
			}
			b.StopTimer()
			report(b, took)
		})
	}
}

func report(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[min(len(took)-1, len(took)*99/100)]), "p99-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// appendTurn appends a TodoWrite call and its result, as the session goes
// on.
func appendTurn(b *testing.B, path string, i int) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	id := fmt.Sprintf("toolu_bench%08d", i)
	fmt.Fprintf(f, `{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":%q,"name":"TodoWrite","input":{"todos":[{"content":"Write greeting module","status":"completed","activeForm":"Writing"},{"content":"Add unit test","status":"in_progress","activeForm":"Adding unit test"},{"content":"Update README","status":"pending","activeForm":"Updating README"}]}}],"stop_reason":"tool_use"},"timestamp":"2026-11-23T16:48:00Z"}`+"\n", id)
	fmt.Fprintf(f, `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"Todos have been modified successfully."}]},"timestamp":"2026-11-23T16:48:01Z"}`+"\n", id)
}
