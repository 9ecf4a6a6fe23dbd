//! The generator finds rows where rows are possible: random satisfiable filters, joins and HAVING
//! conditions over a small schema (a seeded generator, so every run checks the same queries), each
//! required to return rows on some database generated for it.
//!
//! Every query is satisfiable by construction: its conditions read distinct columns, each
//! condition alone holds for some value (of the column's type or, for an INT column compared
//! with text, of SQLite's text stored there), and a HAVING asks at most for as many rows in a
//! group as the generator's instances hold.

use crate::exec::instance::open_database;
use crate::parseval::*;

const SCHEMA: &str =
    "CREATE TABLE dept (did INTEGER PRIMARY KEY, dname INT, loc TEXT, budget REAL); \
    CREATE TABLE emp (eid INTEGER PRIMARY KEY, did INTEGER REFERENCES dept(did), salary INT, \
    name TEXT, age INTEGER)";

/// One condition on a column: its text with `{}` for the column reference.
type Atom = (&'static str, &'static str);

/// (column, condition) pairs, each satisfiable alone; the column names say which table.
const EMP_ATOMS: &[Atom] = &[
    ("salary", "{} > 3000"),
    ("salary", "{} = 1200"),
    ("salary", "{} BETWEEN 10 AND 20"),
    ("salary", "{} <> 5"),
    ("salary", "{} IN (7, 8, 9)"),
    ("name", "{} = 'SMITH'"),
    ("name", "{} LIKE 'J%'"),
    ("name", "{} IN ('A', 'B')"),
    ("name", "{} IS NOT NULL"),
    ("age", "{} < 30"),
    ("age", "{} >= 65"),
    ("age", "{} IS NULL"),
];
const DEPT_ATOMS: &[Atom] = &[
    ("dname", "{} = 'SECURITY'"),
    ("dname", "{} IN ('SALES', 'RESEARCH')"),
    ("dname", "{} > 10"),
    ("loc", "{} = 'DALLAS'"),
    ("loc", "{} <> 'BOSTON'"),
    ("budget", "{} > 1000.5"),
    ("budget", "{} < 0"),
];

/// HAVING conditions over emp grouped by did, and the column each reads (the query filters
/// no other condition on it).
const HAVINGS: &[(&str, &str)] = &[
    ("COUNT(*) >= 2", ""),
    ("COUNT(*) = 3", ""),
    ("COUNT(DISTINCT salary) = 4", "salary"),
    ("COUNT(DISTINCT e.name) >= 3", "name"),
    ("SUM(salary) > 100", "salary"),
    ("MAX(age) < 20", "age"),
    ("AVG(salary) > 50 AND COUNT(*) > 1", "salary"),
    ("MIN(e.name) = 'A'", "name"),
];

/// A satisfiable random query: a filter on emp, on dept, or on their join, optionally grouped
/// by department with a HAVING condition.
fn random_query(rng: &mut fastrand::Rng) -> String {
    let join = rng.bool();
    let emp = join || rng.bool();
    let mut atoms: Vec<String> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    let having = (emp && rng.u8(..3) == 0).then(|| HAVINGS[rng.usize(..HAVINGS.len())]);
    if let Some((_, col)) = having {
        used.push(col);
    }
    let mut pick = |rng: &mut fastrand::Rng, from: &[Atom], alias: &str, n: usize| {
        for _ in 0..n {
            let (col, cond) = from[rng.usize(..from.len())];
            if !used.contains(&col) {
                used.push(col);
                atoms.push(cond.replace("{}", &format!("{alias}.{col}")));
            }
        }
    };
    let n = rng.usize(1..=2);
    if !emp {
        pick(rng, DEPT_ATOMS, "d", n);
        return format!("SELECT d.did, d.dname FROM dept d{}", where_clause(&atoms));
    }
    pick(rng, EMP_ATOMS, "e", n);
    if join {
        let n = rng.usize(0..=1);
        pick(rng, DEPT_ATOMS, "d", n);
    }
    let from = if join {
        "emp e JOIN dept d ON e.did = d.did"
    } else {
        "emp e"
    };
    let filter = where_clause(&atoms);
    match having {
        Some((h, _)) => {
            format!("SELECT e.did, COUNT(*) FROM {from}{filter} GROUP BY e.did HAVING {h}")
        }
        None => format!("SELECT e.eid, e.salary FROM {from}{filter}"),
    }
}

fn where_clause(atoms: &[String]) -> String {
    if atoms.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", atoms.join(" AND "))
    }
}

/// Whether some database generated for `q` gives it rows.
fn finds_rows(q: &str) -> bool {
    finds_rows_in(q, Some(SCHEMA))
}

/// Whether some database generated for `q` over `schema` (inferred when None) gives it rows.
fn finds_rows_in(q: &str, schema: Option<&str>) -> bool {
    let (g, s) = generate_for(q, schema, &Options::default()).unwrap();
    g.instances.iter().any(|i| {
        open_database(&s, &i.db).is_ok_and(|conn| {
            conn.query_row(&format!("SELECT count(*) FROM ({q})"), [], |r| {
                r.get::<_, i64>(0)
            })
            .is_ok_and(|n| n > 0)
        })
    })
}

/// The queries of `count` seeds from `first` that no generated database gives rows.
fn empty_queries(first: u64, count: u64) -> (Vec<String>, usize) {
    let mut empty = Vec::new();
    for seed in first..first + count {
        let q = random_query(&mut fastrand::Rng::with_seed(seed));
        if !finds_rows(&q) {
            empty.push(q);
        }
    }
    (empty, count as usize)
}

fn report(empty: &[String], total: usize) -> String {
    format!(
        "non-empty on {} of {total} satisfiable queries; empty: {empty:#?}",
        total - empty.len()
    )
}

#[test]
fn generated_databases_give_satisfiable_queries_rows() {
    let (empty, total) = empty_queries(0, 24);
    assert!(empty.is_empty(), "{}", report(&empty, total));
}

/// The longer run (`cargo test --profile test-fast --lib nonempty -- --ignored --nocapture`).
#[test]
#[ignore]
fn generated_databases_give_satisfiable_queries_rows_long() {
    let (empty, total) = empty_queries(1_000, 300);
    eprintln!("{}", report(&empty, total));
    assert!(empty.is_empty(), "{}", report(&empty, total));
}

#[test]
fn the_two_known_failures_find_rows() {
    for q in [
        "SELECT d.did FROM dept d WHERE d.dname = 'SECURITY'",
        "SELECT e.did FROM emp e GROUP BY e.did HAVING COUNT(DISTINCT e.salary) = 4",
        "SELECT e.did FROM emp e GROUP BY e.did HAVING COUNT(DISTINCT e.salary) + 0 = 4",
        "SELECT e.did FROM emp e GROUP BY e.did HAVING CAST(COUNT(DISTINCT e.salary) AS INT) = 4",
    ] {
        assert!(finds_rows(q), "{q}");
    }
}

/// A column without a type (or of NUMERIC affinity) that a query equates with a number that has
/// a fraction holds reals: read as integers, `price = 548.4` had no database at all.
#[test]
fn a_column_equated_with_a_fraction_finds_rows() {
    for (q, schema) in [
        ("SELECT a FROM t WHERE price = 548.4", None),
        ("SELECT a FROM t WHERE price IN (1.5, 2.25)", None),
        ("SELECT a FROM t WHERE price > 3 AND price = 548.4", None),
        (
            "SELECT a FROM t WHERE price = 548.4",
            Some("CREATE TABLE t (a INT, price NUMERIC)"),
        ),
    ] {
        assert!(finds_rows_in(q, schema), "{q} over {schema:?}");
    }
}

/// A case-sensitive LIKE of another dialect is SQLite's `glob(..)` (`translate::string_case`):
/// read as an unconstrained call, no generated row matched `glob('*North*', name)`, and a
/// PostgreSQL query and its respelling were "unknown: no rows on every database".
#[test]
fn a_glob_pattern_finds_rows() {
    use crate::parse::dialect::{tag, Dialect};
    use crate::parse::translate::sqlite_text;
    let pg = tag(
        "SELECT e.eid FROM emp e WHERE e.name LIKE '%North%' AND e.name NOT LIKE 'x%'",
        Dialect::Postgres,
    );
    let translated = sqlite_text(&pg).unwrap().into_owned();
    assert!(
        translated.contains("glob('*North*', e.name)"),
        "{translated}"
    );
    for q in [
        "SELECT e.eid FROM emp e WHERE glob('*North*', e.name)",
        "SELECT e.eid FROM emp e WHERE glob('Jo*', e.name) AND glob('*n', e.name)",
        "SELECT d.did FROM dept d WHERE glob('Da*l*s', d.loc)",
        translated.as_str(),
    ] {
        assert!(finds_rows(q), "{q}");
    }
}
