INSERT INTO tokens (id, name, scope, hash, created_at) VALUES ($1, $2, $3, $4, $5);
