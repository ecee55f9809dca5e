package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// rawProcess is the real `tally mcp` binary spoken to line by line, as a
// client that sends anything at all would.
type rawProcess struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan []byte
}

func startRaw(t *testing.T, db string) *rawProcess {
	t.Helper()
	cmd := exec.Command(tallyBinary(t), "--db", db, "mcp")
	cmd.Env = testhome.Environ(homeBeside(db), "TALLY_LIST=raw")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rawProcess{cmd: cmd, in: in, lines: make(chan []byte, 64)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return p
}

func (p *rawProcess) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("write %.60q: %v (the server died?)", line, err)
	}
}

// rpcAnswer is one JSON-RPC response as a client reads it.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// next reads the next output line; batches come back as arrays.
func (p *rawProcess) next(t *testing.T) []byte {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatalf("the server closed its output (exited: %v)", p.cmd.ProcessState)
		}
		return l
	case <-time.After(30 * time.Second):
		t.Fatal("no answer within 30 s")
	}
	return nil
}

func (p *rawProcess) answer(t *testing.T) rpcAnswer {
	t.Helper()
	line := p.next(t)
	var a rpcAnswer
	if err := json.Unmarshal(line, &a); err != nil || a.JSONRPC != "2.0" {
		t.Fatalf("answer %.200s is not a JSON-RPC 2.0 response: %v", line, err)
	}
	return a
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func (p *rawProcess) initialize(t *testing.T) {
	t.Helper()
	p.send(t, initLine)
	if a := p.answer(t); string(a.ID) != "0" || a.Error != nil {
		t.Fatalf("initialize: %+v", a)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func createLine(id int, subject string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"TaskCreate","arguments":{"subject":%q}}}`, id, subject)
}

// Each malformed message is answered as JSON-RPC 2.0 says, and the
// session goes on: a request sent just before it is answered, and so is
// one sent after.
func TestServeStdio_malformedMessageIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	p := startRaw(t, filepath.Join(t.TempDir(), "tally.db"))
	p.initialize(t)
	for i, tc := range []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", `hello`, -32700, "null"},
		{"a truncated line", `{"jsonrpc":"2.0","id":5,"method":"pi`, -32700, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}", -32700, "null"},
		{"jsonrpc 1.0 is answered by its id", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, "5"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"an empty object", `{}`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"a number", `123`, -32600, "null"},
		{"a string", `"ping"`, -32600, "null"},
		{"a method that is not a string", `{"jsonrpc":"2.0","id":"s","method":7}`, -32600, `"s"`},
		{"an empty batch", `[]`, -32600, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := 100 + 2*i
			p.send(t, createLine(before, tc.name))
			p.send(t, tc.line)
			p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, before+1))
			got := map[string]rpcAnswer{}
			for range 3 {
				a := p.answer(t)
				key := string(a.ID)
				if a.Error != nil && (a.Error.Code == -32700 || a.Error.Code == -32600) {
					key = "bad"
				}
				got[key] = a
			}
			bad, ok := got["bad"]
			if !ok || bad.Error.Code != tc.code || string(bad.ID) != tc.id || bad.Error.Message == "" {
				t.Errorf("answer to %.60q: %+v; want code %d with id %s", tc.line, bad, tc.code, tc.id)
			}
			if a := got[fmt.Sprint(before)]; a.Error != nil || !strings.Contains(string(a.Result), "created successfully") {
				t.Errorf("the request sent before was not answered: %s", a.Result)
			}
			if a := got[fmt.Sprint(before+1)]; a.Error != nil || string(a.Result) != "{}" {
				t.Errorf("the ping sent after was not answered: %+v", a)
			}
		})
	}
	t.Run("a batch is refused request by request", func(t *testing.T) {
		p.send(t, `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},7,{"jsonrpc":"2.0","id":"b","method":"ping"}]`)
		var got []rpcAnswer
		if err := json.Unmarshal(p.next(t), &got); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, a := range got {
			if a.Error == nil || a.Error.Code != -32600 {
				t.Errorf("batch member answer %+v", a)
			}
			ids = append(ids, string(a.ID))
		}
		if strings.Join(ids, " ") != `"a" null "b"` {
			t.Errorf("batch answers for ids %v, want one per request and one for the 7", ids)
		}
		p.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if a := p.answer(t); string(a.ID) != `"after"` || a.Error != nil {
			t.Errorf("after the batch: %+v", a)
		}
	})
	t.Run("a request id still in use is refused, the first answered", func(t *testing.T) {
		p.send(t, createLine(900, "first"))
		p.send(t, createLine(900, "second"))
		// The second may arrive after the first was answered; then it is
		// a request like any other.
		var first, second int
		for range 2 {
			a := p.answer(t)
			switch {
			case string(a.ID) != "900":
				t.Errorf("answer with id %s", a.ID)
			case a.Error == nil && strings.Contains(string(a.Result), "created successfully: first"):
				first++
			case a.Error != nil && a.Error.Code == -32600 || a.Error == nil && strings.Contains(string(a.Result), "created successfully: second"):
				second++
			}
		}
		if first != 1 || second != 1 {
			t.Errorf("answers: %d to the first request, %d to the second; want one each", first, second)
		}
	})
	t.Run("a frame over the limit is answered and skipped as it streams", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":77,"method":"ping","params":{"x":"` + strings.Repeat("x", MaxFrame) + `"}}`
		p.send(t, big)
		p.send(t, `{"jsonrpc":"2.0","id":78,"method":"ping"}`)
		a := p.answer(t)
		if a.Error == nil || a.Error.Code != -32600 || string(a.ID) != "null" || !strings.Contains(a.Error.Message, "over the limit") {
			t.Errorf("answer to a %d-byte line: %+v", len(big), a)
		}
		if a := p.answer(t); string(a.ID) != "78" || a.Error != nil {
			t.Errorf("the ping after it: %+v", a)
		}
	})
}

// When the client closes its side, the requests it already sent are
// answered before the process exits, and each lands in the store.
func TestServeStdio_requestsInFlightAreAnsweredWhenInputCloses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tally.db")
	p := startRaw(t, db)
	p.initialize(t)
	const n = 20
	var batch strings.Builder
	for i := 1; i <= n; i++ {
		batch.WriteString(createLine(i, fmt.Sprintf("task %d", i)) + "\n")
	}
	batch.WriteString(`{"jsonrpc":"2.0","id":"last","method":"ping"`) // cut short by the close
	if _, err := io.WriteString(p.in, batch.String()); err != nil {
		t.Fatal(err)
	}
	p.in.Close()
	answered := map[string]bool{}
	for l := range p.lines {
		var a rpcAnswer
		if err := json.Unmarshal(l, &a); err != nil {
			t.Fatalf("answer %.200s: %v", l, err)
		}
		answered[string(a.ID)] = a.Error == nil
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("tally mcp exited with %v after its input closed", err)
	}
	for i := 1; i <= n; i++ {
		if !answered[fmt.Sprint(i)] {
			t.Errorf("request %d sent before the close was not answered", i)
		}
	}
	if ok, seen := answered["null"]; !seen || ok {
		t.Error("the line cut short by the close was not answered with an error")
	}
	if got := len(liveTasks(t, openStore(t, db), "raw").Tasks); got != n {
		t.Errorf("the store holds %d tasks, want the %d answered", got, n)
	}
}

// A line far over the limit costs the limit, not its own length.
func TestFrameReader_overlongLineIsNotHeldWhole(t *testing.T) {
	const huge = 16 * MaxFrame
	in := io.MultiReader(io.LimitReader(repeatByte('x'), huge), strings.NewReader("\n{}\nlast"))
	f := frameReader{r: bufio.NewReaderSize(in, 64<<10), max: MaxFrame}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line, over, err := f.next()
	runtime.ReadMemStats(&after)
	if line != nil || over != huge || err != nil {
		t.Fatalf("got %d bytes, over %d, %v; want the line reported over the limit by its length", len(line), over, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*MaxFrame {
		t.Errorf("skipping a %d MiB line allocated %d MiB", huge>>20, alloc>>20)
	}
	for _, want := range []string{"{}", "last"} {
		line, over, err = f.next()
		if string(line) != want || over != 0 || (want == "last") != (err == io.EOF) {
			t.Errorf("next: %q %d %v; want %q", line, over, err, want)
		}
	}
}

type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// The official TypeScript SDK client keeps its session with tally mcp
// while malformed lines reach the server between its calls: every call is
// answered, every bad line is answered with an error the client sees, and
// the list holds every task.
func TestTypeScriptClient_StdioSurvivesMalformedLines(t *testing.T) {
	node := requireNode(t)
	db := filepath.Join(t.TempDir(), "tally.db")
	cmd := exec.Command(node, "testclient/hostile.mjs", tallyBinary(t), "--db", db, "mcp")
	cmd.Env = testhome.Environ(homeBeside(db), "TALLY_LIST=hostile")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	saveArtifact(t, "mcp-transcript-hostile.jsonl", raw)
	if err != nil {
		t.Fatalf("hostile.mjs: %v\n%s", err, stderr.String())
	}
	type step struct {
		Step       string         `json:"step"`
		Line       string         `json:"line"`
		IsError    bool           `json:"isError"`
		Structured map[string]any `json:"structured"`
		Errors     int            `json:"errors"`
		Done       bool           `json:"done"`
	}
	var steps []step
	for _, l := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var e step
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatalf("transcript line %q: %v", l, err)
		}
		steps = append(steps, e)
	}
	if len(steps) == 0 || !steps[len(steps)-1].Done {
		t.Fatalf("the session did not finish:\n%s\n%s", raw, stderr.String())
	}
	bad := 0
	for _, s := range steps[:len(steps)-1] {
		if s.IsError {
			t.Errorf("%s: the call after %q failed: %v", s.Step, s.Line, s.Structured)
		}
		if s.Step == "list" {
			if tasks, _ := s.Structured["tasks"].([]any); len(tasks) != bad {
				t.Errorf("the list holds %d tasks, want the %d created", len(tasks), bad)
			}
			continue
		}
		bad++
		if s.Errors != bad {
			t.Errorf("%s: the client saw %d errors after %d bad lines; want one answer per line", s.Step, s.Errors, bad)
		}
	}
}
