-- Locks the stream's row until the transaction ends: a batch sent again
-- while the first is being applied waits here, then finds the mark moved.
SELECT mark FROM push_streams WHERE machine = $1 AND stream = $2 FOR UPDATE;
