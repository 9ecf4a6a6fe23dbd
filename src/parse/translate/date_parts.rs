//! Rule `date_parts`: a part of a date or time as a number: `EXTRACT(field FROM x)`,
//! `DATE_PART('field', x)` and the functions `YEAR(x)`, `MONTH(x)`, `DAYOFWEEK(x)`, ...
//!
//! ```sql
//! -- before (postgres)
//! SELECT EXTRACT(YEAR FROM d), DATE_PART('month', d), EXTRACT(DOW FROM d) FROM t
//! -- after
//! SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%m', d) AS INTEGER),
//!        CAST(strftime('%w', d) AS INTEGER) FROM t
//! -- before (mysql)
//! SELECT YEAR(d), DAYOFWEEK(d), QUARTER(d) FROM t
//! -- after
//! SELECT CAST(strftime('%Y', d) AS INTEGER), CAST(strftime('%w', d) AS INTEGER) + 1,
//!        (CAST(strftime('%m', d) AS INTEGER) + 2) / 3 FROM t
//! ```
//!
//! Every engine gives a part as a number, so it is `CAST(strftime(..) AS INTEGER)`, never the
//! text `strftime` gives (sqlglot leaves `EXTRACT` and `YEAR()` as they are, which SQLite cannot
//! run). Numberings follow the dialect: the day of the week is 0 (Sunday) to 6 in PostgreSQL,
//! DuckDB and Snowflake, 1 (Sunday) to 7 in MySQL's `DAYOFWEEK`, BigQuery and standard SQL;
//! MySQL's `WEEKDAY` is 0 (Monday) to 6. PostgreSQL's `SECOND` keeps the fraction of a second
//! and its `EPOCH` too (as DuckDB's); the other engines' seconds are whole. A week is the ISO
//! week in PostgreSQL and DuckDB, computed from the ISO week's Thursday; BigQuery's `WEEK` and
//! MySQL's `WEEK(x)` count weeks starting on Sunday (`WEEK(MONDAY)` and MySQL's mode 5: SQLite's
//! `%W`; MySQL's mode 3 is the ISO week).
//! `EXTRACT(YEAR FROM AGE(a, b))` and `EXTRACT(MONTH FROM AGE(a, b))` are the whole years and
//! months from `b` to `a`; `EXTRACT(EPOCH FROM a - b)` the seconds between two timestamps and
//! `EXTRACT(DAY FROM a - b)` the whole days. `YEAR()` and the like in PostgreSQL and BigQuery,
//! which have no such functions, are left alone (SQLite has none either).
//!
//! No faithful translation: fractions of a second below the millisecond (SQLite keeps
//! milliseconds), time zones, Snowflake's `WEEK` (it depends on session parameters), MySQL's
//! `WEEK(x, mode)` for a mode other than 0, 3 and 5, and other parts of an `AGE` or a
//! difference.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DataType, DateTimeField, Expr, Statement, VisitMut, VisitorMut,
};

use super::copies::copy;
use super::temporal::{
    cast, divide, epoch_seconds, epoch_with_fraction, function_name, int_part, integer,
    integer_value, iso_week, iso_weekday, iso_year, minus, modulo, number, plain_args, plus,
    string, times, unit_arg, unit_named, unit_of_field, weekday_from_sunday, whole_months, Unit,
};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateParts;

/// Seconds with their fraction (milliseconds in SQLite).
fn fractional_seconds(x: Expr) -> Expr {
    cast(call("strftime", vec![string("%f"), x]), DataType::Real)
}

/// Weeks of the year starting on Sunday, 0 before the first Sunday (BigQuery's `WEEK`, MySQL's
/// `WEEK(x)` in its default mode 0).
fn sunday_weeks(x: Expr) -> Expr {
    divide(
        minus(
            plus(int_part("%j", copy(&x)), number(6)),
            weekday_from_sunday(x),
        ),
        number(7),
    )
}

/// The part `unit` of `x`, as `dialect` numbers it, or None where it has no faithful
/// translation.
fn part(unit: Unit, x: Expr, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let year = |x: Expr| int_part("%Y", x);
    Some(match unit {
        Unit::Year => year(x),
        Unit::Month => int_part("%m", x),
        Unit::Day => int_part("%d", x),
        Unit::Hour => int_part("%H", x),
        Unit::Minute => int_part("%M", x),
        Unit::Second if dialect == Postgres => fractional_seconds(x),
        Unit::Second => int_part("%S", x),
        Unit::Quarter => divide(plus(int_part("%m", x), number(2)), number(3)),
        Unit::DayOfYear => int_part("%j", x),
        Unit::DayOfWeek => match dialect {
            Postgres | Duckdb | Snowflake => weekday_from_sunday(x),
            Mysql | Bigquery | Ansi => plus(weekday_from_sunday(x), number(1)),
            Sqlite => return None,
        },
        Unit::IsoDayOfWeek => iso_weekday(x),
        Unit::Week => match dialect {
            Postgres | Duckdb => iso_week(x),
            Bigquery | Mysql => sunday_weeks(x),
            _ => return None,
        },
        Unit::IsoWeek => iso_week(x),
        Unit::IsoYear => iso_year(x),
        Unit::Decade if matches!(dialect, Postgres | Duckdb) => divide(year(x), number(10)),
        Unit::Century if matches!(dialect, Postgres | Duckdb) => {
            divide(plus(year(x), number(99)), number(100))
        }
        Unit::Millennium if matches!(dialect, Postgres | Duckdb) => {
            divide(plus(year(x), number(999)), number(1000))
        }
        Unit::Epoch => match dialect {
            Postgres | Duckdb => epoch_with_fraction(x),
            Snowflake => epoch_seconds(x),
            _ => return None,
        },
        Unit::Millisecond => match dialect {
            Postgres => times(fractional_seconds(x), number(1000)),
            Duckdb => integer(times(fractional_seconds(x), number(1000))),
            _ => return None,
        },
        Unit::Julian if dialect == Postgres => plus(
            call("julianday", vec![x]),
            Expr::value(sqlparser::ast::Value::Number("0.5".into(), false)),
        ),
        Unit::Date => call("date", vec![x]),
        Unit::Time => call("time", vec![x]),
        Unit::Datetime => call("datetime", vec![x]),
        _ => return None,
    })
}

/// The unit of an `EXTRACT` field, where BigQuery's `WEEK(MONDAY)` is SQLite's `%W`.
enum Field {
    Unit(Unit),
    MondayWeeks,
    SundayWeeks,
    Unknown,
}

fn field(f: &DateTimeField) -> Field {
    match f {
        DateTimeField::Week(Some(day)) => match day.value.to_ascii_uppercase().as_str() {
            "MONDAY" => Field::MondayWeeks,
            "SUNDAY" => Field::SundayWeeks,
            _ => Field::Unknown,
        },
        other => unit_of_field(other).map_or(Field::Unknown, Field::Unit),
    }
}

/// `EXTRACT(unit FROM arg)` where `arg` is an interval: an `AGE(..)` or a difference of
/// timestamps (PostgreSQL, DuckDB). None when `arg` is neither.
fn part_of_interval(unit: Unit, arg: &Expr, dialect: Dialect) -> Option<Expr> {
    if !matches!(dialect, Dialect::Postgres | Dialect::Duckdb) {
        return None;
    }
    let name = |u: Unit| format!("EXTRACT({u:?} FROM interval)").to_ascii_uppercase();
    match arg {
        Expr::Function(f) if function_name(f) == "AGE" => {
            let args = plain_args(f)?;
            let (to, from) = match args.as_slice() {
                [x] => (keyword_current_date(), x.clone()),
                [a, b] => (a.clone(), b.clone()),
                _ => return None,
            };
            Some(match unit {
                Unit::Year => divide(whole_months(from, to), number(12)),
                Unit::Month => modulo(whole_months(from, to), number(12)),
                _ => untranslated(&name(unit), dialect, args),
            })
        }
        // a difference of two timestamps, not a timestamp minus an interval or a number of days
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Minus,
            right,
        } if !is_interval_or_number(left) && !is_interval_or_number(right) => Some(match unit {
            Unit::Epoch => minus(
                epoch_with_fraction((**left).clone()),
                epoch_with_fraction((**right).clone()),
            ),
            Unit::Day => integer(minus(
                call("julianday", vec![(**left).clone()]),
                call("julianday", vec![(**right).clone()]),
            )),
            _ => untranslated(
                &name(unit),
                dialect,
                vec![(**left).clone(), (**right).clone()],
            ),
        }),
        Expr::Nested(inner) => part_of_interval(unit, inner, dialect),
        _ => None,
    }
}

/// True for an interval or a number, which subtracted from a date gives a date.
fn is_interval_or_number(e: &Expr) -> bool {
    match e {
        Expr::Interval(_) => true,
        Expr::Value(v) => matches!(v.value, sqlparser::ast::Value::Number(..)),
        Expr::Nested(inner) => is_interval_or_number(inner),
        _ => false,
    }
}

/// `CURRENT_DATE`, the date `AGE(x)` counts from.
fn keyword_current_date() -> Expr {
    let mut e = call("CURRENT_DATE", vec![]);
    if let Expr::Function(f) = &mut e {
        f.args = sqlparser::ast::FunctionArguments::None;
    }
    e
}

/// `EXTRACT(field FROM x)` and `DATE_PART(field, x)`.
fn extract(f: Field, label: String, x: Expr, dialect: Dialect) -> Expr {
    let translated = match f {
        Field::Unit(unit) => {
            part_of_interval(unit, &x, dialect).or_else(|| part(unit, x.clone(), dialect))
        }
        Field::MondayWeeks => Some(int_part("%W", x.clone())),
        Field::SundayWeeks => Some(sunday_weeks(x.clone())),
        Field::Unknown => None,
    };
    translated.unwrap_or_else(|| untranslated(&label, dialect, vec![x]))
}

/// `EXTRACT(field FROM x)` as the SQLite reading takes it (`sqlite_reading`): the parts every
/// engine numbers alike (year, quarter, month, day, day of the year, hour, minute), and the parts
/// of an `AGE` or of a difference of timestamps as PostgreSQL, the one engine of those that has
/// them; any other field is untranslated ("EXTRACT(SECOND) in sqlite").
pub(crate) fn common_extract(f: &DateTimeField, x: Expr) -> Expr {
    let label = format!("EXTRACT({f})");
    let common = matches!(
        unit_of_field(f),
        Some(
            Unit::Year
                | Unit::Quarter
                | Unit::Month
                | Unit::Day
                | Unit::DayOfYear
                | Unit::Hour
                | Unit::Minute
        )
    );
    let interval = unit_of_field(f).and_then(|u| part_of_interval(u, &x, Dialect::Postgres));
    match (interval, common) {
        (Some(e), _) => e,
        (None, true) => extract(field(f), label, x, Dialect::Postgres),
        (None, false) => untranslated(&label, Dialect::Sqlite, vec![x]),
    }
}

/// The part a function of `dialect` named `name` gives (`YEAR`, `DAYOFWEEK`, ...), if it is one.
fn function_part(name: &str, dialect: Dialect) -> Option<Unit> {
    use Dialect::*;
    let has_part_functions = matches!(dialect, Mysql | Duckdb | Snowflake | Ansi);
    if !has_part_functions {
        return None;
    }
    Some(match name {
        "YEAR" => Unit::Year,
        "MONTH" => Unit::Month,
        "DAY" | "DAYOFMONTH" => Unit::Day,
        "HOUR" => Unit::Hour,
        "MINUTE" => Unit::Minute,
        "SECOND" => Unit::Second,
        "QUARTER" => Unit::Quarter,
        "DAYOFYEAR" => Unit::DayOfYear,
        "DAYOFWEEK" => Unit::DayOfWeek,
        "WEEKDAY" if dialect == Duckdb => Unit::DayOfWeek,
        "ISODOW" if dialect == Duckdb => Unit::IsoDayOfWeek,
        "DAYOFWEEKISO" if dialect == Snowflake => Unit::IsoDayOfWeek,
        "WEEKOFYEAR" if matches!(dialect, Mysql | Duckdb) => Unit::IsoWeek,
        "WEEK" if dialect == Duckdb => Unit::IsoWeek,
        "WEEKISO" if dialect == Snowflake => Unit::IsoWeek,
        "ISOYEAR" if dialect == Duckdb => Unit::IsoYear,
        "YEAROFWEEKISO" if dialect == Snowflake => Unit::IsoYear,
        "DECADE" | "CENTURY" | "MILLENNIUM" | "EPOCH" | "MILLISECOND" if dialect == Duckdb => {
            unit_named(name)?
        }
        "MICROSECOND" | "YEARWEEK" | "WEEK" | "WEEKOFYEAR" | "YEAROFWEEK" | "NANOSECOND"
            if dialect != Ansi || name == "MICROSECOND" =>
        {
            return Some(Unit::Nanosecond); // no faithful translation
        }
        _ => return None,
    })
}

/// The translation of `name(args)` of `dialect` when it is a part function, else None.
fn translate_function(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    if matches!(name, "DATE_PART" | "DATEPART")
        && matches!(
            dialect,
            Dialect::Postgres | Dialect::Duckdb | Dialect::Snowflake
        )
    {
        let [unit, x] = <[Expr; 2]>::try_from(args.clone()).ok()?;
        let label = format!("DATE_PART {unit}");
        return Some(match unit_arg(&unit) {
            Some(u) => extract(Field::Unit(u), label, x, dialect),
            None => untranslated(&label, dialect, args),
        });
    }
    // MySQL's WEEK(x) and WEEK(x, 0): weeks starting on Sunday, 0 before the first one;
    // mode 3: ISO weeks; mode 5: weeks starting on Monday, 0 before the first one
    if name == "WEEK" && dialect == Dialect::Mysql {
        return Some(match args.as_slice() {
            [x] => sunday_weeks(x.clone()),
            [x, mode] => match integer_value(mode) {
                Some(0) => sunday_weeks(x.clone()),
                Some(3) => iso_week(x.clone()),
                Some(5) => int_part("%W", x.clone()),
                _ => untranslated("WEEK with a mode", dialect, args),
            },
            _ => untranslated("WEEK with a mode", dialect, args),
        });
    }
    // MySQL's WEEKDAY: Monday 0 to Sunday 6
    if name == "WEEKDAY" && dialect == Dialect::Mysql {
        let [x] = <[Expr; 1]>::try_from(args).ok()?;
        return Some(modulo(plus(weekday_from_sunday(x), number(6)), number(7)));
    }
    let unit = function_part(name, dialect)?;
    let [x] = <[Expr; 1]>::try_from(args.clone()).ok()?;
    Some(match part(unit, x, dialect) {
        Some(e) if unit != Unit::Nanosecond => e,
        _ => untranslated(name, dialect, args),
    })
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Extract { field: f, expr, .. } => {
                let label = format!("EXTRACT({f})");
                *e = extract(field(f), label, (**expr).clone(), self.0);
            }
            Expr::Function(f) => {
                let name = function_name(f);
                if let Some(args) = plain_args(f) {
                    if let Some(new) = translate_function(&name, args, self.0) {
                        *e = new;
                    }
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateParts {
    fn name(&self) -> &'static str {
        "date_parts"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
