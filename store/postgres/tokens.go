package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
	"github.com/tallyhq/tally/token"
)

// AddToken stores a token's id, name, scope and the hash of its secret.
func (s *Store) AddToken(ctx context.Context, t tally.Token, hash []byte) error {
	const op = "postgres.AddToken"
	if err := checkToken(t); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, q.tokenAdd, t.ID, t.Name, t.Scope.String(), hash, t.Created.UnixNano(), t.Machine, t.User)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return tally.Errorf(tally.CodeConflict, op, "a token with id %s exists already", t.ID)
	}
	return s.wrap(op, err)
}

func checkToken(t tally.Token) error {
	for _, k := range []string{t.ID, t.Name, t.Machine, t.User} {
		if err := storable("token", k); err != nil {
			return tally.Errorf(tally.CodeInvalid, "AddToken", "%v", err)
		}
	}
	return tally.CheckToken(t)
}

// Tokens lists the tokens, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]tally.Token, error) {
	const op = "postgres.Tokens"
	rows, err := s.pool.Query(ctx, q.tokens)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := pgx.CollectRows(rows, scanToken)
	return out, s.wrap(op, err)
}

func scanToken(row pgx.CollectableRow) (tally.Token, error) { return column.Token(row.Scan, nil) }

// TokenHash returns a token and the hash of its secret.
func (s *Store) TokenHash(ctx context.Context, id string) (tally.Token, []byte, error) {
	const op = "postgres.TokenHash"
	if storable("id", id) != nil {
		return tally.Token{}, nil, tally.Errorf(tally.CodeNotFound, op, "no token %q", id)
	}
	var hash []byte
	t, err := column.Token(s.pool.QueryRow(ctx, q.tokenByID, id).Scan, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return tally.Token{}, nil, tally.Errorf(tally.CodeNotFound, op, "no token %q", id)
	}
	if err != nil {
		return tally.Token{}, nil, s.wrap(op, err)
	}
	return t, hash, nil
}

// RevokeToken deletes the token whose id or name is ref.
func (s *Store) RevokeToken(ctx context.Context, ref string) (tally.Token, error) {
	const op = "postgres.RevokeToken"
	if ref == "" || storable("token", ref) != nil {
		return tally.Token{}, tally.Errorf(tally.CodeNotFound, op, "no token %q", ref)
	}
	var out tally.Token
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q.tokenMatch, ref)
		if err != nil {
			return err
		}
		found, err := pgx.CollectRows(rows, scanToken)
		if err != nil {
			return err
		}
		if out, err = token.Pick(op, ref, found); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, q.tokenDelete, out.ID)
		return err
	})
	return out, s.wrap(op, err)
}
