// Package pgtest runs a real PostgreSQL server for tests: initdb into a
// temporary folder, the server listening on a unix socket in that folder
// only, one fresh database per test, the server stopped and the folder
// removed when the tests end.
//
// A package whose tests need PostgreSQL calls Main from its TestMain, and
// each test asks DB for a database of its own:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
//	func TestX(t *testing.T) { url := pgtest.DB(t); … }
//
// The server starts at the first DB call, so a run that selects none of
// those tests never starts one. It comes from Debian's packages
// (scripts/deps-postgres installs them): $TALLY_PG_BIN, else the folder of
// initdb on PATH, else the newest /usr/lib/postgresql/*/bin. initdb refuses
// to run as root, so a root test process runs initdb and the server as the
// user "postgres" that the Debian package creates.
//
// When no PostgreSQL is installed, DB skips the test saying how to install
// it; under CI (the environment variable CI set) or with TALLY_REQUIRE_PG=1
// it fails instead, so a CI machine without the server cannot pass by
// skipping. Any other failure to start fails the test with the server's
// log.
//
// The shared server trades durability for speed (fsync off): the cluster
// is thrown away, and crash safety is PostgreSQL's, not what these tests
// check. Start with Durable gives a server that syncs, for benchmarks whose
// figures must be those of a real deployment.
//
// The server is a child of the test process that dies with it (a parent
// death signal), so a test binary killed by a timeout leaves no server
// running.
package pgtest
