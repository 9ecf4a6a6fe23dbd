//! The verdict of `exec_match` on one database or a test-suite folder, with its reason: a match, a
//! mismatch (why), or no verdict because the gold query or the database failed (NULL in SQL).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::Connection;

use super::compare::{result_eq, Cell, Row};
use super::leniency::{Leniency, RowRule};
use super::open::{cached_database, databases};
use super::options::{EvalOptions, Semantics};
use super::rewrite::{postprocess, remove_distinct, replace_cur_year};
use super::translated::{sqlite_pair, Untranslatable};
use super::{run_with, RunError, TextMode};
use crate::error::Result;

/// An execution verdict and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The results match (on every database of a suite).
    Match(String),
    /// The prediction fails, passes a bound or returns other rows.
    Mismatch(String),
    /// No verdict: the gold query fails or passes a bound, or a database cannot be used.
    Null(String),
}

impl Verdict {
    /// 1, 0 or None (NULL).
    pub fn value(&self) -> Option<bool> {
        match self {
            Verdict::Match(_) => Some(true),
            Verdict::Mismatch(_) => Some(false),
            Verdict::Null(_) => None,
        }
    }

    /// `match: ...`, `mismatch: ...` or `null: ...`.
    pub fn reason(&self) -> String {
        match self {
            Verdict::Match(m) => format!("match: {m}"),
            Verdict::Mismatch(m) => format!("mismatch: {m}"),
            Verdict::Null(m) => format!("null: {m}"),
        }
    }
}

/// The two queries as the semantics runs them, and whether row order matters.
pub(crate) struct Prepared {
    pub gold: String,
    pub pred: String,
    pub order_matters: bool,
    pub text: TextMode,
}

/// The texts test-suite-sql-eval runs for `gold` and `pred`: `> =` glued, DISTINCT removed
/// (unless `keep_distinct`), `YEAR(CURDATE())` replaced by 2020. ParSEval's `test-suite`
/// semantics decides on these texts too.
pub fn test_suite_texts(gold: &str, pred: &str, keep_distinct: bool) -> (String, String) {
    let (mut g, mut p) = (postprocess(gold), postprocess(pred));
    if !keep_distinct {
        g = remove_distinct(&g);
        p = remove_distinct(&p);
    }
    (replace_cur_year(&g), replace_cur_year(&p))
}

pub(crate) fn prepare(gold: &str, pred: &str, opts: &EvalOptions) -> Prepared {
    match opts.semantics {
        Semantics::TestSuite => {
            let (gold, pred) = test_suite_texts(gold, pred, opts.exec.keep_distinct);
            // the official check runs before the year is replaced, which never adds "order by"
            let order_matters = gold.to_lowercase().contains("order by");
            Prepared {
                gold,
                pred,
                order_matters,
                text: TextMode::DropInvalid,
            }
        }
        Semantics::Bird | Semantics::Bag | Semantics::List => Prepared {
            gold: gold.to_string(),
            pred: pred.to_string(),
            order_matters: opts.semantics == Semantics::List,
            text: TextMode::Strict,
        },
    }
}

/// Both results of one database: the gold's or why it failed, then the prediction's.
pub(crate) enum Ran {
    GoldFailed(RunError),
    PredFailed(RunError),
    Both(Vec<Row>, Vec<Row>),
}

pub(crate) fn run_pair(conn: &Connection, p: &Prepared, opts: &EvalOptions) -> Ran {
    let gold = match run_with(conn, &p.gold, &opts.exec, p.text) {
        Ok(r) => r,
        Err(e) => return Ran::GoldFailed(e),
    };
    match run_with(conn, &p.pred, &opts.exec, p.text) {
        Ok(pred) => Ran::Both(gold, pred),
        Err(e) => Ran::PredFailed(e),
    }
}

/// Rows as sets of tuples (BIRD: `set(pred) == set(gold)`).
pub(crate) fn set_eq(gold: &[Row], pred: &[Row]) -> bool {
    let g: HashSet<&Vec<Cell>> = gold.iter().map(|r| &r.cells).collect();
    let p: HashSet<&Vec<Cell>> = pred.iter().map(|r| &r.cells).collect();
    g == p
}

fn counts(rows: &[Row]) -> HashMap<&Vec<Cell>, usize> {
    let mut m: HashMap<&Vec<Cell>, usize> = HashMap::new();
    for r in rows {
        *m.entry(&r.cells).or_insert(0) += 1;
    }
    m
}

fn bag_eq(gold: &[Row], pred: &[Row]) -> bool {
    gold.len() == pred.len() && counts(gold) == counts(pred)
}

fn results_equal(gold: &[Row], pred: &[Row], p: &Prepared, semantics: Semantics) -> bool {
    match semantics {
        Semantics::TestSuite => result_eq(gold, pred, p.order_matters),
        Semantics::Bird => set_eq(gold, pred),
        Semantics::Bag => bag_eq(gold, pred),
        Semantics::List => {
            gold.len() == pred.len() && gold.iter().zip(pred).all(|(a, b)| a.cells == b.cells)
        }
    }
}

/// Whether the results match under the semantics and the options' leniencies: None when they
/// do not, else the leniencies the match needed (empty: none).
fn results_match(
    gold: &[Row],
    pred: &[Row],
    p: &Prepared,
    opts: &EvalOptions,
) -> Option<Vec<Leniency>> {
    let rows = match opts.semantics {
        Semantics::Bird => RowRule::Set,
        Semantics::List => RowRule::List,
        Semantics::TestSuite if p.order_matters => RowRule::List,
        Semantics::TestSuite | Semantics::Bag => RowRule::Bag,
    };
    let order_free = opts.semantics == Semantics::TestSuite;
    opts.leniency
        .matches(gold, pred, rows, order_free, &mut |g, q| {
            results_equal(g, q, p, opts.semantics)
        })
}

/// ` (with the leniencies a, b)` for the leniencies a match needed, else nothing.
fn with_leniencies(used: &[Leniency]) -> String {
    if used.is_empty() {
        return String::new();
    }
    let keys: Vec<&str> = used.iter().map(|l| l.key()).collect();
    format!(" (with the leniency {})", keys.join(", "))
}

#[cfg(test)]
/// 1/0 execution match with the defaults (test-suite rules, 30 s per query); `None` when there is no
/// verdict (the gold query fails, or the database cannot be used).
pub fn exec_match(db_path: &str, gold: &str, pred: &str) -> Result<Option<bool>> {
    Ok(exec_match_with(db_path, gold, pred, &EvalOptions::default())?.value())
}

/// The verdict of `pred` against `gold` on `db_path` (a file, or a folder of `*.sqlite` files: a
/// test suite, matched only when every database matches; the first that differs decides).
pub fn exec_match_with(
    db_path: &str,
    gold: &str,
    pred: &str,
    opts: &EvalOptions,
) -> Result<Verdict> {
    let (gold, pred) = match sqlite_pair(gold, pred) {
        Ok(texts) => texts,
        Err(u @ Untranslatable::PredParse(_)) => return Ok(Verdict::Mismatch(u.describe())),
        Err(u) => return Ok(Verdict::Null(u.describe())),
    };
    let files = match databases(db_path) {
        Ok(f) => f,
        Err(e) => return Ok(Verdict::Null(format!("database: {e}"))),
    };
    let p = prepare(&gold, &pred, opts);
    let n = files.len();
    let mut needed: Vec<Leniency> = Vec::new();
    for (k, file) in files.iter().enumerate() {
        let at = |m: String| {
            if n == 1 {
                m
            } else {
                format!("{m} (database {} of {n}: {})", k + 1, file_name(file))
            }
        };
        let conn = match cached_database(file) {
            Ok(c) => c,
            Err(e) => return Ok(Verdict::Null(at(format!("database {e}")))),
        };
        match run_pair(&conn, &p, opts) {
            Ran::GoldFailed(e) => return Ok(Verdict::Null(at(format!("gold {}", e.describe())))),
            Ran::PredFailed(e) => {
                return Ok(Verdict::Mismatch(at(format!("pred {}", e.describe()))))
            }
            Ran::Both(g, pr) => match results_match(&g, &pr, &p, opts) {
                Some(used) => used.into_iter().for_each(|l| {
                    if !needed.contains(&l) {
                        needed.push(l)
                    }
                }),
                None => {
                    return Ok(Verdict::Mismatch(at(format!(
                        "results differ under {} (gold {} rows, pred {} rows)",
                        opts.semantics.name(),
                        g.len(),
                        pr.len()
                    ))))
                }
            },
        }
    }
    let lenient = with_leniencies(&needed);
    Ok(Verdict::Match(if n == 1 {
        format!("same results under {}{lenient}", opts.semantics.name())
    } else {
        format!(
            "same results under {} on all {n} databases{lenient}",
            opts.semantics.name()
        )
    }))
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    struct Dir(std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A folder with one database per entry of `rows` (t(a INTEGER, b TEXT)).
    fn suite(rows: &[&str]) -> Dir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "sqlsim-verdict-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&d).unwrap();
        for (k, values) in rows.iter().enumerate() {
            let c = Connection::open(d.join(format!("db_{k}.sqlite"))).unwrap();
            c.execute_batch(&format!(
                "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES {values};"
            ))
            .unwrap();
        }
        Dir(d)
    }

    fn file(d: &Dir) -> String {
        d.0.join("db_0.sqlite").to_string_lossy().into_owned()
    }

    fn with(semantics: Semantics) -> EvalOptions {
        EvalOptions {
            semantics,
            ..EvalOptions::default()
        }
    }

    #[test]
    fn official_test_suite_rules() {
        let d = suite(&["(1,'x'),(2,'y'),(2,'y')"]);
        let p = file(&d);
        let m = |g: &str, q: &str| exec_match(&p, g, q).unwrap();
        assert_eq!(m("SELECT a, b FROM t", "SELECT b, a FROM t"), Some(true));
        assert_eq!(
            m(
                "SELECT a FROM t ORDER BY a",
                "SELECT a FROM t ORDER BY a ASC"
            ),
            Some(true)
        );
        assert_eq!(
            m(
                "SELECT a FROM t ORDER BY a DESC",
                "SELECT a FROM t ORDER BY a"
            ),
            Some(false)
        );
        assert_eq!(
            m("SELECT a FROM t", "SELECT a FROM t WHERE a > 1"),
            Some(false)
        );
        assert_eq!(m("SELECT DISTINCT a FROM t", "SELECT a FROM t"), Some(true));
        assert_eq!(m("SELECT a FROM t", "SELECT nope FROM t"), Some(false));
        assert_eq!(
            m("SELECT a FROM t WHERE a > 5", "SELECT b FROM t WHERE 0"),
            Some(true)
        );
        assert_eq!(
            m("SELECT count(*) FROM t WHERE a > = 2", "SELECT 2"),
            Some(true)
        );
        assert_eq!(m("SELECT nope FROM t", "SELECT 1"), None);
        assert_eq!(m("SELECT 1", "DELETE FROM t"), Some(false));
        assert_eq!(
            exec_match("/nonexistent/x.sqlite", "SELECT 1", "SELECT 1").unwrap(),
            None
        );
    }

    #[test]
    fn semantics_differ_where_the_official_rules_do() {
        let d = suite(&["(1,'x'),(2,'y'),(2,'y')"]);
        let p = file(&d);
        let v =
            |s: Semantics, g: &str, q: &str| exec_match_with(&p, g, q, &with(s)).unwrap().value();
        // BIRD: sets of tuples; column order matters, duplicates and row order do not
        assert_eq!(
            v(Semantics::Bird, "SELECT a, b FROM t", "SELECT b, a FROM t"),
            Some(false)
        );
        assert_eq!(
            v(
                Semantics::Bird,
                "SELECT DISTINCT a FROM t",
                "SELECT a FROM t"
            ),
            Some(true)
        );
        assert_eq!(
            v(
                Semantics::Bird,
                "SELECT a FROM t ORDER BY a",
                "SELECT a FROM t ORDER BY a DESC"
            ),
            Some(true)
        );
        assert_eq!(
            v(
                Semantics::Bag,
                "SELECT DISTINCT a FROM t",
                "SELECT a FROM t"
            ),
            Some(false)
        );
        assert_eq!(
            v(
                Semantics::Bag,
                "SELECT a FROM t ORDER BY a",
                "SELECT a FROM t ORDER BY a DESC"
            ),
            Some(true)
        );
        assert_eq!(
            v(
                Semantics::List,
                "SELECT a FROM t ORDER BY a",
                "SELECT a FROM t ORDER BY a DESC"
            ),
            Some(false)
        );
        assert_eq!(v(Semantics::Bird, "SELECT 1.0", "SELECT 1"), Some(true));
    }

    #[test]
    fn suites_match_only_on_every_database() {
        let d = suite(&["(1,'x')", "(1,'x'),(3,'z')"]);
        let dir = d.0.to_string_lossy().into_owned();
        let o = EvalOptions::default();
        let same =
            exec_match_with(&dir, "SELECT a FROM t", "SELECT a FROM t WHERE a >= 1", &o).unwrap();
        assert_eq!(same.value(), Some(true), "{}", same.reason());
        let r =
            exec_match_with(&dir, "SELECT a FROM t", "SELECT a FROM t WHERE a < 2", &o).unwrap();
        assert_eq!(r.value(), Some(false));
        assert!(
            r.reason().contains("database 2 of 2: db_1.sqlite"),
            "{}",
            r.reason()
        );
        let r = exec_match_with(&dir, "SELECT nope", "SELECT 1", &o).unwrap();
        assert!(
            r.reason().starts_with("null: gold error: no such column"),
            "{}",
            r.reason()
        );
    }

    #[test]
    fn a_replaced_file_is_read_afresh() {
        let d = suite(&["(1,'x')"]);
        let p = file(&d);
        assert_eq!(
            exec_match(&p, "SELECT count(*) FROM t", "SELECT 1").unwrap(),
            Some(true)
        );
        std::fs::remove_file(&p).unwrap();
        let c = Connection::open(&p).unwrap();
        c.execute_batch("CREATE TABLE t(a); INSERT INTO t VALUES (1), (2);")
            .unwrap();
        drop(c);
        assert_eq!(
            exec_match(&p, "SELECT count(*) FROM t", "SELECT 2").unwrap(),
            Some(true)
        );
    }

    #[test]
    fn bounds_give_reasons() {
        let d = suite(&["(1,'x'),(2,'y')"]);
        let p = file(&d);
        let slow =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";
        let mut o = EvalOptions::default();
        o.exec.timeout = Duration::from_millis(200);
        let t = Instant::now();
        let r = exec_match_with(&p, "SELECT 1", slow, &o).unwrap();
        assert_eq!(r.value(), Some(false));
        assert!(r.reason().contains("pred timeout"), "{}", r.reason());
        let r = exec_match_with(&p, slow, "SELECT 1", &o).unwrap();
        assert!(
            r.reason().starts_with("null: gold timeout"),
            "{}",
            r.reason()
        );
        assert!(t.elapsed() < Duration::from_secs(5));
        o.exec.max_rows = 1;
        let r = exec_match_with(&p, "SELECT 1", "SELECT a FROM t", &o).unwrap();
        assert!(r.reason().contains("pred row-limit"), "{}", r.reason());
    }

    #[test]
    fn presets_and_leniencies_loosen_the_comparison_and_say_so() {
        let d = suite(&["(1,'x'),(2,'y'),(2,'y')"]);
        let p = file(&d);
        let with = |options: &str, g: &str, q: &str| {
            let o = EvalOptions::parse("exec_match", Some(options), false).unwrap();
            exec_match_with(&p, g, q, &o).unwrap()
        };
        // BIRD's preset is its evaluator: rows as a set, columns by position
        let bird = r#"{"benchmark": "bird"}"#;
        let v = with(bird, "SELECT DISTINCT a FROM t", "SELECT a FROM t");
        assert_eq!(v, Verdict::Match("same results under bird".into()));
        assert_eq!(
            with(bird, "SELECT a, b FROM t", "SELECT b, a FROM t").value(),
            Some(false)
        );
        // each leniency on its own, named in the reason
        let v = with(
            r#"{"benchmark": "bird", "any_column_order": true}"#,
            "SELECT a, b FROM t",
            "SELECT b, a FROM t",
        );
        assert_eq!(
            v.reason(),
            "match: same results under bird (with the leniency any_column_order)"
        );
        let extra = r#"{"semantics": "bird", "extra_columns": true}"#;
        let v = with(extra, "SELECT b FROM t", "SELECT b, a FROM t");
        assert!(
            v.reason().ends_with("(with the leniency extra_columns)"),
            "{v:?}"
        );
        assert_eq!(
            with(extra, "SELECT b, a FROM t", "SELECT b FROM t").value(),
            Some(false)
        );
        // Spider 2.0: the gold's columns among the prediction's, numbers within 0.01
        let s2 = r#"{"benchmark": "spider2"}"#;
        let v = with(
            s2,
            "SELECT a / 3.0 FROM t",
            "SELECT b, round(a / 3.0, 2) FROM t",
        );
        assert_eq!(
            v.reason(),
            "match: same results under bag (with the leniency extra_columns, tolerance)"
        );
        assert_eq!(
            with(
                s2,
                "SELECT a / 3.0 FROM t",
                "SELECT round(a / 3.0, 1) FROM t"
            )
            .value(),
            Some(false)
        );
        // the options without the preset compare as before
        assert_eq!(
            with("{}", "SELECT a, b FROM t", "SELECT b, a FROM t"),
            Verdict::Match("same results under test-suite".into())
        );
        for bad in [
            r#"{"benchmark": "bird", "forgive_ties": true}"#,
            r#"{"benchmark": "cosql"}"#,
            r#"{"tolerance": "small"}"#,
        ] {
            let e = EvalOptions::parse("exec_match", Some(bad), false)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("exec_match(): argument 'options'"), "{e}");
        }
        // bird_ves follows BIRD's rule alone
        let e = EvalOptions::parse("bird_ves", Some(r#"{"benchmark": "bird"}"#), true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown option 'benchmark'"), "{e}");
    }
}
