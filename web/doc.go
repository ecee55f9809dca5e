// Package web is `tally serve`: a JSON API over the store, a stream of
// session changes as Server-Sent Events, and the dashboard page embedded
// in the binary.
//
// What it promises:
//
//   - Every session is the JSON of tally.Session, the shape the CLI's
//     --json prints (SessionJSON.md), encoded by encoding/json: text from
//     agent logs is untrusted and never reaches a page unescaped.
//   - The stream never blocks on a client. One hub goroutine owns the
//     replay ring and the set of clients; it encodes each event once and
//     offers it to every client's bounded buffer without waiting. A client
//     whose buffer is full is disconnected and counted (Stats.Drops); its
//     browser reconnects with Last-Event-ID and is replayed what it missed,
//     or sent a fresh snapshot when the ring no longer holds it. A client
//     that stops reading is cut off by a write deadline, so it holds
//     neither the hub nor a goroutine for long.
//   - Event ids are numbers, increasing within a run, from a range each
//     run draws at random. An id from an earlier run, or from another
//     replica on the same database (a load balancer may send a
//     reconnecting browser to any), falls outside this run's range and
//     gets a snapshot, never a wrong replay. They stay below 2⁵³, so a
//     page may compare them as numbers within one stream.
//   - A snapshot stands for every event up to its id: the store is
//     committed before the indexer publishes, so what the store holds when
//     a snapshot is read is at least as new as the events the hub had
//     sent when the client joined, and every later event reaches the
//     client after it. Events carry whole sessions, so one that repeats
//     what a snapshot already showed changes nothing.
//   - Activity depends on the clock (working turns idle after 2 minutes of
//     silence, anything ends after 30). The hub keeps the records of the
//     sessions that have not ended — bounded by live work, not history —
//     and re-derives them every Refresh, publishing those whose activity
//     changed. Every snapshot and session list carries the thresholds, so
//     the page ages activity between events by this rule, not a copy.
//   - Flags (tally.Flags) reach the page on every session as detection
//     derived them when sent; a working session also carries stallAt, when
//     it counts as stalled if nothing new comes, so the page turns it
//     stalled at that moment with no event. The page shows every flag as a
//     badge with since when, and lists the sessions asking for input,
//     stalled, looping or blocked in a "Needs you" strip above the board,
//     counted in its title; a session that needs the person shows on the
//     board whether or not it has a list.
//   - Projects are named here, by the code the command line names them
//     with (package projectname), from the home of the user the server
//     runs as: the page keeps no rule of its own. Snapshots and session
//     lists carry the names of their projects, and a projects event
//     brings the names a new project changed, before that project's first
//     session, so no two projects a page shows read alike. The hub names
//     the projects of what it seeded and published, at most maxProjects.
//   - A failed request is answered with the status of one table
//     (httpStatus) and the error in a person's words (tally.UserMessage),
//     never Tally's operation names; the server's own failures (5xx) are
//     logged whole to ErrorLog.
//   - Safety: without tokens only loopback Host names are answered (so a
//     page on another site cannot reach the server by DNS rebinding). With
//     --token, or a store holding tokens when serve starts, every request
//     but the page's own files needs a token, as a bearer header or the
//     cookie the page's form (POST /api/login) or a visit to /?token=…
//     sets; its scope must allow the request: read for the API and the
//     stream, write for /mcp and every other write, push for POST
//     /api/push and GET /api/push/decisions (--token allows all). A token found in the store is
//     trusted for 10 s, so a revoked one stops within that. Every response
//     carries a strict CSP (no inline script, no framing), nosniff and
//     no-referrer. A refused request does not keep its connection. When
//     the tokens cannot be checked (the store is out of reach), a client
//     that has not authenticated learns only that (503): the store's
//     kind, address and the driver's words go to ErrorLog.
//   - A push (POST /api/push) is read up to 8 MB as sent and 64 MB once
//     inflated, whatever its compression claims, and holds at most
//     tally.MaxPushSessions sessions; at most four are decoded and applied
//     at once. A push token pushes only batches naming the machine (and
//     user) it was made for (tally.Token.MayPush): another is 403.
//   - A decision on a request of a pushed session takes the request into
//     the store as the pushed record shows it open, then decides it as
//     any other; the machine's tally push takes it home through GET
//     /api/push/decisions (relay.go: scope push, the ids it names, only
//     those of its own machine's sessions, a long poll of at most 25 s).
//   - Plans (Options.Plans): a snapshot carries the plans of its
//     sessions' projects (only of this machine's sessions: a pushed
//     session's folder is another machine's, Session.LocalProject), /api/plans lists them, and a plan that changes
//     (a marker applied, a task file written) reaches every stream as
//     plan_updated with the whole plan (plan_removed when its folder
//     went away). Plans are read off the hub's goroutine, so file IO
//     never holds up the stream; like sessions, an event carries the
//     whole plan, so one that repeats a snapshot changes nothing.
//   - Writes are few and narrow: approving a plan-mode list's plan (POST
//     /api/tasks/{name}/approve) does what `tally tasks approve` does,
//     through the same tasks.SwitchMode. A write passes the token rule
//     above, is never a GET, and must come from the server's own origin
//     as the browser declares it, so another site cannot make a person's
//     browser send one.
//   - No client holds the server's resources for long (HTTPServer): a
//     request's head and body must arrive within their timeouts, an idle
//     connection is closed, one client address holds a bounded number of
//     connections (one more is answered 503 and closed before its request
//     is read), event streams are bounded overall (one more gets 503 with
//     Retry-After), and a request body is bounded in size. Each refusal is
//     counted in Stats.
package web
