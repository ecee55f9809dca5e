package cli

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/token"
)

// tally token create prints the token on its last line and stores only its
// hash; list shows it without the secret; revoke by name removes it.
func TestToken_createListRevoke(t *testing.T) {
	st := newStore(t)
	code, out, errOut := run(t, st, nil, "token", "create", "--scope", "push", "--machine", "ana-laptop", "--user", "ana")
	if code != ExitOK {
		t.Fatalf("create: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	secret := lines[len(lines)-1]
	if _, ok := token.ID(secret); !ok {
		t.Fatalf("the last line is not a token: %q", out)
	}
	got, err := token.Check(context.Background(), st, secret)
	if err != nil || got.Scope != tally.ScopePush || got.Name != "ana-laptop" || got.Machine != "ana-laptop" || got.User != "ana" {
		t.Fatalf("the printed token: %+v, %v", got, err)
	}
	code, out, _ = run(t, st, nil, "token", "list", "--json")
	var list []tally.Token
	if code != ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Scope != tally.ScopePush {
		t.Fatalf("list: %d %s", code, out)
	}
	if strings.Contains(out, secret[len(secret)-20:]) {
		t.Errorf("list shows the secret: %s", out)
	}
	if code, _, errOut := run(t, st, nil, "token", "create", "--scope", "admin"); code != ExitUsage && code != ExitError {
		t.Errorf("an unknown scope: %d %s", code, errOut)
	}
	if code, _, errOut := run(t, st, nil, "token", "create", "--scope", "push", "--name", "anyone"); code != ExitUsage || !strings.Contains(errOut, "--machine") {
		t.Errorf("a push token for no machine: %d %s", code, errOut)
	}
	if code, _, errOut := run(t, st, nil, "token", "create", "--scope", "read", "--machine", "m"); code != ExitUsage {
		t.Errorf("a read token for a machine: %d %s", code, errOut)
	}
	if code, out, errOut := run(t, st, nil, "token", "revoke", "ana-laptop"); code != ExitOK || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %d %s %s", code, out, errOut)
	}
	if _, err := token.Check(context.Background(), st, secret); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("the revoked token still passes: %v", err)
	}
	if code, _, _ := run(t, st, nil, "token", "revoke", "ana-laptop"); code != ExitNotFound {
		t.Errorf("revoking it again: exit %d, want not found", code)
	}
}

// TestToken_noTwoTokensShareAName: 'revoke NAME' must name one token; two
// tokens of one name made it exit 4.
func TestToken_noTwoTokensShareAName(t *testing.T) {
	st := newStore(t)
	if code, _, errOut := run(t, st, nil, "token", "create", "--scope", "read", "--name", "board"); code != ExitOK {
		t.Fatalf("create: %d %s", code, errOut)
	}
	code, out, errOut := run(t, st, nil, "token", "create", "--scope", "write", "--name", "board")
	if code != ExitUsage || out != "" || !strings.Contains(errOut, `a token named "board" exists already`) {
		t.Errorf("a second token named board: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A machine's replacement push token is named apart from the first.
	for range 2 {
		if code, _, errOut := run(t, st, nil, "token", "create", "--scope", "push", "--machine", "ana-laptop"); code != ExitOK {
			t.Fatalf("push token: %d %s", code, errOut)
		}
	}
	list, err := st.Tokens(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tk := range list {
		names = append(names, tk.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "ana-laptop,ana-laptop-2,board" {
		t.Errorf("names %v", names)
	}
	if code, _, errOut := run(t, st, nil, "token", "revoke", "ana-laptop"); code != ExitOK {
		t.Errorf("revoke by name: %d %s", code, errOut)
	}
}
