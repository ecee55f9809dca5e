package token

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

type keeper map[string]struct {
	t    tally.Token
	hash []byte
}

func (k keeper) AddToken(_ context.Context, t tally.Token, hash []byte) error {
	k[t.ID] = struct {
		t    tally.Token
		hash []byte
	}{t, hash}
	return nil
}
func (k keeper) Tokens(context.Context) ([]tally.Token, error) { return nil, nil }
func (k keeper) TokenHash(_ context.Context, id string) (tally.Token, []byte, error) {
	e, ok := k[id]
	if !ok {
		return tally.Token{}, nil, tally.Errorf(tally.CodeNotFound, "t", "no token %s", id)
	}
	return e.t, e.hash, nil
}
func (k keeper) RevokeToken(context.Context, string) (tally.Token, error) { return tally.Token{}, nil }

func TestCheck_OnlyTheIssuedSecretPasses(t *testing.T) {
	k := keeper{}
	ctx := context.Background()
	secret, tok, hash := New("ana-laptop", tally.ScopePush, time.Now())
	if len(secret) != Len || !strings.HasPrefix(secret, "tly_"+tok.ID+"_") {
		t.Fatalf("token %q (len %d) does not start with its id %s", secret, len(secret), tok.ID)
	}
	if strings.Contains(string(hash), secret[len(secret)-20:]) {
		t.Fatal("the hash holds the secret")
	}
	_ = k.AddToken(ctx, tok, hash)
	got, err := Check(ctx, k, secret)
	if err != nil || got.ID != tok.ID || got.Scope != tally.ScopePush || got.Name != "ana-laptop" {
		t.Fatalf("Check(issued) = %+v, %v", got, err)
	}
	other, _, _ := New("x", tally.ScopeRead, time.Now())
	forged := secret[:len(prefix)+idLen+1] + other[len(prefix)+idLen+1:]
	for name, bad := range map[string]string{
		"another secret under the right id": forged,
		"a token never issued":              other,
		"cut short":                         secret[:len(secret)-1],
		"empty":                             "",
		"upper-case id":                     strings.ToUpper(secret[:len(prefix)+idLen]) + secret[len(prefix)+idLen:],
	} {
		if _, err := Check(ctx, k, bad); tally.ErrorCode(err) != tally.CodeNotFound {
			t.Errorf("%s: Check = %v, want not found", name, err)
		}
	}
}

func FuzzID(f *testing.F) {
	s, _, _ := New("", tally.ScopeRead, time.Now())
	f.Add(s)
	f.Add("tly_0123456789abcdef_")
	f.Fuzz(func(t *testing.T, in string) {
		id, ok := ID(in)
		if ok && (len(in) != Len || !strings.HasPrefix(in, prefix+id)) {
			t.Fatalf("ID(%q) = %q", in, id)
		}
	})
}
