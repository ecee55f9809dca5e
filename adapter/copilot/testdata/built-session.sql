-- Built, not captured: a session.db as Copilot CLI 1.0.102 creates it
-- (the DDL read from a real one), holding what the capture does not: a
-- dependency, a blocked todo, a todo created later in an earlier row's
-- place (the order is creation time, then insertion).
CREATE TABLE todos (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT,
        status TEXT DEFAULT 'pending' CHECK(status IN ('pending', 'in_progress', 'done', 'blocked')),
        created_at TEXT DEFAULT (datetime('now')),
        updated_at TEXT DEFAULT (datetime('now'))
    );
CREATE TABLE todo_deps (
        todo_id TEXT NOT NULL,
        depends_on TEXT NOT NULL,
        PRIMARY KEY (todo_id, depends_on),
        FOREIGN KEY (todo_id) REFERENCES todos(id),
        FOREIGN KEY (depends_on) REFERENCES todos(id)
    );
INSERT INTO todos VALUES ('ship', 'Shipping the release', NULL, 'pending', '2026-11-26 09:00:05', '2026-11-26 09:00:05');
INSERT INTO todos VALUES ('build', 'Building the binary', 'go build ./...', 'done', '2026-11-26 09:00:00', '2026-11-26 09:01:00');
INSERT INTO todos VALUES ('sign', 'Signing the artifacts', NULL, 'blocked', '2026-11-26 09:00:01', '2026-11-26 09:02:00');
INSERT INTO todo_deps VALUES ('ship', 'sign');
INSERT INTO todo_deps VALUES ('ship', 'build');
