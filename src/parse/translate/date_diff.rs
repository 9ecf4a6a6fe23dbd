//! Rule `date_diff`: the number of units between two dates or times: MySQL's `DATEDIFF` and
//! `TIMESTAMPDIFF`, Snowflake's and DuckDB's `DATEDIFF`/`DATE_DIFF`, BigQuery's `DATE_DIFF`/
//! `DATETIME_DIFF`/`TIMESTAMP_DIFF`, standard SQL's `TIMESTAMPDIFF`, and PostgreSQL's and
//! DuckDB's `date - date`.
//!
//! ```sql
//! -- before (mysql)
//! SELECT DATEDIFF(a, b), TIMESTAMPDIFF(YEAR, b, a) FROM t
//! -- after
//! SELECT CAST(julianday(date(a)) - julianday(date(b)) AS INTEGER), <whole months from b to a> / 12 FROM t
//! -- before (snowflake)
//! SELECT DATEDIFF(year, a, b) FROM t
//! -- after
//! SELECT CAST(strftime('%Y', b) AS INTEGER) - CAST(strftime('%Y', a) AS INTEGER) FROM t
//! ```
//!
//! Engines count two ways. Boundaries crossed (Snowflake's `DATEDIFF`, DuckDB's `DATE_DIFF`,
//! BigQuery's `DATE_DIFF` and `DATETIME_DIFF`): from 2020-12-31 to 2021-01-01 is one year; the
//! count is a difference of years, months, days or truncated hours and minutes. Whole units
//! elapsed (MySQL's `TIMESTAMPDIFF`, standard SQL's, BigQuery's `TIMESTAMP_DIFF`, DuckDB's
//! `DATE_SUB`): whole months compare the day and time of the month, shorter units divide the
//! seconds between them, truncating towards zero. MySQL's `DATEDIFF` counts days between the
//! dates alone (sqlglot's `CAST(JULIANDAY(a) - JULIANDAY(b) AS INTEGER)` also counts the
//! times). Fractions of a second are not counted.
//!
//! PostgreSQL's and DuckDB's `date - date` is a number of days, and so is a date minus a column
//! or a column minus a date (the column is read as a date: SQLite's text does not say whether
//! it holds dates or numbers).
//!
//! No faithful translation: weeks counted by boundaries (they depend on the first day of the
//! week), DuckDB's `DATE_SUB` in months, quarters and years (a month ending on the last day of
//! a shorter month counts as whole), units below a second, `AGE` outside `EXTRACT(YEAR|MONTH FROM AGE(..))` (an
//! interval), and MySQL's `TIMEDIFF` (a time that may pass 24 hours).

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Statement, VisitMut, VisitorMut};

use super::copies::copy;
use super::temporal::{
    divide, epoch_seconds, function_name, int_part, integer, kind_of, minus, number, plain_args,
    plus, strftime, times, unit_arg, whole_months, Kind, Unit,
};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateDiff;

/// Whole days between the dates of `from` and `to`.
fn days(from: Expr, to: Expr) -> Expr {
    let julian = |x: Expr| match kind_of(&x) {
        Kind::Date => call("julianday", vec![x]),
        _ => call("julianday", vec![call("date", vec![x])]),
    };
    integer(minus(julian(to), julian(from)))
}

/// Seconds between `from` and `to`.
fn seconds(from: Expr, to: Expr) -> Expr {
    minus(epoch_seconds(to), epoch_seconds(from))
}

/// `unit` boundaries crossed from `from` to `to`.
fn boundaries(unit: Unit, from: Expr, to: Expr) -> Option<Expr> {
    let truncated = |format: &str, x: Expr| epoch_seconds(strftime(format, x, vec![]));
    let counted = |per: i64, unit_of: fn(Expr) -> Expr| {
        let ordinal = move |x: Expr| plus(times(int_part("%Y", copy(&x)), number(per)), unit_of(x));
        minus(ordinal(to.clone()), ordinal(from.clone()))
    };
    Some(match unit {
        Unit::Year => minus(int_part("%Y", to.clone()), int_part("%Y", from.clone())),
        Unit::Quarter => counted(4, |x| {
            divide(minus(int_part("%m", x), number(1)), number(3))
        }),
        Unit::Month => counted(12, |x| int_part("%m", x)),
        Unit::Day => days(from, to),
        Unit::Hour => divide(
            minus(
                truncated("%Y-%m-%d %H:00:00", to),
                truncated("%Y-%m-%d %H:00:00", from),
            ),
            number(3600),
        ),
        Unit::Minute => divide(
            minus(
                truncated("%Y-%m-%d %H:%M:00", to),
                truncated("%Y-%m-%d %H:%M:00", from),
            ),
            number(60),
        ),
        Unit::Second => seconds(from, to),
        _ => return None,
    })
}

/// Whole `unit`s elapsed from `from` to `to`, truncated towards zero.
fn elapsed(unit: Unit, from: Expr, to: Expr) -> Option<Expr> {
    let per = |n: i64| divide(seconds(from.clone(), to.clone()), number(n));
    Some(match unit {
        Unit::Year => divide(whole_months(from, to), number(12)),
        Unit::Quarter => divide(whole_months(from, to), number(3)),
        Unit::Month => whole_months(from, to),
        Unit::Week => per(604_800),
        Unit::Day => per(86_400),
        Unit::Hour => per(3_600),
        Unit::Minute => per(60),
        Unit::Second => seconds(from, to),
        _ => return None,
    })
}

/// The translation of `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let label = |unit: &Expr| format!("{name} in {unit}");
    let or_untranslated = |e: Option<Expr>, label: String| {
        e.unwrap_or_else(|| untranslated(&label, dialect, args.clone()))
    };
    Some(match (name, dialect, args.as_slice()) {
        ("DATEDIFF", Mysql, [a, b]) => days(b.clone(), a.clone()),
        ("TIMESTAMPDIFF", Mysql | Ansi, [unit, from, to]) => or_untranslated(
            unit_arg(unit).and_then(|u| elapsed(u, from.clone(), to.clone())),
            label(unit),
        ),
        ("DATEDIFF" | "TIMESTAMPDIFF" | "TIMEDIFF", Snowflake, [unit, from, to])
        | ("DATEDIFF" | "DATE_DIFF", Duckdb, [unit, from, to]) => {
            let counted = unit_arg(unit).and_then(|u| match (u, dialect) {
                (Unit::Week, Duckdb) => Some(divide(days(from.clone(), to.clone()), number(7))),
                _ => boundaries(u, from.clone(), to.clone()),
            });
            or_untranslated(counted, label(unit))
        }
        // DuckDB counts a month to the last day of a shorter month as whole (unlike MySQL)
        ("DATE_SUB", Duckdb, [unit, from, to]) => or_untranslated(
            unit_arg(unit)
                .filter(|u| !matches!(u, Unit::Year | Unit::Quarter | Unit::Month))
                .and_then(|u| elapsed(u, from.clone(), to.clone())),
            label(unit),
        ),
        ("DATE_DIFF" | "DATETIME_DIFF", Bigquery, [to, from, unit]) => or_untranslated(
            unit_arg(unit).and_then(|u| boundaries(u, from.clone(), to.clone())),
            label(unit),
        ),
        ("TIMESTAMP_DIFF", Bigquery, [to, from, unit]) => or_untranslated(
            unit_arg(unit)
                .filter(|u| !matches!(u, Unit::Year | Unit::Quarter | Unit::Month | Unit::Week))
                .and_then(|u| elapsed(u, from.clone(), to.clone())),
            label(unit),
        ),
        ("AGE", Postgres | Duckdb, _) => untranslated("AGE", dialect, args),
        ("TIMEDIFF", Mysql, _)
        | ("DATEDIFF" | "TIMESTAMPDIFF", Mysql, _)
        | ("DATEDIFF" | "TIMESTAMPDIFF" | "TIMEDIFF", Snowflake, _)
        | ("DATEDIFF" | "DATE_DIFF" | "DATE_SUB", Duckdb, _)
        | ("DATE_DIFF" | "DATETIME_DIFF" | "TIMESTAMP_DIFF", Bigquery, _) => {
            untranslated(name, dialect, args)
        }
        _ => return None,
    })
}

/// True when `left - right` is a difference of dates: both are dates, or one is a date and
/// the other a column.
fn date_and_date(left: &Expr, right: &Expr) -> bool {
    let column = |e: &Expr| matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_));
    match (kind_of(left), kind_of(right)) {
        (Kind::Date, Kind::Date) => true,
        (Kind::Date, Kind::Unknown) => column(right),
        (Kind::Unknown, Kind::Date) => column(left),
        _ => false,
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let new = match e {
            Expr::Function(f) => {
                let name = function_name(f);
                plain_args(f).and_then(|args| translate_call(&name, args, self.0))
            }
            // PostgreSQL and DuckDB: a date minus a date is a number of days; a column
            // subtracted from a date, or a date from a column, is read as a date
            Expr::BinaryOp {
                left,
                op: BinaryOperator::Minus,
                right,
            } if matches!(self.0, Dialect::Postgres | Dialect::Duckdb)
                && date_and_date(left, right) =>
            {
                Some(days((**right).clone(), (**left).clone()))
            }
            _ => None,
        };
        if let Some(new) = new {
            *e = new;
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateDiff {
    fn name(&self) -> &'static str {
        "date_diff"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
