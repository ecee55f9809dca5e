package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/tasks"
	"github.com/tallyhq/tally/token"
)

// auditSQL has the database keep every committed version of every list, in
// commit order: the trigger runs inside the writing transaction, which
// holds the list's row lock, and its rows vanish if that rolls back.
const auditSQL = `
CREATE TABLE list_audit (n bigserial PRIMARY KEY, name text NOT NULL, list json NOT NULL);
CREATE FUNCTION list_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.list IS NOT NULL THEN
		INSERT INTO list_audit (name, list) VALUES (NEW.name, NEW.list);
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER list_audit AFTER INSERT OR UPDATE ON task_lists FOR EACH ROW EXECUTE FUNCTION list_audit();`

// TestConcurrentReplicas: 8 MCP clients split over two `tally serve`
// replicas — real processes on one PostgreSQL database, reached over
// streamable HTTP with a token of scope write, as a team runs them —
// make 500 calls each on one list. Every state of the
// list any call committed keeps the rules (at most one task in progress,
// no start with open blockers, unique ids, nothing lost), and the final
// list holds every client's every update.
func TestConcurrentReplicas(t *testing.T) {
	const clients, ops = 8, 500
	url := pgtest.DB(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, auditSQL); err != nil {
		t.Fatal(err)
	}
	// A store holding tokens makes every replica require one.
	secret, tok, hash := token.New("agents", tally.ScopeWrite, time.Now())
	if err := st.AddToken(ctx, tok, hash); err != nil {
		t.Fatal(err)
	}
	readOnly, rtok, rhash := token.New("board", tally.ScopeRead, time.Now())
	if err := st.AddToken(ctx, rtok, rhash); err != nil {
		t.Fatal(err)
	}
	bin := tallyBinary(t)
	replicas := []*servetest.Replica{servetest.Start(t, bin, url), servetest.Start(t, bin, url)}
	sessions := make([]*sdk.ClientSession, clients)
	for k := range sessions {
		endpoint := replicas[k%len(replicas)].URL + "mcp"
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-test", Version: "1"}, nil).
			Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: bearerClient(secret)}, nil)
		if err != nil {
			t.Fatalf("connecting to %s: %v", endpoint, err)
		}
		t.Cleanup(func() { cs.Close() })
		sessions[k] = cs
	}
	// A token that may only read is refused at /mcp, where calls change lists.
	if _, err := sdk.NewClient(&sdk.Implementation{Name: "go-test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: replicas[0].URL + "mcp", HTTPClient: bearerClient(readOnly)}, nil); err == nil {
		t.Error("a read token connected to /mcp")
	}
	start := time.Now()
	results := runWorkload(t, sessions, ops)
	elapsed := time.Since(start)
	checkFinal(t, liveTasks(t, st, sharedList), results)

	rows, err := conn.Query(ctx, "SELECT list::text FROM list_audit WHERE name = $1 ORDER BY n", sharedList)
	if err != nil {
		t.Fatal(err)
	}
	checker := &commitChecker{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var l tasks.List
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatal(err)
		}
		checker.check(l)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	checker.report(t)
	t.Logf("%d calls through 2 replicas in %v; %d committed states checked", clients*ops, elapsed.Round(time.Millisecond), checker.commits)
}

// bearerClient sends every request with the token, as an MCP client
// configured with an Authorization header does.
func bearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token, http.DefaultTransport}}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
