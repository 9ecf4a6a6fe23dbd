//! Option `plausible_dates`: a difference that needs a date column holding text that is no date does not count, as no real database holds one. The date columns of a pair: those declared `DATE`, `DATETIME` or `TIMESTAMP`, and those either query reads as a date (the argument of `strftime`, `date`, `datetime`, `julianday`, `unixepoch`, `time`, or compared with a date-shaped literal: `d < '2012-01-01'`, `d LIKE '2012%'`, `SUBSTR(d, 1, 4) = '2012'`).
//!
//! `SELECT count(*) FROM event WHERE SUBSTR(event_date, 1, 4) = '2020'` against `... WHERE
//! strftime('%Y', event_date) = '2020'` over `event_date TEXT`: they differ on `'2020x'`, which
//! is no date; on dates they agree. When the verdict's counterexample holds such a text in a date
//! column, the pair is decided again on databases whose date columns hold dates
//! (`YYYY-MM-DD`, as a declared `DATE` column does in every verdict): equivalent there, the
//! verdict is equivalent with the leniency named; a difference there is the verdict.

use std::sync::Arc;

use super::decision::{Decision, Verdict};
use crate::exec::instance::Database;
use crate::exec::leniency::Leniency;
use crate::parseval::search::plan_facts::visit_all;
use crate::parseval::search::text_domains::dates_around;
use crate::plan::{Expr, Literal, Op, QueryPlan};
use crate::schema::{Affinity, Schema};
use rusqlite::types::Value;

/// The functions whose argument a query reads as a date.
const DATE_FUNCTIONS: [&str; 6] = [
    "strftime",
    "date",
    "datetime",
    "julianday",
    "unixepoch",
    "time",
];

/// For each schema column, whether it is a date column of the pair (see the module doc) that
/// either query reads.
pub fn date_columns<'a>(
    schema: &Schema,
    plans: impl IntoIterator<Item = &'a QueryPlan>,
) -> Vec<bool> {
    let declared: Vec<bool> = schema
        .columns
        .iter()
        .map(|c| {
            let ty = c.ty.trim().to_ascii_uppercase();
            c.holds_dates() || ty == "DATETIME" || ty.starts_with("TIMESTAMP")
        })
        .collect();
    // a number column read as a date holds numbers (a Julian day, a year)
    let numbers: Vec<bool> = schema
        .columns
        .iter()
        .map(|c| matches!(c.affinity(), Affinity::Integer | Affinity::Real))
        .collect();
    // only the columns the queries read: the others hold fixed fillers in every database
    let mut dates = vec![false; schema.columns.len()];
    for q in plans {
        let index = |c| {
            let origin = q.columns.meta(c).origin.as_ref();
            origin.and_then(|(t, c)| schema.column_index(schema.table_index(t)?, c))
        };
        visit_all(&q.root, &mut |p| {
            for e in p.exprs() {
                e.for_each_column(&mut |c| {
                    if let Some(i) = index(c).filter(|&i| declared.get(i) == Some(&true)) {
                        dates[i] = true;
                    }
                });
                read_as_dates(e, &mut |c| {
                    if let Some(i) = index(c).filter(|&i| numbers.get(i) == Some(&false)) {
                        dates[i] = true;
                    }
                });
            }
        });
    }
    dates
}

/// A literal that names a year, a month, a day or a date-time (a LIKE pattern without its
/// wildcards).
fn date_literal(e: &Expr) -> bool {
    match e {
        Expr::Literal(Literal::Text(t)) => {
            !dates_around(t.trim_end_matches(['%', '_', '-'])).is_empty()
        }
        _ => false,
    }
}

/// Calls `f` for each column `e` reads as a date (subqueries are visited as plans).
fn read_as_dates(e: &Expr, f: &mut dyn FnMut(crate::plan::ColumnId)) {
    let Expr::Call(op, args) = e else {
        return;
    };
    let compared = matches!(
        op,
        Op::Eq | Op::NotEq | Op::Lt | Op::LtEq | Op::Gt | Op::GtEq | Op::Between | Op::Like
    ) && args.iter().skip(1).any(date_literal);
    match op {
        Op::Function(name) if DATE_FUNCTIONS.contains(&name.as_str()) => {
            // strftime's first argument is the format
            let skip = usize::from(name == "strftime");
            for a in args.iter().skip(skip).take(1) {
                if let Expr::Column(c) = a {
                    f(*c);
                }
            }
        }
        _ if compared => match args.first() {
            Some(Expr::Column(c)) => f(*c),
            // the year or month of a date by position: `SUBSTR(d, 1, 4) = '2012'`
            Some(Expr::Call(Op::Function(name), inner))
                if matches!(name.as_str(), "substr" | "substring") =>
            {
                if let [Expr::Column(c), Expr::Literal(Literal::Integer(1)), ..] = &inner[..] {
                    f(*c);
                }
            }
            _ => {}
        },
        _ => {}
    }
    for a in args {
        read_as_dates(a, f);
    }
}

/// A date `YYYY-MM-DD`, optionally followed by a time (` HH:MM`, `:SS`, a fraction), as SQLite's
/// date functions read it.
pub fn well_formed_date(text: &str) -> bool {
    let b = text.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let number = |r: std::ops::Range<usize>| text.get(r).and_then(|s| s.parse::<u32>().ok());
    let date = b.len() >= 10
        && digits(0..4)
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(5..7)
        && digits(8..10)
        && number(5..7).is_some_and(|m| (1..=12).contains(&m))
        && number(8..10).is_some_and(|d| (1..=31).contains(&d));
    if !date {
        return false;
    }
    let time = &b[10..];
    if time.is_empty() {
        return true;
    }
    let clock = |t: &[u8]| {
        t.len() >= 6
            && (t[0] == b' ' || t[0] == b'T')
            && t[1..3].iter().all(u8::is_ascii_digit)
            && t[3] == b':'
            && t[4..6].iter().all(u8::is_ascii_digit)
    };
    if !clock(time) {
        return false;
    }
    let rest = &time[6..];
    match rest {
        [] => true,
        [b':', s1, s2, fraction @ ..] => {
            s1.is_ascii_digit()
                && s2.is_ascii_digit()
                && match fraction {
                    [] => true,
                    [b'.', digits @ ..] => {
                        !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
                    }
                    _ => false,
                }
        }
        _ => false,
    }
}

/// True when `db` holds, in a column `dates` marks, a value that is no well-formed date (NULL
/// aside).
pub fn holds_malformed_date(schema: &Schema, db: &Database, dates: &[bool]) -> bool {
    db.tables.iter().any(|t| {
        let Some(table) = schema.tables.get(t.table) else {
            return false;
        };
        t.rows.iter().any(|row| {
            row.iter().zip(&table.columns).any(|(v, &c)| {
                dates.get(c) == Some(&true)
                    && match v {
                        Value::Null => false,
                        Value::Text(t) => !well_formed_date(t),
                        _ => true,
                    }
            })
        })
    })
}

/// `schema` with the columns `dates` marks holding dates, as a declared `DATE` column does
/// ([`crate::schema::Column::holds_dates`]); None when it changes nothing.
pub fn with_dates(schema: &Schema, dates: &[bool]) -> Option<Schema> {
    let mut out = schema.clone();
    let mut changed = false;
    for (c, &d) in out.columns.iter_mut().zip(dates) {
        if d && !c.holds_dates() {
            c.plausible_dates = true;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The verdict `decide` gives on `schema` (keyed by `schema_text`, None: by the model), and,
/// when its counterexample holds text that is no date in a date column of the queries (planned
/// by `plans` only then), the verdict on `schema` with those columns holding dates: equivalent
/// there, with the leniency `plausible_dates` named; a difference there stands; undecided
/// there, the first verdict stays.
pub fn decide_plausibly(
    schema: Arc<Schema>,
    schema_text: Option<&str>,
    plans: impl FnOnce() -> Vec<QueryPlan>,
    decide: impl Fn(Arc<Schema>, Option<&str>) -> Decision,
) -> Decision {
    let first = decide(schema.clone(), schema_text);
    let Verdict::Different(c) = &first.verdict else {
        return first;
    };
    let dates = date_columns(&schema, &plans());
    if !holds_malformed_date(&schema, &c.db, &dates) {
        return first;
    }
    let Some(marked) = with_dates(&schema, &dates) else {
        return first;
    };
    // the gold's suite of the marked schema is another suite (the inferred model's key holds
    // the marks already)
    let key = schema_text.map(|t| format!("{t}\u{1}plausible_dates {dates:?}"));
    let mut second = decide(Arc::new(marked), key.as_deref());
    match &second.verdict {
        Verdict::Unknown(_) => return first,
        Verdict::Equivalent => {
            second.leniency.push(Leniency::PlausibleDates);
            second.leniency.sort();
            second.leniency.dedup();
        }
        Verdict::Different(_) => {}
    }
    second.work += first.work;
    second.elapsed += first.elapsed;
    second
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::instance::TableRows;

    #[test]
    fn date_columns_are_declared_or_read_as_dates() {
        let s = Schema::from_ddl(
            "CREATE TABLE event (id INTEGER PRIMARY KEY, event_date TEXT, name TEXT, \
             created DATETIME, note TEXT, status TEXT, born TEXT, start TEXT, code TEXT, \
             updated DATETIME)",
        )
        .unwrap();
        let plan = |sql: &str| crate::plan::plan_sql(sql, &s).unwrap();
        let q = plan(
            "SELECT name, created FROM event WHERE strftime('%Y', event_date) = '2020' \
             AND note < '2019-10-01' AND status = 'Open' AND born LIKE '1990%' \
             AND SUBSTR(start, 1, 4) = '2021' AND SUBSTR(code, 2, 4) = '2021'",
        );
        let dates = date_columns(&s, [&q]);
        let index = |name: &str| s.column_index(0, name).unwrap();
        for (name, want) in [
            ("event_date", true),
            ("created", true),
            ("note", true),
            ("born", true),
            ("start", true),
            ("code", false),
            ("updated", false),
            ("name", false),
            ("status", false),
            ("id", false),
        ] {
            assert_eq!(dates[index(name)], want, "{name}");
        }
    }

    #[test]
    fn dates_and_date_times_are_well_formed_other_text_is_not() {
        for good in [
            "2020-03-10",
            "2020-03-10 12:00:00",
            "2010-07-19 19:12:12.0",
            "2020-03-10T12:00",
        ] {
            assert!(well_formed_date(good), "{good}");
        }
        for bad in [
            "2020",
            "2020x",
            "2020-13-01",
            "v1",
            "2020-03-10x",
            "2020-03-10 12",
            "",
        ] {
            assert!(!well_formed_date(bad), "{bad}");
        }
        let s =
            Schema::from_ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, d TEXT, n TEXT)").unwrap();
        let db = |d: &str, n: &str| Database {
            tables: vec![TableRows {
                table: 0,
                rows: vec![vec![
                    Value::Integer(1),
                    Value::Text(d.into()),
                    Value::Text(n.into()),
                ]],
            }],
        };
        let dates = vec![false, true, false];
        assert!(holds_malformed_date(&s, &db("2020x", "x"), &dates));
        assert!(!holds_malformed_date(&s, &db("2020-01-01", "x"), &dates));
        let marked = with_dates(&s, &dates).unwrap();
        assert!(marked.columns[1].holds_dates() && !marked.columns[2].holds_dates());
        assert!(with_dates(&marked, &dates).is_none());
    }
}
