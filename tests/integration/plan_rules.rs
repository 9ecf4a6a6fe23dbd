//! Golden before/after tests for every plan rewrite rule, and end-to-end checks that equivalent
//! queries reach the same plan while non-equivalent look-alikes do not.
//!
//! Each rule's cases run that rule alone to a fixed point on the unoptimized plan; the EXPLAIN
//! text before and after is compared with `tests/golden/plan/<rule>.txt`. Regenerate with
//! `SQLSIM_UPDATE_GOLDEN=1 cargo test --profile test-fast --test integration plan_rules` and review
//! the diff.

use sqlsim::plan::{build_plan, plan_sql, rules};
use sqlsim::schema::Schema;
use std::path::PathBuf;

fn schema() -> Schema {
    let text = std::fs::read_to_string(fixture("fixtures/plan_schema.json")).unwrap();
    Schema::from_argument(&text).unwrap()
}

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

/// (rule, cases that the rule rewrites, cases it must leave alone).
const CASES: &[(&str, &[&str], &[&str])] = &[
    (
        "expand_between_in",
        &[
            "SELECT name FROM singer WHERE age BETWEEN 20 AND 30",
            "SELECT name FROM singer WHERE country IN ('France', 'Spain', 'France')",
            "SELECT name FROM singer WHERE age NOT IN (20)",
        ],
        &["SELECT name FROM singer WHERE age IN (SELECT capacity FROM stadium)"],
    ),
    (
        "simplify",
        &[
            "SELECT name FROM singer WHERE NOT (age < 30 OR country = 'France')",
            "SELECT name FROM singer WHERE 1 = 1 AND age > 2 + 3",
            "SELECT name FROM singer WHERE age = NULL",
            "SELECT name FROM singer WHERE NOT NOT (age > 3) AND age > 3",
        ],
        &["SELECT name FROM singer WHERE age + 0 = '20'"],
    ),
    (
        "decorrelate",
        &[
            "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)",
            "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)",
            "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM singer_in_concert AS sc WHERE sc.singer_id = s.singer_id AND sc.concert_id > 2)",
            "SELECT name FROM singer AS s WHERE NOT EXISTS (SELECT * FROM singer_in_concert AS sc WHERE sc.singer_id = s.singer_id)",
            "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
            "SELECT name, (SELECT max(capacity) FROM stadium) FROM singer",
            "SELECT name FROM singer AS s WHERE age > (SELECT avg(age) FROM singer AS t WHERE t.country = s.country)",
            "SELECT name, (SELECT count(*) FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id) FROM singer AS s",
            "SELECT name FROM stadium WHERE capacity = (SELECT capacity FROM stadium ORDER BY capacity DESC LIMIT 1)",
            "SELECT name FROM singer WHERE (singer_id, age) IN (SELECT singer_id, concert_id FROM singer_in_concert)",
            "SELECT name FROM singer WHERE (age, singer_id) NOT IN (SELECT concert_id, singer_id FROM singer_in_concert)",
        ],
        &[
            "SELECT name FROM singer WHERE age > 20 OR singer_id IN (SELECT singer_id FROM singer_in_concert)",
            "SELECT name FROM stadium WHERE capacity = (SELECT capacity FROM stadium WHERE name = 'x')",
            "SELECT name FROM stadium WHERE capacity = (SELECT capacity FROM stadium LIMIT 2)",
            "SELECT name FROM singer AS s WHERE age > (SELECT avg(age) FROM singer AS t WHERE t.country <> s.country)",
        ],
    ),
    (
        "push_filters",
        &[
            "SELECT T2.name FROM concert AS T1, stadium AS T2 WHERE T1.stadium_id = T2.stadium_id AND T1.year = 2014 AND T2.capacity > 100",
            "SELECT name FROM (SELECT name, age FROM singer) AS t WHERE t.age > 20",
            "SELECT country, count(*) FROM singer GROUP BY country HAVING country <> 'France' AND count(*) > 1",
            "SELECT * FROM (SELECT name FROM singer UNION SELECT name FROM stadium) AS u WHERE u.name <> 'x'",
            "SELECT s.name FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id AND c.concert_id = 1",
        ],
        &[
            "SELECT s.name FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id WHERE c.concert_id IS NULL",
            "SELECT name FROM (SELECT name, age FROM singer ORDER BY age LIMIT 3) AS t WHERE t.age > 20",
            "SELECT count(*) FROM singer HAVING count(*) > 1",
        ],
    ),
    (
        "merge_projects",
        &[
            "SELECT t.n FROM (SELECT name AS n, age FROM singer) AS t",
            "SELECT * FROM (SELECT * FROM singer) AS t",
        ],
        &["SELECT name FROM singer"],
    ),
    (
        "prune_columns",
        &[
            "SELECT n FROM (SELECT name AS n, age + 1 AS a FROM singer) AS t",
            "SELECT c FROM (SELECT country AS c, count(*), max(age) FROM singer GROUP BY country) AS t",
        ],
        &["SELECT name, age FROM singer"],
    ),
    (
        "canonical_order",
        &[
            "SELECT name FROM singer WHERE 30 > age AND country = 'France'",
            "SELECT T1.concert_name FROM stadium AS T2 JOIN concert AS T1 ON T2.stadium_id = T1.stadium_id",
            "SELECT name FROM stadium UNION SELECT name FROM singer",
        ],
        &["SELECT name FROM singer EXCEPT SELECT name FROM stadium"],
    ),
];

fn run_rule(rule: &str, sql: &str, schema: &Schema) -> (String, String) {
    let mut plan = build_plan(sql, schema).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let before = plan.explain();
    let r = rules::rule(rule).unwrap_or_else(|| panic!("no rule {rule}"));
    let report = rules::optimize_with(&mut plan, &[r]);
    assert!(
        report.rejected.is_empty(),
        "{rule} changed the output of {sql}"
    );
    (before, plan.explain())
}

#[test]
fn every_rule_has_golden_cases() {
    let names: Vec<&str> = rules::RULES.iter().map(|r| r.name()).collect();
    for n in &names {
        assert!(
            CASES.iter().any(|(r, _, _)| r == n),
            "rule {n} has no golden cases"
        );
    }
}

#[test]
fn rules_match_their_golden_files() {
    let schema = schema();
    let update = std::env::var_os("SQLSIM_UPDATE_GOLDEN").is_some();
    for (rule, applies, leaves) in CASES {
        let mut text = String::new();
        for sql in *applies {
            let (before, after) = run_rule(rule, sql, &schema);
            assert_ne!(before, after, "{rule} should rewrite: {sql}");
            text.push_str(&format!(
                "-- sql: {sql}\n-- before:\n{before}-- after:\n{after}\n"
            ));
        }
        for sql in *leaves {
            let (before, after) = run_rule(rule, sql, &schema);
            assert_eq!(before, after, "{rule} must not rewrite: {sql}");
            text.push_str(&format!("-- sql (unchanged): {sql}\n{before}\n"));
        }
        let path = fixture(&format!("golden/plan/{rule}.txt"));
        if update {
            std::fs::write(&path, &text).unwrap();
        } else {
            let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                panic!(
                    "missing {}; run with SQLSIM_UPDATE_GOLDEN=1",
                    path.display()
                )
            });
            assert_eq!(text, expected, "golden mismatch for rule {rule}");
        }
    }
}

/// Pairs that are equivalent in every database: the optimized plans must print the same
/// (output names aside, which follow each query's select list).
const SAME_PLAN: &[(&str, &str)] = &[
    // Calcite's no-op casts (plan/casts.rs)
    (
        "SELECT avg(CAST(age AS DOUBLE)) FROM singer WHERE CAST(age AS REAL) >= 20.5",
        "SELECT avg(age) FROM singer WHERE age >= 20.5",
    ),
    (
        "SELECT country, AVG(CAST(age AS DOUBLE)) FROM singer GROUP BY country",
        "SELECT country, avg(age) FROM singer GROUP BY country",
    ),
    (
        "SELECT CAST(name AS TEXT) FROM singer WHERE 20.5 < CAST(age AS FLOAT)",
        "SELECT name FROM singer WHERE age > 20.5",
    ),
    (
        "SELECT name FROM singer WHERE age BETWEEN 20 AND 30",
        "SELECT name FROM singer WHERE age >= 20 AND 30 >= age",
    ),
    (
        "SELECT name FROM singer WHERE country IN ('a', 'b')",
        "SELECT name FROM singer WHERE country = 'b' OR country = 'a'",
    ),
    (
        "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014",
        "SELECT s.name FROM stadium AS s, concert AS c WHERE c.year = 2014 AND s.stadium_id = c.stadium_id",
    ),
    (
        "SELECT name FROM (SELECT * FROM singer WHERE age > 20) AS t",
        "SELECT name FROM singer WHERE age > 20",
    ),
    (
        "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)",
        "SELECT name FROM singer AS s WHERE EXISTS (SELECT * FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id)",
    ),
    (
        "SELECT name FROM singer WHERE NOT (age <= 30)",
        "SELECT name FROM singer WHERE age > 30",
    ),
    (
        "WITH old AS (SELECT * FROM singer WHERE age > 60) SELECT name FROM old",
        "SELECT name FROM singer WHERE age > 60",
    ),
    // literals take the affinity of the column they meet (plan/affinity.rs)
    (
        "SELECT count(*) FROM singer WHERE country = 2014 OR '20' < age",
        "SELECT count(*) FROM singer WHERE country = '2014' OR age > 20",
    ),
    (
        "SELECT name FROM singer WHERE age BETWEEN '20' AND '30.5' AND country NOT IN (1, 2.5)",
        "SELECT name FROM singer WHERE age BETWEEN 20 AND 30.5 AND country NOT IN ('1', '2.5')",
    ),
    (
        "SELECT t.name FROM (SELECT name, age FROM singer) AS t WHERE t.age = '30'",
        "SELECT name FROM singer WHERE age = 30",
    ),
    // a count of a column that is never NULL is COUNT(*) (plan/build/count.rs)
    (
        "SELECT country, count(singer_id), count(DISTINCT singer_id) FROM singer GROUP BY country",
        "SELECT country, count(*), count(*) FROM singer GROUP BY country",
    ),
    (
        "SELECT count(s.singer_id) FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
        "SELECT count(*) FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
    ),
    // an alias on a select column does not change the plan's shape under a hidden ORDER BY column
    (
        "SELECT country AS c FROM singer GROUP BY country ORDER BY count(*) DESC LIMIT 1",
        "SELECT country FROM singer GROUP BY country ORDER BY count(*) DESC LIMIT 1",
    ),
    (
        "SELECT name AS n, age AS a FROM singer ORDER BY country, a",
        "SELECT name, age FROM singer ORDER BY country, age",
    ),
    // a primary-key column is never NULL, so NOT IN between keys is NOT EXISTS
    (
        "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM stadium WHERE capacity > 10)",
        "SELECT name FROM stadium AS s WHERE NOT EXISTS (SELECT * FROM stadium AS t WHERE t.capacity > 10 AND s.stadium_id = t.stadium_id)",
    ),
    // a row value IN a subquery is the EXISTS of a row with each pair equal
    (
        "SELECT name FROM singer WHERE (singer_id, age) IN (SELECT singer_id, concert_id FROM singer_in_concert)",
        "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id AND c.concert_id = s.age)",
    ),
    // and so is a count of a literal other than NULL
    (
        "SELECT country, count(1) FROM singer GROUP BY country HAVING count('x') > 1",
        "SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 1",
    ),
];

/// Look-alikes that differ on some database: their plans must differ.
const DIFFERENT_PLAN: &[(&str, &str)] = &[
    // a NULL age makes NOT IN unknown where NOT EXISTS is true
    (
        "SELECT name FROM singer WHERE (singer_id, age) NOT IN (SELECT singer_id, concert_id FROM singer_in_concert)",
        "SELECT name FROM singer AS s WHERE NOT EXISTS (SELECT 1 FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id AND c.concert_id = s.age)",
    ),
    (
        "SELECT name FROM singer WHERE (singer_id, age) IN (SELECT singer_id, concert_id FROM singer_in_concert)",
        "SELECT name FROM singer WHERE (age, singer_id) IN (SELECT singer_id, concert_id FROM singer_in_concert)",
    ),
    (
        "SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1",
        "SELECT name FROM stadium WHERE capacity = (SELECT max(capacity) FROM stadium)",
    ),
    (
        "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)",
        "SELECT name FROM stadium AS s WHERE NOT EXISTS (SELECT * FROM concert AS c WHERE c.stadium_id = s.stadium_id)",
    ),
    (
        "SELECT count(*) FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
        "SELECT count(*) FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
    ),
    (
        "SELECT DISTINCT country FROM singer",
        "SELECT country FROM singer",
    ),
    // COUNT(DISTINCT 1) is 1 on any rows, COUNT(NULL) is 0
    (
        "SELECT country, count(DISTINCT 1) FROM singer GROUP BY country",
        "SELECT country, count(*) FROM singer GROUP BY country",
    ),
    (
        "SELECT count(NULL) FROM singer",
        "SELECT count(*) FROM singer",
    ),
    // casts that change values stay (plan/casts.rs): truncation, and SUM of integers vs reals
    (
        "SELECT name FROM singer WHERE CAST(age AS INTEGER) = 20",
        "SELECT name FROM singer WHERE age = 20",
    ),
    (
        "SELECT sum(CAST(age AS REAL)) FROM singer",
        "SELECT sum(age) FROM singer",
    ),
    // no affinity, no conversion: an aggregate (SQLite compares an integer with a text as
    // unequal), and a text that is not a plain decimal number
    (
        "SELECT country FROM singer GROUP BY country HAVING count(*) > '3'",
        "SELECT country FROM singer GROUP BY country HAVING count(*) > 3",
    ),
    (
        "SELECT name FROM singer WHERE age = '3e1'",
        "SELECT name FROM singer WHERE age = 30",
    ),
    // counts that may skip rows: a nullable column, a key on the NULL side of an outer join, a
    // DISTINCT key over a join that repeats it, a DISTINCT key of a derived table
    (
        "SELECT count(age) FROM singer",
        "SELECT count(*) FROM singer",
    ),
    (
        "SELECT count(s.singer_id) FROM singer_in_concert AS c LEFT JOIN singer AS s ON s.singer_id = c.singer_id",
        "SELECT count(*) FROM singer_in_concert AS c LEFT JOIN singer AS s ON s.singer_id = c.singer_id",
    ),
    (
        "SELECT count(DISTINCT s.singer_id) FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
        "SELECT count(*) FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
    ),
    (
        "SELECT count(DISTINCT singer_id) FROM (SELECT s.singer_id FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id) AS t",
        "SELECT count(*) FROM (SELECT s.singer_id FROM singer AS s JOIN singer_in_concert AS c ON s.singer_id = c.singer_id) AS t",
    ),
];

fn shape(sql: &str, schema: &Schema) -> String {
    let plan = plan_sql(sql, schema).unwrap_or_else(|e| panic!("{sql}: {e}"));
    // Output names follow the select list; compare everything else.
    plan.explain()
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("LogicalProject(") {
                l.split("=[")
                    .skip(1)
                    .map(|p| p.split(']').next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn equivalent_queries_get_the_same_plan() {
    let schema = schema();
    for (a, b) in SAME_PLAN {
        assert_eq!(shape(a, &schema), shape(b, &schema), "\n{a}\n{b}");
    }
}

#[test]
fn look_alikes_get_different_plans() {
    let schema = schema();
    for (a, b) in DIFFERENT_PLAN {
        assert_ne!(shape(a, &schema), shape(b, &schema), "\n{a}\n{b}");
    }
}

#[test]
fn fetch_first_rows_only_plans_as_a_limit() {
    let schema = Schema::from_argument("CREATE TABLE singer (name TEXT, age INTEGER)").unwrap();
    let plan = |sql: &str| plan_sql(sql, &schema).map(|p| p.explain());
    let same = [
        (
            "SELECT name FROM singer ORDER BY age DESC FETCH FIRST 3 ROWS ONLY",
            "SELECT name FROM singer ORDER BY age DESC LIMIT 3",
        ),
        (
            "SELECT name FROM singer ORDER BY age OFFSET 2 ROWS FETCH NEXT 1 ROW ONLY",
            "SELECT name FROM singer ORDER BY age LIMIT 1 OFFSET 2",
        ),
        (
            "SELECT name FROM singer ORDER BY age FETCH FIRST ROW ONLY",
            "SELECT name FROM singer ORDER BY age LIMIT 1",
        ),
    ];
    for (fetch, limit) in same {
        assert_eq!(plan(fetch).unwrap(), plan(limit).unwrap(), "{fetch}");
    }
    let ties = plan("SELECT name FROM singer ORDER BY age FETCH FIRST 1 ROWS WITH TIES");
    assert!(ties.unwrap_err().to_string().contains("WITH TIES"));
}

#[test]
fn a_negative_limit_is_no_limit() {
    let schema = Schema::from_argument("CREATE TABLE singer (name TEXT, age INTEGER)").unwrap();
    let plan = |sql: &str| plan_sql(sql, &schema).map(|p| p.explain());
    let same = [
        (
            "SELECT name FROM singer ORDER BY age LIMIT -1 OFFSET 2",
            "SELECT name FROM singer ORDER BY age OFFSET 2 ROWS",
        ),
        (
            "SELECT name FROM singer ORDER BY age LIMIT -1",
            "SELECT name FROM singer ORDER BY age",
        ),
        (
            "SELECT name FROM singer ORDER BY age LIMIT 3 OFFSET -2",
            "SELECT name FROM singer ORDER BY age LIMIT 3",
        ),
    ];
    for (negative, none) in same {
        assert_eq!(plan(negative).unwrap(), plan(none).unwrap(), "{negative}");
    }
    assert_ne!(
        plan("SELECT name FROM singer ORDER BY age LIMIT 1 OFFSET 2").unwrap(),
        plan("SELECT name FROM singer ORDER BY age OFFSET 2 ROWS").unwrap()
    );
}
