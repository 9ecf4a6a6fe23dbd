//! Functions the engine does not know, read as uninterpreted: a call of a name that is neither a
//! SQLite built-in, nor a function sqlsim adds to SQLite (`exec::functions`), nor a known
//! aggregate is a deterministic function of its arguments whose values each database chooses.
//!
//! On every database a verdict runs, each such name is registered as a SQLite function whose value
//! on some arguments is drawn from a small domain (0, 1 and the queries' literals) by a hash of the
//! database's seed, the name and the arguments: equal arguments give equal values, the gold and the
//! prediction see the same function on one database, and different databases try different
//! functions. The calls the queries make are logged, so that a counterexample can show the table
//! of values it assumed (docs/semantics.md, "Functions the engine does not know").

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;

use crate::exec::instance::Database;
use crate::parseval::search::plan_facts::visit_all;
use crate::plan::{Expr, Op, QueryPlan};

/// Aggregates of other engines that SQLite lacks: a call of one stays unknown (SQLite fails it),
/// since a scalar reading would change what the query means.
const AGGREGATES: &[&str] = &[
    "approx_count_distinct",
    "approx_distinct",
    "arg_max",
    "arg_min",
    "argmax",
    "argmin",
    "array_agg",
    "avg_distinct",
    "bit_and",
    "bit_or",
    "bit_xor",
    "bool_and",
    "bool_or",
    "collect_list",
    "collect_set",
    "corr",
    "count_if",
    "countif",
    "covar_pop",
    "covar_samp",
    "every",
    "first",
    "geomean",
    "histogram",
    "json_agg",
    "jsonb_agg",
    "kurtosis",
    "last",
    "list",
    "listagg",
    "max_by",
    "median",
    "min_by",
    "mode",
    "percentile",
    "percentile_cont",
    "percentile_disc",
    "product",
    "quantile",
    "quantile_cont",
    "quantile_disc",
    "regr_avgx",
    "regr_avgy",
    "regr_count",
    "regr_intercept",
    "regr_r2",
    "regr_slope",
    "regr_sxx",
    "regr_sxy",
    "regr_syy",
    "skewness",
    "stddev",
    "stddev_pop",
    "stddev_samp",
    "stdev",
    "var_pop",
    "var_samp",
    "variance",
    "xmlagg",
];

/// The most values the domain takes from the queries' literals.
const MAX_LITERALS: usize = 6;
/// The most calls a table keeps (a counterexample's database holds a few rows).
const MAX_LOGGED: usize = 1_000;

/// The names SQLite knows on a verdict's connections: its built-ins and `exec::functions`'.
fn sqlite_names() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let read = || -> rusqlite::Result<HashSet<String>> {
            let conn = Connection::open_in_memory()?;
            crate::exec::functions::register(&conn)?;
            let mut stmt = conn.prepare("SELECT name FROM pragma_function_list")?;
            let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
            names.map(|n| n.map(|n| n.to_lowercase())).collect()
        };
        read().unwrap_or_default()
    })
}

/// One value of an uninterpreted function's table: `name(args) = value`.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionValue {
    pub name: String,
    pub args: Vec<Value>,
    pub value: Value,
}

impl FunctionValue {
    /// `B1(1) = 0`, values as SQL literals, the name upper case (as `sql_plan` prints it).
    pub fn text(&self) -> String {
        let args: Vec<String> = self.args.iter().map(literal).collect();
        format!(
            "{}({}) = {}",
            self.name.to_uppercase(),
            args.join(", "),
            literal(&self.value)
        )
    }
}

/// `v` as a SQL literal.
pub fn literal(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => format!("{r:?}"),
        Value::Text(t) => format!("'{}'", t.replace('\'', "''")),
        Value::Blob(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02X}")).collect();
            format!("X'{hex}'")
        }
    }
}

/// The functions a pair calls that the engine does not know, and the values they may take.
#[derive(Debug, Clone, Default)]
pub struct Uninterpreted {
    /// Lower-case names, sorted.
    names: Arc<Vec<String>>,
    domain: Arc<Vec<Value>>,
}

impl Uninterpreted {
    /// The functions `plans` call that SQLite and sqlsim lack, that are no known aggregate and
    /// that the queries' `texts` never call with DISTINCT (an aggregate's spelling, which SQLite
    /// would ignore for a scalar function); their values range over 0, 1 and the first of the
    /// queries' `literals` (numbers as numbers).
    pub fn of<'p>(
        plans: impl IntoIterator<Item = &'p QueryPlan>,
        texts: &[&str],
        literals: &[String],
    ) -> Self {
        fn walk(e: &Expr, out: &mut BTreeSet<String>) {
            match e {
                Expr::Call(op, args) => {
                    if let Op::Function(name) = op {
                        out.insert(name.to_lowercase());
                    }
                    args.iter().for_each(|a| walk(a, out));
                }
                Expr::Subquery(s) => s.operands.iter().for_each(|o| walk(o, out)),
                _ => {}
            }
        }
        let mut called = BTreeSet::new();
        for q in plans {
            visit_all(&q.root, &mut |p| {
                p.exprs().into_iter().for_each(|e| walk(e, &mut called))
            });
        }
        let known = sqlite_names();
        let names: Vec<String> = called
            .into_iter()
            // the planner spells COLLATE as a call collate_<name>, which SQLite never sees
            .filter(|n| !n.starts_with("collate_"))
            .filter(|n| !known.contains(n) && !AGGREGATES.contains(&n.as_str()))
            .filter(|n| !texts.iter().any(|t| called_with_distinct(t, n)))
            .collect();
        let mut domain = vec![Value::Integer(0), Value::Integer(1)];
        for l in literals.iter().take(MAX_LITERALS) {
            let v = match (l.parse::<i64>(), l.parse::<f64>()) {
                (Ok(i), _) => Value::Integer(i),
                (_, Ok(r)) if r.is_finite() => Value::Real(r),
                _ => Value::Text(l.clone()),
            };
            if !domain.contains(&v) {
                domain.push(v);
            }
        }
        Uninterpreted {
            names: Arc::new(names),
            domain: Arc::new(domain),
        }
    }

    /// The functions of a pair ([`Uninterpreted::of`]) where both queries call the same ones, else
    /// none: a function only one query calls is a real function of some engine that the other
    /// query computes with functions SQLite knows (MySQL's `DAYOFYEAR(d)` against
    /// `strftime('%j', d)`), and no value table stands for it; SQLite then fails the query that
    /// calls it and the pair stays undecided, as without interpretation. A prediction that cannot
    /// be planned keeps the gold's functions.
    pub fn of_pair(
        (gold_plan, pred_plan): (&QueryPlan, Option<&QueryPlan>),
        [gold, pred]: [&str; 2],
        literals: &[String],
    ) -> Self {
        if let Some(p) = pred_plan {
            let gold_calls = Uninterpreted::of([gold_plan], &[gold], literals);
            let pred_calls = Uninterpreted::of([p], &[pred], literals);
            if gold_calls.names() != pred_calls.names() {
                return Uninterpreted::default();
            }
        }
        Uninterpreted::of(
            [Some(gold_plan), pred_plan].into_iter().flatten(),
            &[gold, pred],
            literals,
        )
    }

    /// No function to interpret.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names, lower case, sorted.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Registers every function on `conn` under the interpretation `seed` until the returned
    /// guard is dropped (which removes them again: connections are reused for other pairs).
    pub fn install<'c>(&self, conn: &'c Connection, seed: u64) -> Installed<'c> {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut installed = Installed {
            conn,
            names: Vec::new(),
            log: Arc::clone(&log),
        };
        let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
        for name in self.names.iter() {
            let (domain, log, fname) = (Arc::clone(&self.domain), Arc::clone(&log), name.clone());
            let registered = conn.create_scalar_function(name.as_str(), -1, flags, move |ctx| {
                let args: Vec<Value> = (0..ctx.len()).map(|i| owned(ctx.get_raw(i))).collect();
                let value = pick(&domain, seed, &fname, &args);
                if let Ok(mut log) = log.lock() {
                    let seen = log
                        .iter()
                        .any(|f: &FunctionValue| f.name == fname && f.args == args);
                    if !seen && log.len() < MAX_LOGGED {
                        log.push(FunctionValue {
                            name: fname.clone(),
                            args,
                            value: value.clone(),
                        });
                    }
                }
                Ok(value)
            });
            // a name SQLite refuses stays unregistered: the query fails as it did
            if registered.is_ok() {
                installed.names.push(name.clone());
            }
        }
        installed
    }
}

/// Functions registered on a connection, removed when dropped; `table` is what they returned.
pub struct Installed<'c> {
    conn: &'c Connection,
    names: Vec<String>,
    log: Arc<Mutex<Vec<FunctionValue>>>,
}

impl Installed<'_> {
    /// Every call made so far, in call order (repeated arguments once).
    pub fn table(&self) -> Vec<FunctionValue> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

impl Drop for Installed<'_> {
    fn drop(&mut self) {
        for name in &self.names {
            let _ = self.conn.remove_function(name.as_str(), -1);
        }
    }
}

/// Whether `text` calls `name` (lower case) with a DISTINCT argument: `name ( DISTINCT`.
fn called_with_distinct(text: &str, name: &str) -> bool {
    let lower = text.to_lowercase();
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    lower.match_indices(name).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(ident) {
            return false;
        }
        let rest = lower[at + name.len()..].trim_start();
        let Some(args) = rest.strip_prefix('(') else {
            return false;
        };
        let args = args.trim_start();
        args.strip_prefix("distinct")
            .is_some_and(|after| !after.starts_with(ident))
    })
}

/// `v` owned; a REAL with an integer value as that INTEGER (SQLite compares them equal, so they
/// are one argument of the function).
fn owned(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Value::Integer(r as i64),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// FNV-1a, 64 bits: a hash fixed across builds and platforms.
struct Fnv(u64);

impl Fnv {
    fn new(seed: u64) -> Self {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.bytes(&seed.to_le_bytes());
        h
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// One value, tagged by its class; a REAL with an integer value hashes as that INTEGER (SQLite
    /// compares them equal).
    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.bytes(b"n"),
            Value::Integer(i) => {
                self.bytes(b"i");
                self.bytes(&i.to_le_bytes());
            }
            Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => {
                self.value(&Value::Integer(*r as i64))
            }
            Value::Real(r) => {
                self.bytes(b"r");
                self.bytes(&r.to_bits().to_le_bytes());
            }
            Value::Text(t) => {
                self.bytes(b"t");
                self.bytes(&(t.len() as u64).to_le_bytes());
                self.bytes(t.as_bytes());
            }
            Value::Blob(b) => {
                self.bytes(b"b");
                self.bytes(&(b.len() as u64).to_le_bytes());
                self.bytes(b);
            }
        }
    }

    /// The hash, mixed (splitmix64's finalizer) so that its low bits vary.
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The value of `name(args)` under the interpretation `seed`.
fn pick(domain: &[Value], seed: u64, name: &str, args: &[Value]) -> Value {
    let mut h = Fnv::new(seed);
    h.bytes(name.as_bytes());
    h.bytes(&(args.len() as u64).to_le_bytes());
    args.iter().for_each(|a| h.value(a));
    let at = (h.finish() % domain.len().max(1) as u64) as usize;
    domain.get(at).cloned().unwrap_or(Value::Null)
}

/// The interpretation a database gets: a hash of its rows, so that a fresh copy of it (a
/// counterexample is re-checked) gets the same functions.
pub fn seed_of(db: &Database) -> u64 {
    let mut h = Fnv::new(0x5eed);
    for t in &db.tables {
        h.bytes(&(t.table as u64).to_le_bytes());
        for row in &t.rows {
            h.bytes(b"|");
            row.iter().for_each(|v| h.value(v));
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::plan_sql;
    use crate::schema::Schema;

    fn uninterpreted(queries: &[&str]) -> Uninterpreted {
        let s = Schema::from_ddl("CREATE TABLE t (x INT, y INT, c TEXT)").unwrap();
        let plans: Vec<QueryPlan> = queries.iter().map(|q| plan_sql(q, &s).unwrap()).collect();
        Uninterpreted::of(&plans, queries, &["SECURITY".to_string(), "3".to_string()])
    }

    #[test]
    fn only_names_sqlite_and_sqlsim_lack_and_no_aggregate() {
        let u = uninterpreted(&[
            "SELECT F(x, y), upper(c), concat(c, c) FROM t WHERE B1(x) AND c = 'a' COLLATE NOCASE",
            "SELECT median(x) FROM t",
        ]);
        assert_eq!(u.names(), ["b1", "f"]);
        assert!(uninterpreted(&["SELECT abs(x), octet_length(c) FROM t"]).is_empty());
        assert_eq!(
            *u.domain,
            [
                Value::Integer(0),
                Value::Integer(1),
                Value::Text("SECURITY".into()),
                Value::Integer(3)
            ]
        );
    }

    #[test]
    fn equal_arguments_equal_values_and_the_table_is_logged() {
        let u = uninterpreted(&["SELECT F(x, y) FROM t"]);
        let conn = Connection::open_in_memory().unwrap();
        let run = |seed: u64| {
            let f = u.install(&conn, seed);
            let v: Vec<Value> = conn
                .prepare("SELECT f(1, 2), F(1.0, 2), f(2, 1), f(1, 2) FROM (SELECT 1)")
                .unwrap()
                .query_row([], |r| (0..4).map(|i| r.get(i)).collect())
                .unwrap();
            (v, f.table())
        };
        let (v, table) = run(7);
        assert_eq!(v[0], v[1]);
        assert_eq!(v[0], v[3]);
        assert_eq!(table.len(), 2, "{table:?}");
        assert_eq!(table[0].args, [Value::Integer(1), Value::Integer(2)]);
        assert_eq!(table[0].value, v[0]);
        assert!(table[0].text().starts_with("F(1, 2) = "));
        // the same seed, the same function; removed once the guard is dropped
        assert_eq!(run(7).0, v);
        assert!(conn.prepare("SELECT f(1, 2)").is_err());
        // across seeds both truth values occur
        let values: BTreeSet<i64> = (0..20)
            .map(|s| match run(s).0[0] {
                Value::Integer(i) => i,
                _ => 9,
            })
            .collect();
        assert!(values.contains(&0) && values.contains(&1), "{values:?}");
    }

    #[test]
    fn aggregates_and_window_calls_of_unknown_names_stay_unknown() {
        let u = uninterpreted(&["SELECT F(x) FROM t"]);
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (x INT)").unwrap();
        let _f = u.install(&conn, 1);
        assert!(conn.prepare("SELECT f(x) FROM t").is_ok());
        assert!(conn.prepare("SELECT f(x) OVER () FROM t").is_err());
        let distinct =
            uninterpreted(&["SELECT F(DISTINCT x), G ( distinct x), H(x) AS distinctive FROM t"]);
        assert_eq!(distinct.names(), ["h"]);
    }

    #[test]
    fn a_database_seeds_its_interpretation() {
        use crate::exec::instance::TableRows;
        let db = |x: i64| Database {
            tables: vec![TableRows {
                table: 0,
                rows: vec![vec![Value::Integer(x)]],
            }],
        };
        assert_eq!(seed_of(&db(1)), seed_of(&db(1)));
        assert_ne!(seed_of(&db(1)), seed_of(&db(2)));
    }
}
