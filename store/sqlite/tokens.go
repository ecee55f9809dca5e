package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
	"github.com/tallyhq/tally/token"
)

// AddToken stores a token's id, name, scope and the hash of its secret.
func (s *Store) AddToken(ctx context.Context, t tally.Token, hash []byte) error {
	const op = "sqlite.AddToken"
	if err := tally.CheckToken(t); err != nil {
		return err
	}
	_, err := s.w.ExecContext(ctx, teamSQL.tokenAdd, t.ID, t.Name, t.Scope.String(), hash, t.Created.UnixNano(), t.Machine, t.User)
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint") {
		return tally.Errorf(tally.CodeConflict, op, "a token with id %s exists already", t.ID)
	}
	return s.wrap(op, err)
}

// Tokens lists the tokens, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]tally.Token, error) {
	const op = "sqlite.Tokens"
	rows, err := s.r.QueryContext(ctx, teamSQL.tokens)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanTokens(rows)
	return out, s.wrap(op, err)
}

func scanTokens(rows *sql.Rows) ([]tally.Token, error) {
	defer rows.Close()
	return column.Tokens(rows)
}

// TokenHash returns a token and the hash of its secret.
func (s *Store) TokenHash(ctx context.Context, id string) (tally.Token, []byte, error) {
	const op = "sqlite.TokenHash"
	var hash []byte
	t, err := column.Token(s.r.QueryRowContext(ctx, teamSQL.tokenByID, id).Scan, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return tally.Token{}, nil, tally.Errorf(tally.CodeNotFound, op, "no token %q", id)
	}
	if err != nil {
		return tally.Token{}, nil, s.wrap(op, err)
	}
	return t, hash, nil
}

// RevokeToken deletes the token whose id or name is ref.
func (s *Store) RevokeToken(ctx context.Context, ref string) (tally.Token, error) {
	const op = "sqlite.RevokeToken"
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return tally.Token{}, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	rows, err := tx.QueryContext(ctx, teamSQL.tokenMatch, ref)
	if err != nil {
		return tally.Token{}, s.wrap(op, err)
	}
	found, err := scanTokens(rows)
	if err != nil {
		return tally.Token{}, s.wrap(op, err)
	}
	t, err := token.Pick(op, ref, found)
	if err != nil {
		return tally.Token{}, err
	}
	if _, err := tx.ExecContext(ctx, teamSQL.tokenDelete, t.ID); err != nil {
		return tally.Token{}, s.wrap(op, err)
	}
	return t, s.wrap(op, tx.Commit())
}
