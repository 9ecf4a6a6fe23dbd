//! The databases generated for one query: deterministic, covering its branches, sized for its
//! COUNT thresholds and LIMITs, with date-shaped and speculative texts where its conditions need
//! them, and keeping every foreign key.

use super::{DDL, DOGS, OVER_JOIN};
use crate::parseval::search::plan_facts::threshold_rows;
use crate::parseval::verdict::decide::{decide, schema_for};
use crate::parseval::*;

#[test]
fn generation_is_deterministic_and_covers_branches() {
    let q = "SELECT country, count(*) FROM singer WHERE age > 20 OR name = 'x' GROUP BY country";
    let o = Options::default();
    let (a, _) = generate_for(q, Some(DDL), &o).unwrap();
    let (b, _) = generate_for(q, Some(DDL), &o).unwrap();
    let dbs = |g: &Generated| g.instances.iter().map(|i| i.db.clone()).collect::<Vec<_>>();
    assert_eq!(dbs(&a), dbs(&b));
    assert!(a.instances.len() > 2, "{a:?}");
    let covered = a.covered();
    for label in ["result has rows", "Aggregate#2 a group of several rows"] {
        assert!(
            covered.contains(label),
            "{label}: {covered:?} of {:?}",
            a.branches
        );
    }
}

#[test]
fn scalar_subqueries_and_repeated_arguments_have_branches() {
    let q = "SELECT count(DISTINCT title) FROM song \
             WHERE singer_id = (SELECT singer_id FROM singer WHERE country = 'x')";
    let (g, _) = generate_for(q, Some(DDL), &Options::default()).unwrap();
    let covered = g.covered();
    for label in [
        "Scalar subquery 1 returns no row",
        "Scalar subquery 1 returns several rows",
        "Aggregate#2 a repeated argument of COUNT",
    ] {
        assert!(
            covered.contains(label),
            "{label}: {covered:?} of {:?}",
            g.branches
        );
    }
}

#[test]
#[ignore]
fn debug_generation() {
    let q = std::env::var("Q")
        .unwrap_or_else(|_| "SELECT name FROM singer WHERE name LIKE 'A%'".into());
    let (g, _) = generate_for(&q, Some(DDL), &Options::default()).unwrap();
    eprintln!(
        "branches {:?}\nstopped {:?} exhausted {}",
        g.branches, g.stopped, g.exhausted
    );
    for i in &g.instances {
        eprintln!("{:?}\n  {:?}", i.covered, i.db);
    }
}

#[test]
fn date_functions_get_date_shaped_values() {
    let ddl = "CREATE TABLE ev(id INTEGER PRIMARY KEY, day TEXT, kind TEXT)";
    let o = Options::default();
    for q in [
        "SELECT id FROM ev WHERE STRFTIME('%Y', day) = '2012'",
        "SELECT id FROM ev WHERE STRFTIME('%Y-%m', day) = '2012-07' AND kind = 'a'",
        "SELECT id FROM ev WHERE date(day) = '2013-01-05'",
    ] {
        let (g, s) = generate_for(q, Some(ddl), &o).unwrap();
        let rows = g.instances.iter().any(|i| {
            let conn = crate::exec::instance::open_database(&s, &i.db).unwrap();
            let n: i64 = conn
                .query_row(&format!("SELECT count(*) FROM ({q})"), [], |r| r.get(0))
                .unwrap();
            n > 0
        });
        assert!(rows, "{q}: no database gives rows: {:?}", g.instances);
    }
    let s = schema_for(Some(ddl), &[]).unwrap();
    let d = decide(
        "SELECT id FROM ev WHERE STRFTIME('%Y', day) = '2012'",
        "SELECT id FROM ev WHERE STRFTIME('%Y', day) = '2013'",
        s,
        &o,
    );
    assert_eq!(d.value(), Some(0), "{}", d.reason());
}

#[test]
fn having_thresholds_grow_the_instance() {
    let q = "SELECT country FROM singer GROUP BY country HAVING count(*) > 5";
    let s = schema_for(Some(DDL), &[]).unwrap();
    let plan = crate::plan::plan_sql(q, &s).unwrap();
    assert_eq!(threshold_rows(&plan), 6);
    let d = decide(
        q,
        "SELECT country FROM singer GROUP BY country HAVING count(*) >= 5",
        s,
        &Options::default(),
    );
    assert_eq!(d.value(), Some(0), "{}", d.reason());
}

#[test]
fn limits_grow_the_instance() {
    let s = schema_for(Some(DDL), &[]).unwrap();
    let rows = |q: &str| threshold_rows(&crate::plan::plan_sql(q, &s).unwrap());
    assert_eq!(rows("SELECT name FROM singer ORDER BY age LIMIT 5"), 6);
    assert_eq!(rows("SELECT name FROM singer LIMIT 2 OFFSET 3"), 6);
    // an instance cannot exceed a LIMIT of 8 or more: no growth
    assert_eq!(rows("SELECT name FROM singer ORDER BY age LIMIT 10"), 0);
    let q = "SELECT name FROM singer WHERE country = 'France'";
    let d = decide(q, &format!("{q} LIMIT 4"), s, &Options::default());
    assert_eq!(d.value(), Some(0), "{}", d.reason());
}

#[test]
fn a_text_key_referencing_a_number_holds_the_number() {
    let ddl = "CREATE TABLE employee(employee_id INTEGER PRIMARY KEY, name TEXT); \
        CREATE TABLE evaluation(employee_id TEXT PRIMARY KEY REFERENCES employee(employee_id), bonus REAL)";
    let (g, p) = (
        "SELECT sum(bonus) FROM evaluation",
        "SELECT SUM(bonus) FROM evaluation JOIN employee ON evaluation.employee_id = employee.employee_id",
    );
    let (gen, s) = generate_for(p, Some(ddl), &Options::default()).unwrap();
    let mut rows = 0;
    for i in &gen.instances {
        let conn = crate::exec::instance::open_database(&s, &i.db).unwrap();
        let q = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
        rows += q("SELECT count(*) FROM evaluation");
        let dangling = "SELECT count(*) FROM evaluation AS e WHERE NOT EXISTS \
            (SELECT 1 FROM employee AS m WHERE m.employee_id = e.employee_id)";
        assert_eq!(q(dangling), 0, "{:?}", i.db);
    }
    assert!(rows > 0, "{:?}", gen.instances);
    let s = schema_for(Some(ddl), &[g, p]).unwrap();
    let d = decide(g, p, s, &Options::default());
    assert_eq!(d.value(), Some(1), "{}", d.reason());
}

#[test]
fn text_orderings_are_covered_through_speculative_texts() {
    // Z3's string theory alone returns "unknown" on every branch of this filter
    let ddl = "CREATE TABLE m(id INTEGER PRIMARY KEY, day TEXT)";
    let s = schema_for(Some(ddl), &[]).unwrap();
    let q = crate::plan::plan_sql(
        "SELECT id FROM m WHERE substr(day, 1, 7) BETWEEN '2008-08' AND '2008-10'",
        &s,
    )
    .unwrap();
    let opts = Options::default();
    let work = search::work_budget::Work::new(opts.work, opts.timeout_ms);
    let g = generate(&q, &s, &opts, work.all(), &[]);
    let covered = g.covered();
    for label in [
        "result has rows",
        "Filter#2 term 0 true",
        "Filter#2 term 0 false",
    ] {
        assert!(covered.contains(label), "{label} not in {covered:?}");
    }
    let days: Vec<String> = g
        .instances
        .iter()
        .flat_map(|i| i.db.tables.iter().flat_map(|t| t.rows.iter()))
        .filter_map(|r| match r.get(1) {
            Some(rusqlite::types::Value::Text(t)) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert!(
        days.iter()
            .any(|d| d.starts_with("2008-09") || d.starts_with("2008-08")),
        "{days:?}"
    );
}

#[test]
fn an_average_asks_for_a_repeated_value_beside_another() {
    let (g, _) = generate_for(OVER_JOIN, Some(DOGS), &Options::default()).unwrap();
    let label = "Aggregate#2 a repeated argument of AVG beside another";
    assert!(g.covered().contains(label), "{:?}", g.branches);
    let db = g
        .instances
        .iter()
        .find(|i| i.covered.iter().any(|c| c == label))
        .map(|i| &i.db)
        .unwrap();
    // two treatments of one dog and a treated dog of another age
    let rows = |t: usize| {
        db.tables
            .iter()
            .find(|x| x.table == t)
            .map_or(0, |x| x.rows.len())
    };
    assert!(rows(0) >= 2 && rows(1) >= 3, "{db:?}");
}

#[test]
fn a_predicate_no_rule_models_is_left_to_execution() {
    // LIKE with an ESCAPE clause: its value asked for its truth, which asked for its value, until
    // the stack overflowed (the host died: fuzz mysql seed 1 #23285)
    let ddl = "CREATE TABLE t (a INTEGER PRIMARY KEY, name TEXT)";
    for sql in [
        "SELECT a FROM t WHERE name LIKE 'a\\_%' ESCAPE '\\'",
        "SELECT name LIKE 'x!%' ESCAPE '!' FROM t",
    ] {
        let (g, _) = generate_for(sql, Some(ddl), &Options::default()).unwrap();
        assert!(g.instances.len() > 1, "{sql}: {g:?}");
    }
}

#[test]
fn a_subquery_run_per_row_stops_at_the_step_bound() {
    // a scalar subquery (DISTINCT over a three-table join) evaluated for every candidate row of
    // an aggregate over a join: built its terms for 38 s before the bound, now stops in well
    // under a second with the databases of the sizes done
    let q = "WITH cte0 AS (SELECT \"France\" FROM singer WHERE age = \"2014\"), cte1 AS (SELECT \
             T1.is_male FROM singer AS T1 WHERE T1.age BETWEEN -4 AND \"a\") SELECT count(*) \
             WHERE NOT EXISTS (SELECT DISTINCT count(*), (SELECT DISTINCT 58 FROM \
             singer_in_concert LEFT JOIN CONCERT T2 on NOT (\"concert_id with space\" >= \"dq\"), \
             concert WHERE 53 = \"France\"), * FROM concert INNER JOIN singer_in_concert ON \
             concert.concert_name = concert.concert_name WHERE \"singer_id with space\" <= TRUE \
             GROUP BY singer_in_concert.concert_id) LIMIT 6";
    let tagged = crate::parse::dialect::tag(q, crate::parse::dialect::Dialect::Snowflake);
    let ddl = include_str!("../../../tests/fixtures/schema/concert_singer.sql");
    let o = Options {
        max_rows: 3,
        work: 2_000_000,
        ..Options::default()
    };
    let (g, _) = generate_for(&tagged, Some(ddl), &o).unwrap();
    let stopped = g.stopped.unwrap_or_default();
    assert!(stopped.contains("steps"), "{stopped:?}");
    assert!(g.instances.len() > 1, "{:?}", g.instances);
}
