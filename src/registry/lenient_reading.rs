//! Where the registry reads SQLite text leniently (`parse::translate::read_leniently`): a gold
//! query where a verdict reads it, both queries where a structural metric reads them, and
//! nowhere a query is run as written (exec_match, bird_soft_f1, a prediction in a verdict).

use super::{call_scalar, Output, Value};

/// sqlglot's SQLite text of a MySQL query: `YEAR` and `LEFT`, which no SQLite has.
const LEFTOVERS: &str =
    "SELECT s FROM e WHERE YEAR(d) BETWEEN '1936' AND '1956' AND LEFT(s, 2) = 'ab'";
/// The same query as SQLite runs it.
/// (ParSEval generates no date of those years for `strftime`: equivalent as the gold read itself,
/// the comparison of a year with text is checked in `parse::translate::sqlite_reading`.)
const RUNNABLE: &str = "SELECT s FROM e WHERE CAST(strftime('%Y', d) AS INTEGER) BETWEEN '1936' \
                        AND '1956' AND SUBSTRING(s, 1, 2) = 'ab'";
const SCHEMA: &str = "CREATE TABLE e (d TEXT, s TEXT)";

fn call(function: &str, gold: &str, pred: &str, options: Option<&str>) -> Output {
    let mut args = vec![Value::Text(gold), Value::Text(pred)];
    if function != "ast_ted" {
        args.push(Value::Text(SCHEMA));
    }
    args.push(options.map_or(Value::Null, Value::Text));
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
fn a_structural_metric_reads_both_queries_leniently() {
    for function in ["ast_ted", "relpm"] {
        assert_eq!(
            call(function, LEFTOVERS, RUNNABLE, None),
            Output::Real(1.0),
            "{function}"
        );
        assert_eq!(
            call(function, LEFTOVERS, LEFTOVERS, None),
            Output::Real(1.0),
            "{function}"
        );
    }
    let Output::Real(score) = call("sql_similarity", LEFTOVERS, LEFTOVERS, None) else {
        panic!("no score");
    };
    assert!(score >= 0.5, "{score}");
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
