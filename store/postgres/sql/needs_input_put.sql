-- A later mark of the same session replaces an earlier one, never the
-- other way round. Returns the mark that stands.
INSERT INTO needs_input (session, at) VALUES ($1, $2)
ON CONFLICT (session) DO UPDATE SET at = greatest(needs_input.at, excluded.at)
RETURNING at;
