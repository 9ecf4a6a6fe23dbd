//! Window functions in plans: where the Window operator goes, which spellings share a plan, which
//! look-alikes do not, and the errors for window calls SQL does not allow. That the rules keep a
//! Window's results is checked on random databases by `plan_equivalence`.

use sqlsim::plan::plan_sql;
use sqlsim::schema::Schema;

const DDL: &str = "
CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER);
CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, stadium_id INTEGER, year INTEGER);
";

fn explain(sql: &str) -> String {
    let schema = Schema::from_argument(DDL).unwrap();
    plan_sql(sql, &schema)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .explain()
}

fn error(sql: &str) -> String {
    let schema = Schema::from_argument(DDL).unwrap();
    match plan_sql(sql, &schema) {
        Ok(p) => panic!("{sql} planned:\n{}", p.explain()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_window_sits_between_having_and_the_select_list() {
    let plan = explain(
        "SELECT country, count(*), rank() OVER (ORDER BY count(*) DESC) FROM singer \
         WHERE age > 20 GROUP BY country HAVING count(*) > 1 ORDER BY 3",
    );
    let operators: Vec<&str> = plan
        .lines()
        .map(|l| l.trim_start().split('(').next().unwrap())
        .collect();
    assert_eq!(
        operators,
        [
            "LogicalSort",
            "LogicalProject",
            "LogicalWindow",
            "LogicalFilter",
            "LogicalAggregate",
            "LogicalFilter",
            "LogicalTableScan"
        ],
        "{plan}"
    );
    assert!(plan.contains("RANK() OVER (ORDER BY $1 DESC)"), "{plan}");
}

#[test]
fn a_filter_on_a_window_result_stays_above_the_window() {
    // `age > 20` below the Window would change the row numbers
    let plan = explain(
        "SELECT name FROM (SELECT name, age, row_number() OVER (ORDER BY age) AS rn FROM singer) \
         AS t WHERE t.rn <= 2 AND t.age > 20",
    );
    let window = plan.find("LogicalWindow").unwrap();
    let filter = plan.find("LogicalFilter").unwrap();
    assert!(filter < window, "{plan}");
    assert!(!plan[window..].contains("LogicalFilter"), "{plan}");
}

#[test]
fn spellings_of_one_window_share_a_plan() {
    let same = [
        (
            "SELECT name FROM (SELECT name, rank() OVER (ORDER BY age DESC) AS r FROM singer) WHERE r = 1",
            "SELECT t.name FROM (SELECT s.name, RANK() OVER (ORDER BY s.age DESC) AS rk FROM singer AS s) AS t WHERE t.rk = 1",
        ),
        (
            "SELECT name, rank() OVER (ORDER BY age) AS r FROM singer ORDER BY r",
            "SELECT name, rank() OVER (ORDER BY age) FROM singer ORDER BY rank() OVER (ORDER BY age)",
        ),
        (
            "SELECT country, sum(age) OVER (PARTITION BY country) FROM singer",
            "SELECT country, SUM(age) OVER (PARTITION BY country) AS total FROM singer",
        ),
    ];
    for (a, b) in same {
        // output names follow the select list; compare everything else
        let shape = |sql: &str| {
            explain(sql)
                .split("=[")
                .map(|piece| {
                    piece.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
                })
                .collect::<Vec<_>>()
                .join("=[")
        };
        assert_eq!(shape(a), shape(b), "\n{a}\n{b}");
    }
}

#[test]
fn look_alike_windows_get_different_plans() {
    let different = [
        (
            "SELECT name, rank() OVER (ORDER BY age) FROM singer",
            "SELECT name, dense_rank() OVER (ORDER BY age) FROM singer",
        ),
        (
            "SELECT name, rank() OVER (ORDER BY age) FROM singer",
            "SELECT name, rank() OVER (ORDER BY age DESC) FROM singer",
        ),
        (
            "SELECT name, sum(age) OVER (ORDER BY age) FROM singer",
            "SELECT name, sum(age) OVER (ORDER BY age ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM singer",
        ),
        (
            "SELECT name, count(*) OVER (PARTITION BY country) FROM singer",
            "SELECT name, count(*) OVER () FROM singer",
        ),
    ];
    for (a, b) in different {
        assert_ne!(explain(a), explain(b), "\n{a}\n{b}");
    }
}

#[test]
fn each_block_plans_its_own_windows() {
    let plan = explain(
        "SELECT name, (SELECT count(*) FROM concert) FROM \
         (SELECT name, row_number() OVER (PARTITION BY country ORDER BY age) AS rn FROM singer) \
         WHERE rn = 1",
    );
    assert_eq!(plan.matches("LogicalWindow").count(), 1, "{plan}");
    assert!(plan.contains("PARTITION BY $2 ORDER BY $3"), "{plan}");
}

#[test]
fn window_calls_sql_refuses_are_errors() {
    for (sql, message) in [
        (
            "SELECT name FROM singer WHERE rank() OVER (ORDER BY age) = 1",
            "misuse of window function in WHERE",
        ),
        (
            "SELECT country FROM singer GROUP BY country HAVING rank() OVER (ORDER BY country) = 1",
            "misuse of window function in GROUP BY or HAVING",
        ),
        (
            "SELECT rank() OVER (ORDER BY age) FROM singer GROUP BY 1",
            "misuse of window function in GROUP BY or HAVING",
        ),
        (
            "SELECT country, rank() OVER (ORDER BY country) AS r FROM singer GROUP BY country HAVING r = 1",
            "misuse of window function in GROUP BY or HAVING",
        ),
        (
            "SELECT abs(age) OVER (ORDER BY age) FROM singer",
            "abs() is not a window function",
        ),
        (
            "SELECT count(DISTINCT age) OVER () FROM singer",
            "DISTINCT is not supported for window function count()",
        ),
        (
            "SELECT sum(rank() OVER (ORDER BY age)) OVER () FROM singer",
            "over a window function or a subquery is not supported",
        ),
        (
            "SELECT rank() OVER w FROM singer WINDOW w AS (ORDER BY age)",
            "named window is not supported",
        ),
        (
            "SELECT * FROM (VALUES (rank() OVER ()))",
            "misuse of window function in VALUES",
        ),
        (
            &format!(
                "SELECT {} FROM singer",
                (0..65)
                    .map(|i| format!("rank() OVER (ORDER BY age + {i})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "at most 64 window function calls in one query",
        ),
    ] {
        let got = error(sql);
        assert!(got.contains(message), "{sql}: {got}");
    }
}
