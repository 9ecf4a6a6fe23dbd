//! Random databases, the verdict's last search: when no coverage-guided database of any round shows an ordinary difference, a few NULL-free databases filled at random from small domains (the queries' literals and their neighbours, small numbers, fillers; keys distinct, foreign keys pointing at rows of the referenced table) are tried, as test-suite evaluation's fuzzed databases would be. Seeded: the same call builds the same databases.
//!
//! Coverage asks for one query's branches at a time, so a difference that needs a shape neither
//! query's branches ask for is missed: `GROUP BY code ORDER BY count(*) DESC LIMIT 1` over a join
//! on `source OR destination` against the same over `destination` alone differs only where one
//! airport is the source of two flights with different destinations. Small random databases hold
//! such shapes often.

use std::collections::HashSet;

use rusqlite::types::Value;

use super::evidence::fresh_value;
use crate::exec::instance::{Database, TableRows};
use crate::parseval::search::plan_facts::{column_hints, scanned_tables, with_referenced_tables};
use crate::parseval::search::text_domains::{date_domain, date_time_domain};
use crate::parseval::symbolic::values::Sort;
use crate::plan::QueryPlan;
use crate::schema::{Affinity, Column, Schema};

/// Fewest and most rows of a table in a random database.
const ROWS: std::ops::RangeInclusive<usize> = 2..=7;
/// Tries at a row whose key clashes with an earlier row's before the row is left out.
const KEY_TRIES: usize = 8;
/// Most tables in a random database: the tables the queries read and every table their foreign
/// keys reach (filling costs no solver work; a reference into a table left out fails the check).
const MAX_TABLES: usize = 32;
/// Most literals a domain takes from the queries.
const MAX_LITERALS: usize = 24;

/// The values one column of a random database draws from.
#[derive(Debug, Clone, PartialEq)]
enum Domain {
    Integers(Vec<i64>),
    Reals(Vec<f64>),
    Texts(Vec<String>),
}

impl Domain {
    fn len(&self) -> usize {
        match self {
            Domain::Integers(v) => v.len(),
            Domain::Reals(v) => v.len(),
            Domain::Texts(v) => v.len(),
        }
    }

    /// The `k`-th value (`k` below [`Domain::len`]; every domain holds at least one).
    fn value(&self, k: usize) -> Value {
        match self {
            Domain::Integers(v) => Value::Integer(v[k]),
            Domain::Reals(v) => Value::Real(v[k]),
            Domain::Texts(v) => Value::Text(v[k].clone()),
        }
    }
}

/// The random databases a verdict tries for `plans` (the gold's, and the prediction's when it
/// plans), built one at a time as asked for.
pub struct RandomDatabases<'a> {
    schema: &'a Schema,
    /// Tables in fill order (a referenced table before the tables referencing it, where the
    /// references allow).
    tables: Vec<usize>,
    /// Per table of `tables`, the column positions whose values (taken together) stay distinct.
    keys: Vec<Vec<Vec<usize>>>,
    /// The domains the columns draw from, built once from the queries' literals.
    domains: Domains,
    /// Per schema column, which of `domains` it draws from (None for a column of a table not
    /// filled).
    column_domains: Vec<Option<DomainKind>>,
    rng: fastrand::Rng,
}

impl<'a> RandomDatabases<'a> {
    /// The generator for `plans` over `schema`: the tables they read and those their foreign
    /// keys reach, each column's domain from `literals` (both queries' literals as text) and how
    /// the queries use the column; `seed` fixes every database.
    pub fn new(schema: &'a Schema, plans: &[&QueryPlan], literals: &[String], seed: u32) -> Self {
        let mut read = Vec::new();
        let mut numeric_use = HashSet::new();
        for q in plans {
            for t in scanned_tables(&q.root, schema) {
                if !read.contains(&t) {
                    read.push(t);
                }
            }
            for (column, sort) in column_hints(q, schema) {
                if sort != Sort::Text {
                    numeric_use.insert(column);
                }
            }
        }
        let tables = fill_order(schema, with_referenced_tables(read, schema, MAX_TABLES));
        let literals = &literals[..literals.len().min(MAX_LITERALS)];
        let mut column_domains = vec![None; schema.columns.len()];
        for &t in &tables {
            for &c in &schema.tables[t].columns {
                column_domains[c] =
                    Some(DomainKind::of(&schema.columns[c], numeric_use.contains(&c)));
            }
        }
        RandomDatabases {
            schema,
            keys: tables.iter().map(|&t| table_keys(schema, t)).collect(),
            tables,
            domains: Domains::new(literals),
            column_domains,
            rng: fastrand::Rng::with_seed(0x5eed_0000_0000 | u64::from(seed)),
        }
    }

    /// The next random database: [`ROWS`] rows per table, no NULL. A row whose key would
    /// repeat an earlier row's is drawn again, and left out after a few tries.
    pub fn next_database(&mut self) -> Database {
        let mut db = Database::default();
        for k in 0..self.tables.len() {
            let rows = self.table_rows(&db, k);
            db.tables.push(TableRows {
                table: self.tables[k],
                rows,
            });
        }
        db
    }

    /// The rows of the `k`-th table of `tables`, its references into the tables of `db`.
    fn table_rows(&mut self, db: &Database, k: usize) -> Vec<Vec<Value>> {
        let schema = self.schema;
        let t = self.tables[k];
        let table = &schema.tables[t];
        let keys = &self.keys[k];
        let domain = |c: usize| self.column_domains[c].map(|kind| self.domains.get(kind));
        let n = self.rng.usize(ROWS);
        // a one-column key that references nothing takes a fresh value on a clash (a date for a
        // date column, as the NULL-replacement evidence does)
        let fresh_on_clash = |k: &[usize]| match k {
            [i] => {
                let c = table.columns[*i];
                (!table.foreign_keys.iter().any(|f| f.columns.contains(&c))).then_some(*i)
            }
            _ => None,
        };
        let mut seen: Vec<HashSet<Vec<String>>> = vec![HashSet::new(); keys.len()];
        let key_of = |row: &[Value], k: &[usize]| -> Vec<String> {
            k.iter().map(|&i| format!("{:?}", row[i])).collect()
        };
        let mut rows: Vec<Vec<Value>> = Vec::new();
        let mut fresh = 0usize;
        for _ in 0..n {
            for _ in 0..KEY_TRIES {
                let mut row: Vec<Value> = table
                    .columns
                    .iter()
                    .map(|&c| match domain(c) {
                        Some(d) => d.value(self.rng.usize(..d.len())),
                        None => Value::Null,
                    })
                    .collect();
                point_references(schema, &mut self.rng, db, &rows, t, &mut row);
                for (k, s) in keys.iter().zip(&seen) {
                    if let Some(i) = fresh_on_clash(k).filter(|_| s.contains(&key_of(&row, k))) {
                        fresh += 1;
                        row[i] = fresh_value(schema, table.columns[i], fresh);
                    }
                }
                let row_keys: Vec<Vec<String>> = keys.iter().map(|k| key_of(&row, k)).collect();
                if row_keys.iter().zip(&seen).any(|(key, s)| s.contains(key)) {
                    continue;
                }
                for (key, s) in row_keys.into_iter().zip(seen.iter_mut()) {
                    s.insert(key);
                }
                rows.push(row);
                break;
            }
        }
        rows
    }
}

/// Sets each foreign key of `row` (table `t`) to the referenced columns of a random row of
/// the referenced table, already in `db` (or among `own` rows for a self-reference); a
/// reference into a table not filled yet keeps its random values (the database is then
/// rejected by the foreign-key check, unless they match by chance).
fn point_references(
    schema: &Schema,
    rng: &mut fastrand::Rng,
    db: &Database,
    own: &[Vec<Value>],
    t: usize,
    row: &mut [Value],
) {
    let table = &schema.tables[t];
    for fk in &table.foreign_keys {
        let parent_rows: &[Vec<Value>] = if fk.referenced_table == t {
            own
        } else {
            match db.tables.iter().find(|r| r.table == fk.referenced_table) {
                Some(r) => &r.rows,
                None => continue,
            }
        };
        if parent_rows.is_empty() {
            continue;
        }
        let parent = &parent_rows[rng.usize(..parent_rows.len())];
        let parent_columns = &schema.tables[fk.referenced_table].columns;
        for (c, r) in fk.columns.iter().zip(&fk.referenced_columns) {
            let at = table.columns.iter().position(|x| x == c);
            let from = parent_columns.iter().position(|x| x == r);
            if let (Some(at), Some(from)) = (at, from) {
                row[at] = parent[from].clone();
            }
        }
    }
}

/// The column positions of table `t` whose values stay distinct: its declared keys, and the
/// columns a foreign key references (a key in practice: SQLite asks a referenced column to be
/// unique, and Spider's schemas do not always declare it).
fn table_keys(schema: &Schema, t: usize) -> Vec<Vec<usize>> {
    let table = &schema.tables[t];
    let position = |c: &usize| table.columns.iter().position(|x| x == c);
    let referenced = schema
        .tables
        .iter()
        .flat_map(|other| &other.foreign_keys)
        .filter(|fk| fk.referenced_table == t)
        .map(|fk| &fk.referenced_columns);
    let mut keys: Vec<Vec<usize>> = Vec::new();
    for k in std::iter::once(&table.primary_key)
        .chain(&table.unique_keys)
        .chain(referenced)
    {
        let k: Vec<usize> = k.iter().filter_map(position).collect();
        if !k.is_empty() && !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// `tables` ordered so that a table comes after the tables its foreign keys reference, where no
/// cycle prevents it (a cycle keeps the remaining tables in their order).
fn fill_order(schema: &Schema, mut tables: Vec<usize>) -> Vec<usize> {
    let mut out = Vec::with_capacity(tables.len());
    while !tables.is_empty() {
        let ready = tables.iter().position(|&t| {
            schema.tables[t]
                .foreign_keys
                .iter()
                .all(|fk| fk.referenced_table == t || !tables.contains(&fk.referenced_table))
        });
        out.push(tables.remove(ready.unwrap_or(0)));
    }
    out
}

/// Which of [`Domains`] a column draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DomainKind {
    Integers,
    Reals,
    Texts,
    /// A text column a query uses as a number.
    NumberTexts,
    Dates,
    /// A column that holds dates or date-times under option `plausible_dates`.
    DateTimes,
}

impl DomainKind {
    /// A date column's dates, a number column's numbers (by its affinity), a text column's
    /// texts (with numbers where a query uses it as a number: `numeric_use`).
    fn of(column: &Column, numeric_use: bool) -> DomainKind {
        if column.plausible_dates {
            return DomainKind::DateTimes;
        }
        if column.holds_dates() {
            return DomainKind::Dates;
        }
        match column.affinity() {
            Affinity::Integer | Affinity::Numeric => DomainKind::Integers,
            Affinity::Real => DomainKind::Reals,
            _ if numeric_use => DomainKind::NumberTexts,
            _ => DomainKind::Texts,
        }
    }
}

/// The values columns draw from, one domain per [`DomainKind`], built once per pair from the
/// queries' literals: for numbers the numeric literals, their neighbours and 0 to 3 (a real
/// column also the literals themselves and 2.5); for text the text literals (a LIKE pattern also
/// without its wildcards; the numeric literals and numbers too for [`DomainKind::NumberTexts`])
/// and fillers `v1` to `v3`; the dates around the literals for a date column.
struct Domains {
    integers: Domain,
    reals: Domain,
    texts: Domain,
    number_texts: Domain,
    dates: Domain,
    date_times: Domain,
}

impl Domains {
    fn new(literals: &[String]) -> Domains {
        let numbers: Vec<f64> = literals
            .iter()
            .filter_map(|l| l.trim().parse::<f64>().ok())
            .filter(|f| f.is_finite() && f.abs() < 1e15)
            .collect();
        let mut integers: Vec<i64> = (0..=3).collect();
        for f in &numbers {
            let i = f.floor() as i64;
            for v in [i - 1, i, i + 1, f.ceil() as i64] {
                if !integers.contains(&v) {
                    integers.push(v);
                }
            }
        }
        let mut reals: Vec<f64> = integers.iter().map(|&i| i as f64).collect();
        for f in numbers.iter().copied().chain([2.5]) {
            if !reals.contains(&f) {
                reals.push(f);
            }
        }
        let texts = |numeric_use: bool| {
            let mut texts: Vec<String> = Vec::new();
            let mut add = |t: String| {
                if !texts.contains(&t) {
                    texts.push(t);
                }
            };
            for l in literals {
                let is_number = l.trim().parse::<f64>().is_ok();
                if is_number && !numeric_use {
                    continue;
                }
                if l.contains(['%', '_']) {
                    add(l.replace(['%', '_'], ""));
                }
                add(l.clone());
            }
            if numeric_use {
                integers.iter().for_each(|i| add(i.to_string()));
            }
            (1..=3).for_each(|k| add(format!("v{k}")));
            Domain::Texts(texts)
        };
        Domains {
            texts: texts(false),
            number_texts: texts(true),
            integers: Domain::Integers(integers),
            reals: Domain::Reals(reals),
            dates: Domain::Texts(date_domain(literals, 3)),
            date_times: Domain::Texts(date_time_domain(literals, 3)),
        }
    }

    fn get(&self, kind: DomainKind) -> &Domain {
        match kind {
            DomainKind::Integers => &self.integers,
            DomainKind::Reals => &self.reals,
            DomainKind::Texts => &self.texts,
            DomainKind::NumberTexts => &self.number_texts,
            DomainKind::Dates => &self.dates,
            DomainKind::DateTimes => &self.date_times,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::instance::open_database;
    use crate::parseval::verdict::value_variants::foreign_keys_hold;

    const DDL: &str = "CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT);
        CREATE TABLE flights (airline INTEGER, no INTEGER, src TEXT REFERENCES airports(code),
          dst TEXT REFERENCES airports(code), PRIMARY KEY (airline, no));";

    fn generator<'a>(schema: &'a Schema, sql: &str, seed: u32) -> RandomDatabases<'a> {
        let plan = crate::plan::plan_sql(sql, schema).unwrap();
        let literals = crate::parseval::search::text_domains::query_texts(&plan);
        RandomDatabases::new(schema, &[&plan], &literals, seed)
    }

    #[test]
    fn random_databases_keep_keys_and_references_and_hold_no_null() {
        let schema = Schema::from_ddl(DDL).unwrap();
        let mut g = generator(
            &schema,
            "SELECT f.no FROM flights f JOIN airports a ON a.code = f.src WHERE a.city = 'Paris'",
            3,
        );
        let mut valid = 0;
        for _ in 0..20 {
            let db = g.next_database();
            assert_eq!(db.tables.len(), 2, "both tables, airports first");
            assert_eq!(db.tables[0].table, schema.table_index("airports").unwrap());
            assert!(db
                .tables
                .iter()
                .flat_map(|t| &t.rows)
                .flatten()
                .all(|v| *v != Value::Null));
            let conn = open_database(&schema, &db).expect("keys are distinct");
            valid += usize::from(foreign_keys_hold(&conn, &schema));
        }
        assert_eq!(valid, 20, "every reference points at an airport");
    }

    #[test]
    fn the_queries_literals_reach_the_rows_and_the_same_seed_gives_the_same_databases() {
        let schema = Schema::from_ddl(DDL).unwrap();
        let sql = "SELECT count(*) FROM airports WHERE city = 'Paris'";
        let a: Vec<Database> = (0..10)
            .map({
                let mut g = generator(&schema, sql, 1);
                move |_| g.next_database()
            })
            .collect();
        let b: Vec<Database> = (0..10)
            .map({
                let mut g = generator(&schema, sql, 1);
                move |_| g.next_database()
            })
            .collect();
        assert_eq!(a, b);
        let paris = Value::Text("Paris".into());
        assert!(a
            .iter()
            .flat_map(|d| &d.tables)
            .flat_map(|t| &t.rows)
            .any(|r| r.contains(&paris)));
        let c: Vec<Database> = (0..10)
            .map({
                let mut g = generator(&schema, sql, 2);
                move |_| g.next_database()
            })
            .collect();
        assert_ne!(a, c, "another seed, other databases");
    }

    #[test]
    fn a_date_key_that_clashes_takes_a_fresh_date() {
        let schema =
            Schema::from_ddl("CREATE TABLE days (day DATE PRIMARY KEY, visits INTEGER);").unwrap();
        let mut g = generator(
            &schema,
            "SELECT visits FROM days WHERE day = '2020-05-01'",
            7,
        );
        let domain = g.domains.dates.clone();
        let in_domain = |v: &Value| (0..domain.len()).any(|k| domain.value(k) == *v);
        let mut fresh = 0;
        for _ in 0..40 {
            for row in &g.next_database().tables[0].rows {
                let Value::Text(day) = &row[0] else {
                    panic!("a date key holds text, got {:?}", row[0]);
                };
                let parts: Vec<&str> = day.split('-').collect();
                assert!(
                    parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
                    "{day} is no date"
                );
                fresh += usize::from(!in_domain(&row[0]));
            }
        }
        assert!(fresh > 0, "some key clashed and took a fresh value");
    }

    /// The domain column `c` of `schema` draws from, given `literals`.
    fn column_domain(
        schema: &Schema,
        c: usize,
        literals: &[String],
        numeric_use: bool,
    ) -> Option<Domain> {
        let kind = DomainKind::of(schema.columns.get(c)?, numeric_use);
        Some(Domains::new(literals).get(kind).clone())
    }

    #[test]
    fn number_domains_hold_the_literals_and_their_neighbours() {
        let schema =
            Schema::from_ddl("CREATE TABLE t (a INTEGER, r REAL, s TEXT, n TEXT);").unwrap();
        let lits = vec!["10".to_string(), "2.5".to_string(), "x%".to_string()];
        let Some(Domain::Integers(i)) = column_domain(&schema, 0, &lits, false) else {
            panic!()
        };
        for v in [9, 10, 11, 2, 3] {
            assert!(i.contains(&v), "{v} in {i:?}");
        }
        let Some(Domain::Reals(r)) = column_domain(&schema, 1, &lits, false) else {
            panic!()
        };
        assert!(r.contains(&2.5) && r.contains(&10.0));
        let Some(Domain::Texts(s)) = column_domain(&schema, 2, &lits, false) else {
            panic!()
        };
        assert_eq!(s, ["x", "x%", "v1", "v2", "v3"]);
        let Some(Domain::Texts(n)) = column_domain(&schema, 3, &lits, true) else {
            panic!()
        };
        assert!(
            n.contains(&"10".to_string())
                && n.contains(&"2.5".to_string())
                && n.contains(&"11".to_string())
        );
    }

    /// Both queries' verdict over `ddl` under test-suite semantics, with `random` databases.
    fn verdict(ddl: &str, gold: &str, pred: &str, random: u32) -> crate::parseval::Decision {
        let schema =
            crate::parseval::verdict::decide::schema_for(Some(ddl), &[gold, pred]).unwrap();
        let opts = crate::parseval::Options {
            semantics: crate::parseval::options::Semantics::TestSuite,
            random: Some(random),
            ..Default::default()
        };
        crate::parseval::verdict::decide::decide(gold, pred, schema, &opts)
    }

    #[test]
    fn a_random_database_finds_the_busiest_source_that_coverage_misses() {
        let ddl = "CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT);
            CREATE TABLE flights (airline INTEGER, flightno INTEGER,
              src TEXT REFERENCES airports(code), dst TEXT REFERENCES airports(code));";
        let gold =
            "SELECT a.code FROM airports a JOIN flights f ON a.code = f.dst OR a.code = f.src \
            GROUP BY a.code ORDER BY count(*) DESC LIMIT 1";
        let pred = "SELECT dst FROM flights GROUP BY dst ORDER BY count(*) DESC LIMIT 1";
        let without = verdict(ddl, gold, pred, 0);
        assert_eq!(without.value(), None, "{}", without.reason());
        let with = verdict(ddl, gold, pred, 128);
        assert_eq!(with.value(), Some(0), "{}", with.reason());
        assert!(
            with.random && with.reason().contains("on a random database"),
            "{}",
            with.reason()
        );
        let crate::parseval::Verdict::Different(c) = &with.verdict else {
            panic!("{}", with.reason())
        };
        assert_eq!(c.evidence, crate::parseval::Evidence::Ordinary);
    }

    #[test]
    fn a_difference_that_needs_two_sets_of_one_name_is_a_repeated_value_not_ordinary() {
        // the join keeps the cards of every set called X, the scalar subquery one set's: they
        // differ only where two sets share the name, which random databases hold often
        let ddl = "CREATE TABLE sets (id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT);
            CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT, cost INTEGER,
              setcode TEXT REFERENCES sets(code));";
        let gold = "SELECT c.name FROM cards c JOIN sets s ON s.code = c.setcode \
            WHERE s.name = 'X' ORDER BY c.cost DESC LIMIT 1";
        let pred =
            "SELECT name FROM cards WHERE setcode = (SELECT code FROM sets WHERE name = 'X') \
            ORDER BY cost DESC LIMIT 1";
        let d = verdict(ddl, gold, pred, 128);
        let crate::parseval::Verdict::Different(c) = &d.verdict else {
            panic!("{}", d.reason())
        };
        assert_eq!(
            c.evidence,
            crate::parseval::Evidence::RepeatedValues,
            "{}",
            d.reason()
        );
        assert!(
            d.random && d.reason().contains("on a random database"),
            "{}",
            d.reason()
        );
    }
}
