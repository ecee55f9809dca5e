// Package push ships a machine's sessions to a team's server: what `tally
// push` runs beside a local indexer.
//
// The local store is the outbox. The indexer folds the agents' logs into
// it as on any machine (its offsets and folded state are local; the server
// never sees a raw line), and every record it commits takes the next
// change mark. The pusher reads the records changed since the mark the
// server last acknowledged, a page at a time, and sends each page as one
// batch (tally.PushBatch): gzipped JSON in a POST to /api/push, naming the
// machine, the user, the stream (the local store, by a random id made with
// it) and the marks the batch runs from and to.
//
// What it promises:
//
//   - No loss: the acknowledged mark moves only when the server answers
//     that it committed a batch, and is saved (written whole, synced, then
//     renamed into place) before the next batch is read. Everything after
//     it is still in the local store, which keeps each session once, at
//     its newest: what waits to be sent is bounded by the number of
//     sessions, not by how long the server was away.
//   - No duplicate: the server applies a batch in the transaction that
//     moves the stream's mark, so a batch sent again after a lost answer
//     is a repeat and writes nothing; records are whole sessions keyed by
//     id, so one applied twice changes nothing either. A server that holds
//     less than the batch assumes (a restored database) says from where to
//     send again, and the pusher goes back to it.
//   - Batches are bounded: at most BatchRecords records and about
//     BatchBytes of JSON before compression; a session too large for the
//     server on its own is skipped and said, never retried for ever.
//   - Failures that may pass (no connection, a timeout, 5xx, 429) are
//     retried with exponential backoff and full jitter, from MinBackoff up
//     to MaxBackoff; a refused token (401, 403) ends Run with an error.
//   - A local store replaced by a new one (its change marks start again
//     below the acknowledged mark) starts a new stream from 0.
//   - Decisions come home through the pusher's own connections: while a
//     record it pushed shows a request open, it asks GET
//     /api/push/decisions for the open ones (a long poll, asked again at
//     once when another request is shown) and takes each decision into
//     the local store, where the agent's hook waits for it (decisions.go).
//     The server never connects to the machine.
package push
