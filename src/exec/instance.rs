//! The execution harness of ParSEval: a small database built from a schema and rows in an
//! in-memory SQLite, and both queries run on it under bounds, their results compared by
//! `same_result`.
//!
//! SQLite here is the engine compiled into the library ([`super::engine`]: rusqlite's bundled copy,
//! the one SQLite in the build), the same inside both hosts.

use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::types::Value;
use rusqlite::Connection;

use super::compare::Row;
use super::leniency::{Leniencies, Leniency, RowRule};
use super::options::Semantics;
use super::reuse::{self, Loaded};
use super::same_result::{same_result, RowOrder};
use super::{run_cached, ExecOptions, RunError};
use crate::schema::{Affinity, Schema};

/// Rows of one table of a generated database.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRows {
    /// Index into [`Schema::tables`].
    pub table: usize,
    pub rows: Vec<Vec<Value>>,
}

/// A concrete database: rows per table (tables not listed are empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Database {
    pub tables: Vec<TableRows>,
}

/// Most SQLite steps a query may take on a generated database (a few rows per table: only a
/// runaway query gets near it; about half a second of SQLite work).
pub const MAX_STEPS_PER_QUERY: u64 = 50_000_000;

/// Bounds for running a query on a generated database: counted steps (deterministic), with a
/// wall-clock safety cap far behind them.
pub fn instance_bounds() -> ExecOptions {
    ExecOptions {
        timeout: Duration::from_millis(10_000),
        max_steps: Some(MAX_STEPS_PER_QUERY),
        max_rows: 100_000,
        keep_distinct: true,
    }
}

/// `id` as a double-quoted SQL identifier.
pub fn quote(id: &str) -> String {
    format!("\"{}\"", id.replace('"', "\"\""))
}

/// `CREATE TABLE` statements for every table of `schema`: declared types, NOT NULL, primary,
/// unique and foreign keys (foreign keys are not enforced: SQLite's default).
pub fn create_statements(schema: &Schema) -> Vec<String> {
    let col_name = |c: usize| {
        schema
            .columns
            .get(c)
            .map(|c| quote(&c.name))
            .unwrap_or_default()
    };
    let list = |cols: &[usize]| {
        cols.iter()
            .map(|&c| col_name(c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    schema
        .tables
        .iter()
        // SQLite's own tables (Spider lists sqlite_sequence) cannot be created
        .filter(|t| !is_internal(&t.name))
        .map(|t| {
            let mut parts: Vec<String> = t
                .columns
                .iter()
                .filter_map(|&c| schema.columns.get(c))
                .map(|c| {
                    let mut s = quote(&c.name);
                    let ty = sqlite_type_name(&c.ty);
                    if !ty.is_empty() {
                        s.push(' ');
                        s.push_str(&ty);
                    }
                    if c.not_null {
                        s.push_str(" NOT NULL");
                    }
                    s
                })
                .collect();
            if !t.primary_key.is_empty() {
                parts.push(format!("PRIMARY KEY ({})", list(&t.primary_key)));
            }
            for u in &t.unique_keys {
                parts.push(format!("UNIQUE ({})", list(u)));
            }
            for fk in &t.foreign_keys {
                if let Some(rt) = schema.tables.get(fk.referenced_table) {
                    parts.push(format!(
                        "FOREIGN KEY ({}) REFERENCES {} ({})",
                        list(&fk.columns),
                        quote(&rt.name),
                        list(&fk.referenced_columns)
                    ));
                }
            }
            format!("CREATE TABLE {} ({})", quote(&t.name), parts.join(", "))
        })
        .collect()
}

/// SQLite reserves `sqlite_*` names for its own tables.
pub fn is_internal(table: &str) -> bool {
    table.to_lowercase().starts_with("sqlite_")
}

/// Why a database could not be loaded into SQLite.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// SQLite failed before taking any data: opening, registering functions, preparing an INSERT.
    Sqlite(String),
    /// SQLite rejected a table or a row (a row that breaks a key): the statement or table, and why.
    Rejected(String),
    /// Rows for a table the schema does not have (a bug in whatever generated them).
    NoTable(usize),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Sqlite(m) | LoadError::Rejected(m) => f.write_str(m),
            LoadError::NoTable(t) => write!(f, "no table #{t}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Databases are generated, never user input: failing to load one is a bug.
impl From<LoadError> for crate::error::Error {
    fn from(e: LoadError) -> Self {
        crate::error::Error::Internal(e.to_string())
    }
}

/// A declared column type as a type name SQLite reads, with the same affinity: the words of
/// the type, its size or precision dropped (`VARCHAR(20)` is `VARCHAR`, `DECIMAL(10, 2)` is
/// `DECIMAL`; SQLite ignores them and reads the affinity from the words alone), and any
/// character that could end the column definition (quotes, commas, semicolons) dropped too.
fn sqlite_type_name(declared: &str) -> String {
    let mut out = String::with_capacity(declared.len());
    let mut depth = 0usize;
    for c in declared.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_alphanumeric() || c == '_' => out.push(c),
            _ => out.push(' '),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An in-memory SQLite holding `db` under `schema`; Err when a table or row is rejected (a row
/// that breaks a key, for example). The connection is read-only and, once dropped, reused for the
/// next database of the same schema on this thread ([`super::reuse`]).
pub fn open_database(schema: &Schema, db: &Database) -> Result<Loaded, LoadError> {
    let _timer = crate::profile::time(crate::profile::Stage::Queries);
    let sqlite = |e: rusqlite::Error| LoadError::Sqlite(super::engine::message(&e));
    let create = || {
        let conn = Connection::open_in_memory().map_err(sqlite)?;
        super::functions::register(&conn).map_err(sqlite)?;
        for stmt in &create_statements(schema) {
            conn.execute(stmt, []).map_err(|e| {
                LoadError::Rejected(format!("{stmt}: {}", super::engine::message(&e)))
            })?;
        }
        Ok(conn)
    };
    let mut empty = reuse::take(schema, create)?;
    for t in &db.tables {
        let Some(table) = schema.tables.get(t.table) else {
            return Err(LoadError::NoTable(t.table));
        };
        if is_internal(&table.name) || t.rows.is_empty() {
            continue;
        }
        let name = quote(&table.name);
        let marks = vec!["?"; table.columns.len()].join(", ");
        let sql = format!("INSERT INTO {name} VALUES ({marks})");
        empty.filled(name);
        let mut stmt = empty.conn().prepare_cached(&sql).map_err(sqlite)?;
        for row in &t.rows {
            stmt.execute(rusqlite::params_from_iter(row.iter()))
                .map_err(|e| {
                    LoadError::Rejected(format!("{}: {}", table.name, super::engine::message(&e)))
                })?;
        }
    }
    empty.loaded().map_err(sqlite)
}

/// The SQLite storage class a column's values should take (its affinity's natural class).
pub fn storage_class(schema: &Schema, column: usize) -> Affinity {
    schema
        .columns
        .get(column)
        .map(|c| c.affinity())
        .unwrap_or(Affinity::Blob)
}

/// The result of one query on one database: rows, or why there are none.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Rows(Vec<Row>),
    /// SQLite rejected the query (or failed running it).
    Error(String),
    /// The query ran past the time or row bound.
    Bound(String),
}

/// Runs `sql` on `conn` under `opts`; `reverse` sets the flag of `PRAGMA
/// reverse_unordered_selects`, which changes the order of rows SQLite is free to order (ties of
/// ORDER BY, unordered scans). The statement comes from the connection's cache
/// ([`super::run_cached`]); the flag is set through `sqlite3_db_config`, which (unlike the pragma)
/// expires the connection's statements only when it changes.
pub fn run_query(conn: &Connection, sql: &str, opts: &ExecOptions, reverse: bool) -> Outcome {
    if let Err(e) = conn.set_db_config(DbConfig::SQLITE_DBCONFIG_REVERSE_SCANORDER, reverse) {
        return Outcome::Error(e.to_string());
    }
    match run_cached(conn, sql, opts) {
        Ok(rows) => Outcome::Rows(rows),
        Err(RunError::Sql(m)) => Outcome::Error(m),
        Err(RunError::Timeout(m) | RunError::Steps(m) | RunError::RowLimit(m)) => Outcome::Bound(m),
    }
}

/// The two queries' outcomes on one database and whether they differ.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub gold: Outcome,
    pub pred: Outcome,
    /// True only when the results are certainly different: the prediction fails where the gold
    /// runs, or no order SQLite may choose for either query makes the results equal.
    pub differ: bool,
    /// True when the gold query could not give a result (error or bound): the database decides nothing.
    pub gold_failed: bool,
    /// The leniencies the results needed to be the same (empty when they are as they are, or
    /// differ).
    pub lenient: Vec<Leniency>,
}

/// [`compare_lenient`] without leniencies.
#[cfg(test)]
pub fn compare_with(
    conn: &Connection,
    gold: &str,
    pred: &str,
    order: &RowOrder,
    semantics: Semantics,
) -> Comparison {
    compare_lenient(conn, gold, pred, (order, semantics), &Leniencies::default())
}

/// Runs `gold` and `pred` on `conn` and compares them under `order` (the gold's outer ORDER BY).
/// A difference is re-tested with SQLite's unordered scans reversed (rows a LIMIT without ORDER
/// BY may pick), and counts only when no combination of the two runs makes the results equal.
/// The results are compared under `semantics` ([`same_result`]), and also count as the same
/// where `leniency`'s column order, extra columns or numeric tolerance make them so (which of
/// them it took: [`Comparison::lenient`]).
pub fn compare_lenient(
    conn: &Connection,
    gold: &str,
    pred: &str,
    (order, semantics): (&RowOrder, Semantics),
    leniency: &Leniencies,
) -> Comparison {
    let _timer = crate::profile::time(crate::profile::Stage::Queries);
    let rows = match (semantics, order) {
        (Semantics::Bird, _) => RowRule::Set,
        (_, RowOrder::Bag) => RowRule::Bag,
        (_, RowOrder::Sorted(keys)) => RowRule::Sorted(keys.clone()),
    };
    let order_free = semantics == Semantics::TestSuite;
    let same = |a: &[Row], b: &[Row]| {
        leniency.matches(a, b, rows.clone(), order_free, &mut |x, y| {
            same_result(x, y, order, semantics)
        })
    };
    let opts = instance_bounds();
    let g = run_query(conn, gold, &opts, false);
    let p = run_query(conn, pred, &opts, false);
    let mut lenient = Vec::new();
    let (differ, gold_failed) = match (&g, &p) {
        (Outcome::Rows(gr), Outcome::Rows(pr)) => {
            if let Some(used) = same(gr, pr) {
                lenient = used;
                (false, false)
            } else {
                let g2 = run_query(conn, gold, &opts, true);
                let p2 = run_query(conn, pred, &opts, true);
                let golds = [Some(gr), rows_of(&g2)];
                let preds = [Some(pr), rows_of(&p2)];
                let equal = golds
                    .iter()
                    .flatten()
                    .find_map(|gx| preds.iter().flatten().find_map(|px| same(gx, px)));
                let differ = equal.is_none();
                lenient = equal.unwrap_or_default();
                (differ, false)
            }
        }
        (Outcome::Rows(_), Outcome::Error(_)) => (true, false),
        (Outcome::Rows(_), Outcome::Bound(_)) => (false, false),
        _ => (false, true),
    };
    Comparison {
        gold: g,
        pred: p,
        differ,
        gold_failed,
        lenient,
    }
}

fn rows_of(o: &Outcome) -> Option<&Vec<Row>> {
    match o {
        Outcome::Rows(r) => Some(r),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare_on(conn: &Connection, gold: &str, pred: &str, order: &RowOrder) -> Comparison {
        compare_with(conn, gold, pred, order, Semantics::Bag)
    }

    fn schema() -> Schema {
        Schema::from_argument(
            "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c REAL); \
             CREATE TABLE u(x INTEGER REFERENCES t(a), y TEXT, UNIQUE(y))",
        )
        .unwrap()
    }

    fn db(rows: Vec<Vec<Value>>) -> Database {
        Database {
            tables: vec![TableRows { table: 0, rows }],
        }
    }

    #[test]
    fn builds_tables_with_constraints() {
        let mut s = schema();
        s.tables.push(crate::schema::Table {
            name: "sqlite_sequence".into(),
            ..Default::default()
        });
        assert_eq!(
            create_statements(&s).len(),
            2,
            "SQLite's own tables are not created"
        );
        let ddl = create_statements(&s);
        assert!(ddl[0].contains("PRIMARY KEY (\"a\")"), "{ddl:?}");
        assert!(ddl[0].contains("\"b\" TEXT NOT NULL"), "{ddl:?}");
        assert!(
            ddl[1].contains("FOREIGN KEY (\"x\") REFERENCES \"t\" (\"a\")"),
            "{ddl:?}"
        );
        let ok = db(vec![
            vec![Value::Integer(1), Value::Text("x".into()), Value::Real(1.5)],
            vec![Value::Integer(2), Value::Text("y".into()), Value::Null],
        ]);
        assert!(open_database(&s, &ok).is_ok());
        let dup = db(vec![
            vec![Value::Integer(1), Value::Text("x".into()), Value::Null],
            vec![Value::Integer(1), Value::Text("y".into()), Value::Null],
        ]);
        assert!(open_database(&s, &dup).is_err());
        let null = db(vec![vec![Value::Integer(1), Value::Null, Value::Null]]);
        assert!(open_database(&s, &null).is_err());
    }

    #[test]
    fn sized_and_multi_word_types_load_with_their_affinity() {
        assert_eq!(sqlite_type_name("VARCHAR(20)"), "VARCHAR");
        assert_eq!(sqlite_type_name("DECIMAL(10, 2)"), "DECIMAL");
        assert_eq!(sqlite_type_name("double precision"), "double precision");
        assert_eq!(sqlite_type_name("INT) ; DROP \"x"), "INT DROP x");
        // Spider's own DDL declares `age VARCHAR(20)`: every generated database was rejected
        let s = Schema::from_argument(
            "CREATE TABLE d(id INTEGER PRIMARY KEY, age VARCHAR(20), price DECIMAL(10, 2), \
             flag CHAR(1), w DOUBLE PRECISION)",
        )
        .unwrap();
        let text = |t: &str| Value::Text(t.into());
        let rows = db(vec![vec![
            Value::Integer(1),
            text("7"),
            text("2.5"),
            text("1"),
            text("3"),
        ]]);
        let loaded = open_database(&s, &rows).expect("loads");
        let types: (String, String, String, String) = loaded
            .query_row(
                "SELECT typeof(age), typeof(price), typeof(flag), typeof(w) FROM d",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        let expected = ("text", "real", "text", "real");
        assert_eq!((&*types.0, &*types.1, &*types.2, &*types.3), expected);
    }

    #[test]
    fn compares_bags_lists_and_tolerates_rounding() {
        let s = schema();
        let conn = open_database(
            &s,
            &db(vec![
                vec![Value::Integer(1), Value::Text("x".into()), Value::Real(0.1)],
                vec![Value::Integer(2), Value::Text("x".into()), Value::Real(0.2)],
                vec![Value::Integer(3), Value::Text("z".into()), Value::Real(0.3)],
            ]),
        )
        .unwrap();
        let same = |g: &str, p: &str, o: RowOrder| !compare_on(&conn, g, p, &o).differ;
        let bag = || RowOrder::Bag;
        let by = |k: &[usize]| RowOrder::Sorted(k.to_vec());
        assert!(same(
            "SELECT a FROM t",
            "SELECT a FROM t ORDER BY a DESC",
            bag()
        ));
        assert!(!same(
            "SELECT a FROM t ORDER BY a",
            "SELECT a FROM t ORDER BY a DESC",
            by(&[0])
        ));
        assert!(same("SELECT sum(c) FROM t", "SELECT 0.6", bag()));
        assert!(!same("SELECT b FROM t", "SELECT DISTINCT b FROM t", bag()));
        // ties of ORDER BY b may come in either order, but the runs of b must match
        assert!(same(
            "SELECT b, a FROM t ORDER BY b",
            "SELECT b, a FROM t ORDER BY b, a DESC",
            by(&[0])
        ));
        assert!(!same(
            "SELECT b, a FROM t ORDER BY b",
            "SELECT b, a FROM t ORDER BY b DESC",
            by(&[0])
        ));
        // a LIMIT without ORDER BY may pick any row: both scan orders are tried
        assert!(same(
            "SELECT b FROM t LIMIT 1",
            "SELECT b FROM t ORDER BY a DESC LIMIT 1",
            bag()
        ));
        // a prediction SQLite rejects differs; a gold that fails decides nothing
        let c = compare_on(&conn, "SELECT a FROM t", "SELECT nope FROM t", &bag());
        assert!(c.differ && !c.gold_failed);
        let c = compare_on(&conn, "SELECT nope FROM t", "SELECT a FROM t", &bag());
        assert!(!c.differ && c.gold_failed);
    }

    #[test]
    fn compares_under_each_semantics() {
        let conn = open_database(
            &schema(),
            &db(vec![
                vec![Value::Integer(1), Value::Text("x".into()), Value::Real(0.1)],
                vec![Value::Integer(2), Value::Text("x".into()), Value::Real(0.2)],
                vec![Value::Integer(3), Value::Text("z".into()), Value::Real(0.3)],
            ]),
        )
        .unwrap();
        let same =
            |g: &str, p: &str, o: RowOrder, s: Semantics| !compare_with(&conn, g, p, &o, s).differ;
        let (bag, ts, set) = (Semantics::Bag, Semantics::TestSuite, Semantics::Bird);
        let by = |k: &[usize]| RowOrder::Sorted(k.to_vec());
        // column order: test-suite permutes columns, bag and set do not
        let (g, p) = ("SELECT a, b FROM t", "SELECT b, a FROM t");
        assert!(!same(g, p, RowOrder::Bag, bag));
        assert!(!same(g, p, RowOrder::Bag, set));
        assert!(same(g, p, RowOrder::Bag, ts));
        // numbers within the tolerance, permuted
        assert!(same(
            "SELECT sum(c), a FROM t WHERE a = 1",
            "SELECT 1, 0.1",
            RowOrder::Bag,
            ts
        ));
        // a permutation must map every row: same column sets are not enough
        assert!(!same(
            "SELECT a, a + 1 FROM t",
            "SELECT a + 1, a + 2 FROM t",
            RowOrder::Bag,
            ts
        ));
        // duplicates: only set ignores them
        let (g, p) = ("SELECT b FROM t", "SELECT DISTINCT b FROM t");
        assert!(!same(g, p, RowOrder::Bag, bag));
        assert!(!same(g, p, RowOrder::Bag, ts));
        assert!(same(g, p, RowOrder::Bag, set));
        // row order: compared under the gold's ORDER BY, permuted columns included; set ignores it
        let (g, p) = (
            "SELECT a, c FROM t ORDER BY a",
            "SELECT c, a FROM t ORDER BY a DESC",
        );
        assert!(!same(g, p, by(&[0]), ts));
        assert!(
            !same(g, p, by(&[0]), set),
            "set keeps the columns' positions"
        );
        assert!(same(g, "SELECT c, a FROM t ORDER BY c", by(&[0]), ts));
        assert!(same(g, "SELECT a, c FROM t ORDER BY a DESC", by(&[0]), set));
        // two empty results are equal whatever their widths
        assert!(same(
            "SELECT a FROM t WHERE 0",
            "SELECT a, b FROM t WHERE 0",
            RowOrder::Bag,
            ts
        ));
        assert!(!same(
            "SELECT a FROM t",
            "SELECT a, b FROM t",
            RowOrder::Bag,
            ts
        ));
    }
}
