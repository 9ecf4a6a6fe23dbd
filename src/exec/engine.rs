//! The SQLite that queries run on: rusqlite's bundled copy, compiled into the library (its symbols
//! local to it), never the host's, whose version [`version`] reports for `sqlsim_debug()`.

/// The engine's version, e.g. `3.50.2` (what `SELECT sqlite_version()` gives on its connections).
pub fn version() -> &'static str {
    rusqlite::version()
}

/// The text of an engine error as SQLite words it: rusqlite's `SqlInputError` (SQLite 3.38+) would
/// add " in <the whole query> at offset N".
pub fn message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    /// The oldest SQLite the engine may be: 3.47 runs what predictions written for a current
    /// SQLite use (`ORDER BY` inside an aggregate, 3.44; `timediff`, 3.43; `jsonb_*`, 3.45).
    const MIN_VERSION_NUMBER: i32 = 3_047_000;

    /// `3.50.2` -> 3_050_002, as SQLITE_VERSION_NUMBER.
    fn number(version: &str) -> i32 {
        let parts: Vec<i32> = version.split('.').map(|p| p.parse().unwrap()).collect();
        parts[0] * 1_000_000 + parts[1] * 1_000 + parts.get(2).copied().unwrap_or(0)
    }

    #[test]
    fn engine_is_a_current_sqlite() {
        let conn = Connection::open_in_memory().unwrap();
        let on_connection: String = conn
            .query_row("SELECT sqlite_version()", [], |r| r.get(0))
            .unwrap();
        assert_eq!(on_connection, version());
        assert!(
            number(&on_connection) >= MIN_VERSION_NUMBER,
            "engine is SQLite {on_connection}"
        );
        assert_eq!(number(&on_connection), rusqlite::version_number());
    }

    #[test]
    fn foreign_keys_are_not_enforced_and_errors_are_sqlites_text() {
        let conn = Connection::open_in_memory().unwrap();
        let fk: i64 = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 0);
        conn.execute_batch(
            "CREATE TABLE p(a INTEGER PRIMARY KEY); CREATE TABLE c(x REFERENCES p(a));
             INSERT INTO c VALUES (7);",
        )
        .unwrap();
        let e = conn.prepare("SELECT nope FROM c").unwrap_err();
        assert_eq!(message(&e), "no such column: nope");
    }

    #[test]
    fn engine_runs_syntax_of_current_sqlite() {
        let conn = Connection::open_in_memory().unwrap();
        let ordered: String = conn
            .query_row(
                "SELECT group_concat(column1, ',' ORDER BY column1 DESC) FROM (VALUES ('a'), ('c'), ('b'))",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(ordered, "c,b,a");
        let diff: String = conn
            .query_row("SELECT timediff('2024-03-01', '2024-02-01')", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(diff, "+0000-01-00 00:00:00.000");
    }
}
