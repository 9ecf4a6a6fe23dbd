//! Where the registry reads SQLite text leniently (`parse::translate::read_leniently`): a gold
//! query where a verdict reads it, and nowhere else: not in a structural metric (both queries
//! compared as written), nor where a query is run as written (exec_match, bird_soft_f1, a
//! prediction in a verdict).

use super::{call_scalar, scalar, Output, Value};

/// sqlglot's SQLite text of a MySQL query: `YEAR` and `LEFT`, which no SQLite has.
const LEFTOVERS: &str =
    "SELECT s FROM e WHERE YEAR(d) BETWEEN '1936' AND '1956' AND LEFT(s, 2) = 'ab'";
/// The same query as SQLite runs it.
/// (ParSEval generates no date of those years for `strftime`: equivalent as the gold read itself,
/// the comparison of a year with text is checked in `parse::translate::sqlite_reading`.)
const RUNNABLE: &str = "SELECT s FROM e WHERE CAST(strftime('%Y', d) AS INTEGER) BETWEEN '1936' \
                        AND '1956' AND SUBSTRING(s, 1, 2) = 'ab'";
const SCHEMA: &str = "CREATE TABLE e (d TEXT, s TEXT)";

/// `function(gold, pred, ...)`: the schema where the function takes one, `options` in its
/// `options` argument, NULL in the others.
fn call(function: &str, gold: &str, pred: &str, options: Option<&str>) -> Output {
    let params = scalar(function).unwrap().params;
    let args: Vec<Value<'_>> = params
        .iter()
        .enumerate()
        .map(|(i, p)| match (i, p.name) {
            (0, _) => Value::Text(gold),
            (1, _) => Value::Text(pred),
            (_, "schema") => Value::Text(SCHEMA),
            (_, "options") => options.map_or(Value::Null, Value::Text),
            _ => Value::Null,
        })
        .collect();
    call_scalar(function, &args).unwrap()
}

#[test]
fn a_verdict_reads_the_gold_leniently() {
    // the gold calls what SQLite lacks: it was unknown (the gold fails)
    assert_eq!(
        call("sql_equivalent", LEFTOVERS, RUNNABLE, None),
        Output::Integer(1)
    );
    let mysql = r#"{"pred_dialect": "mysql"}"#;
    assert_eq!(
        call("sql_equivalent", LEFTOVERS, LEFTOVERS, Some(mysql)),
        Output::Integer(1)
    );
    let other_years = RUNNABLE.replace("'1956'", "'1957'");
    assert_eq!(
        call("sql_equivalent", LEFTOVERS, &other_years, None),
        Output::Integer(0)
    );
}

#[test]
fn a_prediction_in_a_verdict_is_read_as_written() {
    // a SQLite prediction that calls YEAR fails in SQLite: not equivalent, as before
    assert_eq!(
        call("sql_equivalent", RUNNABLE, LEFTOVERS, None),
        Output::Integer(0)
    );
    // the prediction that is the gold as written is the gold query itself
    let Output::Text(reason) = call("sql_equivalent_reason", LEFTOVERS, LEFTOVERS, None) else {
        panic!("no reason");
    };
    assert!(
        reason.starts_with("equivalent: the prediction is the gold query itself"),
        "{reason}"
    );
    // a PostgreSQL prediction that calls YEAR (PostgreSQL has none) against sqlglot's SQLite
    // text of itself: the gold query itself, function names read without case
    let pg = r#"{"pred_dialect": "postgres"}"#;
    let gold = "SELECT s FROM e WHERE YEAR(d) BETWEEN '1936' AND '1956'";
    for pred in [
        gold,
        "SELECT s FROM e WHERE year(d) BETWEEN '1936' AND '1956'",
    ] {
        assert_eq!(
            call("sql_equivalent", gold, pred, Some(pg)),
            Output::Integer(1),
            "{pred}"
        );
    }
}

#[test]
fn a_structural_metric_reads_both_queries_as_written() {
    for function in ["ast_ted", "relpm", "astpm"] {
        let Output::Real(score) = call(function, LEFTOVERS, RUNNABLE, None) else {
            panic!("no {function}");
        };
        assert!(score < 1.0, "{function}: {score}");
        assert_eq!(
            call(function, LEFTOVERS, LEFTOVERS, None),
            Output::Real(1.0),
            "{function}"
        );
    }
    // sql_similarity's structural components are the structural metrics themselves, though its
    // verdict reads the gold leniently
    let options = r#"{"components": ["ast_ted", "relpm"]}"#;
    let components = call(
        "sql_similarity_components",
        LEFTOVERS,
        RUNNABLE,
        Some(options),
    );
    let Output::Text(json) = components else {
        panic!("no components");
    };
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["verdict"], 1, "{json}");
    for function in ["ast_ted", "relpm"] {
        let Output::Real(score) = call(function, LEFTOVERS, RUNNABLE, None) else {
            panic!("no {function}");
        };
        assert_eq!(json["components"][function].as_f64(), Some(score), "{json}");
    }
}

/// A PostgreSQL query that calls `YEAR` (PostgreSQL has none) keeps it in its SQLite
/// translation; the two are one query in every structural metric (`make fuzz-short` found
/// ast_ted below 1 when the SQLite text was read leniently and the PostgreSQL one was not).
#[test]
fn a_dialect_query_and_its_sqlite_translation_are_one_tree() {
    let query = "SELECT s FROM e WHERE YEAR(d) = 1940 AND LEFT(s, 2) = 'ab'";
    for dialect in ["postgres", "bigquery"] {
        let options = format!(r#"{{"gold_dialect": "{dialect}", "pred_dialect": "sqlite"}}"#);
        let sqlite = crate::parse::translate::sqlite_text(&crate::parse::dialect::tag(
            query,
            crate::parse::dialect::Dialect::from_name(dialect).unwrap(),
        ))
        .unwrap()
        .into_owned();
        assert!(sqlite.contains("YEAR(d)"), "{dialect}: {sqlite}");
        for function in ["ast_ted", "relpm", "astpm"] {
            assert_eq!(
                call(function, query, &sqlite, Some(&options)),
                Output::Real(1.0),
                "{function} {dialect}: {sqlite}"
            );
        }
    }
}

#[test]
fn execution_runs_the_gold_as_written() {
    let dir = std::env::temp_dir().join(format!("sqlsim-lenient-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("e.sqlite");
    let _ = std::fs::remove_file(&path);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&format!(
        "{SCHEMA}; INSERT INTO e VALUES ('1940-02-03', 'abc'), ('1990-01-01', 'abd');"
    ))
    .unwrap();
    drop(conn);
    let db = path.to_str().unwrap();
    for function in ["exec_match", "bird_soft_f1"] {
        let run = |gold: &str, pred: &str| {
            call_scalar(
                function,
                &[Value::Text(db), Value::Text(gold), Value::Text(pred)],
            )
            .unwrap()
        };
        // the official evaluators fail the gold, and the prediction, as written
        assert_eq!(run(LEFTOVERS, RUNNABLE), Output::Null, "{function}");
        assert!(
            matches!(
                run(RUNNABLE, LEFTOVERS),
                Output::Integer(0) | Output::Real(0.0)
            ),
            "{function}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
