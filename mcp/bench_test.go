package mcp

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolCall_Stdio measures a tool call's round trip to the real
// `tally mcp` process on the embedded store, as an agent sees it, and
// reports p50 and p99 besides the mean. The list holds 20 tasks.
func BenchmarkToolCall_Stdio(b *testing.B) {
	db := filepath.Join(b.TempDir(), "tally.db")
	cs, _ := startProcess(b, db, "bench")
	defer cs.Close()
	for range 20 {
		call(b, cs, "TaskCreate", map[string]any{"subject": "a task of the benchmark", "description": "d"})
	}
	for _, bc := range []struct {
		name string
		args func(i int) map[string]any
		tool string
	}{
		{"TaskUpdate", func(i int) map[string]any {
			return map[string]any{"taskId": "3", "metadata": map[string]any{"n": i}}
		}, "TaskUpdate"},
		{"TaskList", func(int) map[string]any { return nil }, "TaskList"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				start := time.Now()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: bc.tool, Arguments: bc.args(i)})
				lat = append(lat, time.Since(start))
				if err != nil || res.IsError {
					b.Fatalf("%v %v", err, res)
				}
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
