package token

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

const (
	prefix    = "tly_"
	idBytes   = 8
	keyBytes  = 32
	idLen     = 2 * idBytes
	secretLen = (keyBytes*8 + 5) / 6 // base64url without padding
)

// Len is the length of every token.
const Len = len(prefix) + idLen + 1 + secretLen

// New makes a token of scope for name: the secret to hand to its bearer
// (once: it is never stored) and what a store keeps of it.
func New(name string, scope tally.Scope, now time.Time) (secret string, t tally.Token, hash []byte) {
	var id [idBytes]byte
	var key [keyBytes]byte
	_, _ = rand.Read(id[:]) // crypto/rand.Read never fails
	_, _ = rand.Read(key[:])
	t = tally.Token{ID: hex.EncodeToString(id[:]), Name: name, Scope: scope, Created: now.UTC().Truncate(time.Second)}
	secret = prefix + t.ID + "_" + base64.RawURLEncoding.EncodeToString(key[:])
	return secret, t, Hash(secret)
}

// Hash is the SHA-256 of a token's secret part.
func Hash(secret string) []byte {
	_, key, _ := split(secret)
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// ID returns the public id of a well-formed token.
func ID(secret string) (string, bool) {
	id, _, ok := split(secret)
	return id, ok
}

func split(secret string) (id, key string, ok bool) {
	if len(secret) != Len || !strings.HasPrefix(secret, prefix) || secret[len(prefix)+idLen] != '_' {
		return "", "", false
	}
	id, key = secret[len(prefix):len(prefix)+idLen], secret[len(prefix)+idLen+1:]
	if _, err := hex.DecodeString(id); err != nil || strings.ToLower(id) != id {
		return "", "", false
	}
	if _, err := base64.RawURLEncoding.DecodeString(key); err != nil {
		return "", "", false
	}
	return id, key, true
}

// Check returns the stored token that secret is. A malformed token, an
// unknown id and a wrong secret are all CodeNotFound, with one message.
func Check(ctx context.Context, k tally.TokenKeeper, secret string) (tally.Token, error) {
	const op = "token.Check"
	id, _, ok := split(secret)
	if !ok {
		return tally.Token{}, tally.Errorf(tally.CodeNotFound, op, "not a valid token")
	}
	t, want, err := k.TokenHash(ctx, id)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		return tally.Token{}, tally.Errorf(tally.CodeNotFound, op, "not a valid token")
	}
	if err != nil {
		return tally.Token{}, err
	}
	if subtle.ConstantTimeCompare(Hash(secret), want) != 1 {
		return tally.Token{}, tally.Errorf(tally.CodeNotFound, op, "not a valid token")
	}
	return t, nil
}

// Pick is the token a reference names among those a store found for it
// (its id, or its name): the one whose id it is, else the one token of
// that name. None is CodeNotFound; a name several share is CodeConflict.
func Pick(op, ref string, found []tally.Token) (tally.Token, error) {
	switch {
	case len(found) == 0:
		return tally.Token{}, tally.Errorf(tally.CodeNotFound, op, "no token with id or name %q (tally token list shows them)", ref)
	case found[0].ID == ref || len(found) == 1:
		return found[0], nil
	}
	ids := make([]string, 0, len(found))
	for _, t := range found {
		ids = append(ids, t.ID)
	}
	return tally.Token{}, tally.Errorf(tally.CodeConflict, op, "%d tokens are named %q (%s): revoke one by its id", len(found), ref, strings.Join(ids, ", "))
}
