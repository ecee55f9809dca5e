package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally/tasks"
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

// task8KB is a TaskCreate of an 8 KB task: a 4000-byte subject and a
// 4000-byte description, the most each field keeps.
func task8KB(i int) map[string]any {
	return map[string]any{"subject": fmt.Sprintf("%04d ", i) + strings.Repeat("s", tasks.MaxText-5), "description": strings.Repeat("d", tasks.MaxText)}
}

// BenchmarkTaskCreate_8KB measures one TaskCreate of an 8 KB task into a
// list that holds N of them, through the tools on the real store. A call
// should cost what it changes, whatever N.
func BenchmarkTaskCreate_8KB(b *testing.B) {
	for _, n := range []int{10, 100, 600} {
		b.Run(fmt.Sprintf("list=%d", n), func(b *testing.B) {
			st := openStore(b, filepath.Join(b.TempDir(), "tally.db"))
			cs := connect(b, Options{Store: st, List: "bench", Now: fixedClock()})
			for i := range n {
				call(b, cs, "TaskCreate", task8KB(i))
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if a := call(b, cs, "TaskCreate", task8KB(n)); a.IsError {
					b.Fatal(a.Text)
				}
				// Back to N tasks for the next call, outside the measure.
				b.StopTimer()
				if _, err := st.UpdateTaskList(ctx, "bench", func(l *tasks.List) error {
					l.Tasks, l.NextID = l.Tasks[:n], n+1
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkTaskCreate_663x8KB is the reported case whole: 663 TaskCreate
// calls of 8 KB tasks into a new list, one op.
func BenchmarkTaskCreate_663x8KB(b *testing.B) {
	st := openStore(b, filepath.Join(b.TempDir(), "tally.db"))
	cs := connect(b, Options{Store: st, Now: fixedClock()})
	for i := 0; i < b.N; i++ {
		list := fmt.Sprintf("bench-%d", i)
		for j := range 663 {
			args := task8KB(j)
			args["list"] = list
			if a := call(b, cs, "TaskCreate", args); a.IsError {
				b.Fatal(a.Text)
			}
		}
	}
}
