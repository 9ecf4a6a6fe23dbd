//! The rewrite rules keep results: every query here runs on many small random databases (with
//! NULLs and duplicates) three ways — as written, as its unoptimized plan printed back to SQL, and
//! as its optimized plan printed back to SQL — and the three results must be the same bag of rows.

use rusqlite::types::ValueRef;
use rusqlite::Connection;
use sqlsim::plan::{build_plan, plan_sql, to_sql::to_sql};
use sqlsim::schema::Schema;
use std::collections::BTreeMap;

const DDL: &str = "
CREATE TABLE singer (singer_id INTEGER, name TEXT, country TEXT, age INTEGER);
CREATE TABLE concert (concert_id INTEGER, concert_name TEXT, stadium_id INTEGER, year INTEGER);
CREATE TABLE stadium (stadium_id INTEGER PRIMARY KEY, name TEXT NOT NULL, capacity INTEGER);
CREATE TABLE singer_in_concert (concert_id INTEGER, singer_id INTEGER NOT NULL);
";

const QUERIES: &[&str] = &[
    "SELECT name FROM singer WHERE age BETWEEN 20 AND 30",
    "SELECT country, count(*) FILTER (WHERE age > 20), sum(age) FILTER (WHERE name <> 'a') FROM singer GROUP BY country",
    "SELECT count(DISTINCT country) FILTER (WHERE age IS NOT NULL) FROM singer",
    "SELECT name FROM singer WHERE country IN ('a', 'b', 'a')",
    "SELECT name FROM singer WHERE age NOT IN (20, 21)",
    "SELECT name FROM singer WHERE NOT (age < 30 OR country = 'a')",
    "SELECT name FROM singer WHERE 1 = 1 AND age > 2 + 18",
    "SELECT name FROM singer WHERE age = NULL",
    "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)",
    "SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)",
    "SELECT name FROM singer WHERE age NOT IN (SELECT capacity FROM stadium WHERE capacity > 20)",
    "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)",
    "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM singer_in_concert AS sc WHERE sc.singer_id = s.singer_id AND sc.concert_id > 2)",
    "SELECT name FROM singer AS s WHERE NOT EXISTS (SELECT * FROM singer_in_concert AS sc WHERE sc.singer_id = s.singer_id)",
    "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
    "SELECT name, (SELECT max(capacity) FROM stadium) FROM singer",
    "SELECT name FROM singer AS s WHERE age > (SELECT avg(age) FROM singer AS t WHERE t.country = s.country)",
    "SELECT name, (SELECT count(*) FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id) FROM singer AS s",
    "SELECT name FROM singer AS s WHERE (SELECT count(*) FROM singer_in_concert AS c WHERE c.singer_id = s.singer_id) = 0",
    "SELECT name FROM stadium WHERE capacity = (SELECT capacity FROM stadium ORDER BY capacity DESC LIMIT 1)",
    "SELECT name FROM stadium WHERE capacity > (SELECT capacity FROM stadium WHERE name = 'a' LIMIT 1)",
    "SELECT T2.name FROM concert AS T1, stadium AS T2 WHERE T1.stadium_id = T2.stadium_id AND T1.year = 3 AND T2.capacity > 10",
    "SELECT name FROM (SELECT name, age FROM singer) AS t WHERE t.age > 20",
    "SELECT country, count(*) FROM singer GROUP BY country HAVING country <> 'a' AND count(*) > 1",
    "SELECT * FROM (SELECT name FROM singer UNION SELECT name FROM stadium) AS u WHERE u.name <> 'a'",
    "SELECT s.name FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id AND c.concert_id = 1",
    "SELECT s.name FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id WHERE c.concert_id IS NULL",
    "SELECT name FROM (SELECT name, age FROM singer ORDER BY age, name LIMIT 3) AS t WHERE t.age > 20",
    "SELECT count(*) FROM singer HAVING count(*) > 1",
    "SELECT t.n FROM (SELECT name AS n, age FROM singer) AS t",
    "SELECT n FROM (SELECT name AS n, age + 1 AS a FROM singer) AS t",
    "SELECT c FROM (SELECT country AS c, count(*), max(age) FROM singer GROUP BY country) AS t",
    "SELECT name FROM singer WHERE 30 > age AND country = 'a'",
    "SELECT T1.concert_name FROM stadium AS T2 JOIN concert AS T1 ON T2.stadium_id = T1.stadium_id",
    "SELECT name FROM stadium UNION SELECT name FROM singer",
    "SELECT name FROM singer EXCEPT SELECT name FROM stadium",
    "SELECT name FROM singer INTERSECT SELECT name FROM stadium",
    "SELECT name FROM singer UNION ALL SELECT name FROM stadium UNION ALL SELECT country FROM singer",
    "SELECT s.name, st.name FROM singer AS s JOIN singer_in_concert AS sc ON s.singer_id = sc.singer_id JOIN concert AS c ON c.concert_id = sc.concert_id JOIN stadium AS st ON st.stadium_id = c.stadium_id WHERE st.capacity > 5",
    "SELECT DISTINCT country FROM singer WHERE age > 10",
    "SELECT country, avg(age), count(DISTINCT name) FROM singer GROUP BY country ORDER BY 2 DESC",
    "SELECT name FROM singer ORDER BY age DESC LIMIT 2",
    "SELECT count(*) FROM singer AS s LEFT JOIN singer_in_concert AS c ON s.singer_id = c.singer_id",
    "SELECT name FROM singer WHERE age IS NOT NULL AND NOT (age IS NULL OR age <= 20)",
    "WITH old AS (SELECT * FROM singer WHERE age > 25) SELECT name FROM old WHERE country = 'b'",
    "SELECT a.name FROM singer AS a JOIN singer AS b ON a.age = b.age AND a.singer_id <> b.singer_id",
    "SELECT name, CASE WHEN age > 20 THEN 'old' ELSE 'young' END FROM singer WHERE name LIKE 'a%'",
    "SELECT country FROM singer GROUP BY country HAVING max(age) > (SELECT avg(capacity) FROM stadium)",
    "SELECT name, rank() OVER (ORDER BY age DESC) FROM singer",
    "SELECT name FROM (SELECT name, dense_rank() OVER (PARTITION BY country ORDER BY age) AS r FROM singer) AS t WHERE t.r = 1",
    "SELECT country, count(*), rank() OVER (ORDER BY count(*) DESC) FROM singer GROUP BY country",
    "SELECT name, sum(age) OVER (PARTITION BY country) FROM singer WHERE age > 20",
    "SELECT t.name FROM (SELECT name, age, row_number() OVER (ORDER BY age, name, country, singer_id) AS rn FROM singer) AS t WHERE t.rn <= 2 AND t.age > 2",
    "SELECT DISTINCT country, max(age) OVER (PARTITION BY country) FROM singer",
    "SELECT name, count(*) OVER (), avg(age) OVER (PARTITION BY country ORDER BY age) FROM singer ORDER BY rank() OVER (ORDER BY name)",
    "SELECT name, sum(age) OVER (ORDER BY age, name, singer_id, country ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM singer",
];

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn value(rng: &mut Rng, text: bool, nullable: bool) -> String {
    if nullable && rng.pick(6) == 0 {
        return "NULL".into();
    }
    if text {
        ["'a'", "'b'", "'ab'", "'c'"][rng.pick(4) as usize].into()
    } else {
        (rng.pick(40) as i64 - 3).to_string()
    }
}

fn database(seed: u64) -> Connection {
    let con = Connection::open_in_memory().unwrap();
    con.execute_batch(DDL).unwrap();
    let mut rng = Rng(seed);
    let tables: &[(&str, &[(bool, bool)])] = &[
        (
            "singer",
            &[(false, true), (true, true), (true, true), (false, true)],
        ),
        (
            "concert",
            &[(false, true), (true, true), (false, true), (false, true)],
        ),
        ("stadium", &[(false, false), (true, false), (false, true)]),
        ("singer_in_concert", &[(false, true), (false, false)]),
    ];
    for (table, cols) in tables {
        let rows = rng.pick(6);
        for r in 0..rows {
            let vals: Vec<String> = cols
                .iter()
                .enumerate()
                .map(|(i, (text, nullable))| {
                    if *table == "stadium" && i == 0 {
                        (r as i64 + 1 + rng.pick(2) as i64 * 10).to_string()
                    } else {
                        // Small integers so that joins and IN lists match often.
                        let v = value(&mut rng, *text, *nullable);
                        if !*text && v != "NULL" {
                            (v.parse::<i64>().unwrap() % 7).to_string()
                        } else {
                            v
                        }
                    }
                })
                .collect();
            let _ = con.execute(
                &format!("INSERT INTO {table} VALUES ({})", vals.join(", ")),
                [],
            );
        }
    }
    con
}

fn bag(con: &Connection, sql: &str) -> Result<BTreeMap<Vec<String>, usize>, String> {
    let mut stmt = con.prepare(sql).map_err(|e| format!("{e}: {sql}"))?;
    let n = stmt.column_count();
    let mut rows = stmt.query([]).map_err(|e| e.to_string())?;
    let mut out = BTreeMap::new();
    while let Some(row) = rows.next().map_err(|e| e.to_string())? {
        let cells: Vec<String> = (0..n)
            .map(|i| match row.get_ref(i).unwrap() {
                ValueRef::Null => "NULL".into(),
                ValueRef::Integer(x) => format!("{:.6}", x as f64),
                ValueRef::Real(x) => format!("{x:.6}"),
                ValueRef::Text(t) => format!("'{}'", String::from_utf8_lossy(t)),
                ValueRef::Blob(b) => format!("{b:?}"),
            })
            .collect();
        *out.entry(cells).or_default() += 1;
    }
    Ok(out)
}

#[test]
fn optimized_plans_return_what_the_queries_return() {
    let schema = Schema::from_argument(DDL).unwrap();
    let mut checked = 0;
    for sql in QUERIES {
        let raw = build_plan(sql, &schema).unwrap_or_else(|e| panic!("{sql}: {e}"));
        let opt = plan_sql(sql, &schema).unwrap_or_else(|e| panic!("{sql}: {e}"));
        let raw_sql = to_sql(&raw.root, &raw.columns);
        let opt_sql = to_sql(&opt.root, &opt.columns);
        for seed in 0..60 {
            let con = database(seed * 7919 + 1);
            let want = bag(&con, sql).unwrap();
            let got_raw = bag(&con, &raw_sql).unwrap();
            let got_opt = bag(&con, &opt_sql).unwrap();
            assert_eq!(
                want, got_raw,
                "unoptimized plan differs (seed {seed}): {sql}\n{raw_sql}"
            );
            assert_eq!(
                want,
                got_opt,
                "optimized plan differs (seed {seed}): {sql}\n{}\n{opt_sql}",
                opt.explain()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, QUERIES.len() * 60);
}
