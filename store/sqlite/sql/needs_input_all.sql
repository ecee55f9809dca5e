-- The table holds the few sessions waiting for their user right now.
SELECT session, at FROM needs_input;
