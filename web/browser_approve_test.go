package web_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A list Tally keeps itself, in plan mode, approved from the page: the
// person asks for a plan first (tally tasks plan), an agent drafts it over
// MCP and is refused execution, the person clicks Approve plan on the card,
// and the agent's next call goes through.

const planList = "demo-plan"

// tally runs the built binary against the server's database and homes,
// as a person would in another terminal.
func (s *serveProc) tally(t *testing.T, args ...string) string {
	t.Helper()
	i := len(s.args) - 3 // before "serve --addr ADDR"
	cmd := exec.Command(s.args[0], append(append([]string{}, s.args[1:i]...), args...)...)
	cmd.Dir = s.home
	cmd.Env = dashEnv(s.home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tally %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// mcpAgent is an agent's MCP client on the server's /mcp endpoint.
type mcpAgent struct {
	cs *sdk.ClientSession
}

func connectMCP(t *testing.T, url string) *mcpAgent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "browser-test-agent", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url + "mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting to %smcp: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpAgent{cs: cs}
}

// call calls a tool and returns whether it failed and its text.
func (a *mcpAgent) call(t *testing.T, tool string, args map[string]any) (failed bool, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := a.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text += tc.Text
		}
	}
	return res.IsError, text
}

func stepApprovePlan(t *testing.T, b *browser, srv *serveProc) {
	srv.tally(t, "tasks", "plan", planList)
	agent := connectMCP(t, srv.url)
	for _, subject := range []string{"Sketch the greeting module", "Plan its tests"} {
		if failed, text := agent.call(t, "TaskCreate", map[string]any{"list": planList, "subject": subject, "description": subject}); failed {
			t.Fatalf("TaskCreate %q: %s", subject, text)
		}
	}
	start := map[string]any{"list": planList, "taskId": "1", "status": "in_progress"}
	if failed, text := agent.call(t, "TaskUpdate", start); !failed || !strings.Contains(text, "plan mode") {
		t.Fatalf("starting a task of a list in plan mode: failed=%v %q, want a plan-mode refusal", failed, text)
	}

	id := "tally:" + planList
	c := b.waitCardWhere(t, id, `c.count === '0/2' && c.approve === 'Approve plan'`)
	if c.Column != "needs_input" {
		t.Errorf("a plan waiting for approval is in column %q, want needs_input", c.Column)
	}

	b.shot(t, "dashboard-plan-1280x800.png")

	// Its detail says what the list is, not "Log 0 file(s)".
	b.do(t, chromedp.Click(chromedp.CSS(cardSel(id)+" .title")))
	b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
	facts := b.eval(t, `[...document.querySelectorAll('#detail .facts dt')].map(e => e.textContent).join(',')`)
	if strings.Contains(facts, "Log") || !strings.Contains(facts, "Task list") {
		t.Errorf("detail facts of a Tally list are %q, want a Task list fact and no Log", facts)
	}
	if b.eval(t, `String(!!document.querySelector('#detail [data-part="approve"]:not([hidden]) .approve-button'))`) != "true" {
		t.Error("the detail of a plan waiting for approval has no Approve button")
	}
	b.shot(t, "dashboard-plan-detail-1280x800.png")
	b.do(t, chromedp.Click(chromedp.ID("detail-close")))
	b.poll(t, "the detail dialog closes", `!document.getElementById('detail').open`)

	b.tagCard(t, id)
	b.do(t, chromedp.Click(chromedp.CSS(cardSel(id)+` [data-part="approve-button"]`)))
	c = b.waitCardWhere(t, id, `c.approve === '' && c.column === 'working'`)
	if strings.Contains(c.Title, "waiting for approval") {
		t.Errorf("approved list still titled %q", c.Title)
	}
	b.wantTagged(t, id)
	if out := srv.tally(t, "tasks", planList); strings.Contains(out, "plan mode") {
		t.Errorf("tally tasks %s after approval still says plan mode:\n%s", planList, out)
	}
	if failed, text := agent.call(t, "TaskUpdate", start); failed {
		t.Fatalf("starting a task after approval: %s", text)
	}
	b.waitCardWhere(t, id, `c.rows.length > 0 && c.rows[0].icon === '◼'`)
}
