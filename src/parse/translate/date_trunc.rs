//! Rule `date_trunc`: a date or time truncated to a unit (`DATE_TRUNC`, BigQuery's
//! `DATE_TRUNC`/`DATETIME_TRUNC`/`TIMESTAMP_TRUNC`, standard SQL's `FLOOR(x TO unit)`) and the
//! last day of a month (`LAST_DAY`).
//!
//! ```sql
//! -- before (postgres)
//! SELECT DATE_TRUNC('month', d), DATE_TRUNC('hour', d) FROM t
//! -- after
//! SELECT datetime(d, 'start of month'), datetime(d, 'start of day', CAST(strftime('%H', d) AS INTEGER) || ' hours') FROM t
//! -- before (bigquery)
//! SELECT DATE_TRUNC(d, MONTH), LAST_DAY(d) FROM t
//! -- after
//! SELECT date(d, 'start of month'), date(d, 'start of month', '+1 months', '-1 days') FROM t
//! ```
//!
//! The result has the dialect's type: a timestamp in PostgreSQL and DuckDB (`'2020-01-01
//! 00:00:00'`), a date for BigQuery's `DATE_TRUNC`, and the input's type in Snowflake and
//! standard SQL (a date for a date, a timestamp for a value with a time). Weeks start on Monday,
//! except BigQuery's `WEEK`, which starts on Sunday; a quarter starts in January, April, July or
//! October. No faithful translation: decades, centuries, millennia, fractions of a second,
//! BigQuery's `WEEK(<day>)`, `FLOOR(x TO WEEK)` and time zones.

use std::ops::ControlFlow;

use sqlparser::ast::{CeilFloorKind, Expr, Statement, VisitMut, VisitorMut};

use super::temporal::{
    concat, function_name, int_part, minus, modulo, number, plain_args, plus, shaped, string,
    string_value, times, unit_arg, unit_of_field, Shape, Unit,
};
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateTrunc;

/// The SQLite modifiers truncating `x` to `unit`, weeks starting on Sunday when
/// `sunday_weeks`, or None for a unit without a faithful translation.
fn truncating(unit: Unit, x: &Expr, sunday_weeks: bool) -> Option<Vec<Expr>> {
    let days_back = |n: Expr| concat(concat(string("-"), n), string(" days"));
    let x = x.clone();
    Some(match unit {
        Unit::Year => vec![string("start of year")],
        Unit::Quarter => vec![
            string("start of month"),
            concat(
                concat(
                    string("-"),
                    modulo(minus(int_part("%m", x), number(1)), number(3)),
                ),
                string(" months"),
            ),
        ],
        Unit::Month => vec![string("start of month")],
        Unit::Week if sunday_weeks => vec![string("start of day"), days_back(int_part("%w", x))],
        Unit::Week | Unit::IsoWeek => vec![
            string("start of day"),
            days_back(modulo(plus(int_part("%w", x), number(6)), number(7))),
        ],
        Unit::Day => vec![string("start of day")],
        Unit::Hour => vec![
            string("start of day"),
            concat(int_part("%H", x), string(" hours")),
        ],
        Unit::Minute => vec![
            string("start of day"),
            concat(
                plus(
                    times(int_part("%H", x.clone()), number(60)),
                    int_part("%M", x),
                ),
                string(" minutes"),
            ),
        ],
        // SQLite's `datetime()` drops the fraction of a second
        Unit::Second => vec![],
        _ => return None,
    })
}

/// `x` truncated to the unit named by `unit`, in `shape`, or the untranslated call.
fn truncate(
    construct: &str,
    unit: Option<Unit>,
    x: Expr,
    shape: Shape,
    sunday_weeks: bool,
    dialect: Dialect,
    args: Vec<Expr>,
) -> Expr {
    match unit.and_then(|u| truncating(u, &x, sunday_weeks)) {
        Some(modifiers) => shaped(shape, x, modifiers),
        None => untranslated(construct, dialect, args),
    }
}

/// The translation of `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let label = |unit: &Expr| format!("{name} to {unit}");
    Some(match (name, dialect, args.as_slice()) {
        ("DATE_TRUNC", Postgres | Duckdb | Snowflake, [unit, x]) => {
            let shape = if dialect == Snowflake {
                Shape::LikeInput
            } else {
                Shape::Timestamp
            };
            truncate(
                &label(unit),
                unit_arg(unit),
                x.clone(),
                shape,
                false,
                dialect,
                args.clone(),
            )
        }
        ("DATE_TRUNC" | "DATETIME_TRUNC" | "TIMESTAMP_TRUNC", Bigquery, [x, unit]) => {
            let shape = if name == "DATE_TRUNC" {
                Shape::Date
            } else {
                Shape::Timestamp
            };
            truncate(
                &label(unit),
                unit_arg(unit),
                x.clone(),
                shape,
                true,
                dialect,
                args.clone(),
            )
        }
        ("TIMESTAMP_TRUNC", Bigquery, [x, unit, zone])
            if string_value(zone).is_some_and(|z| z.eq_ignore_ascii_case("UTC")) =>
        {
            truncate(
                &label(unit),
                unit_arg(unit),
                x.clone(),
                Shape::Timestamp,
                true,
                dialect,
                args.clone(),
            )
        }
        ("LAST_DAY", Mysql | Duckdb | Snowflake | Bigquery, [x]) => shaped(
            Shape::Date,
            x.clone(),
            vec![
                string("start of month"),
                string("+1 months"),
                string("-1 days"),
            ],
        ),
        ("DATE_TRUNC" | "DATETIME_TRUNC" | "TIMESTAMP_TRUNC", Bigquery, _)
        | ("DATE_TRUNC", Postgres | Duckdb | Snowflake, _)
        | ("LAST_DAY", Mysql | Duckdb | Snowflake | Bigquery, _) => {
            untranslated(name, dialect, args)
        }
        _ => return None,
    })
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Function(f) => {
                let name = function_name(f);
                if let Some(args) = plain_args(f) {
                    if let Some(new) = translate_call(&name, args, self.0) {
                        *e = new;
                    }
                }
            }
            Expr::Floor {
                expr,
                field: CeilFloorKind::DateTimeField(field),
            } if !matches!(field, sqlparser::ast::DateTimeField::NoDateTime) => {
                let x = (**expr).clone();
                let construct = format!("FLOOR(x TO {field})");
                // weeks: the first day of Calcite's week is not the standard's to say
                let unit = unit_of_field(field).filter(|u| *u != Unit::Week);
                *e = truncate(
                    &construct,
                    unit,
                    x.clone(),
                    Shape::LikeInput,
                    false,
                    self.0,
                    vec![x],
                );
            }
            Expr::Ceil {
                expr,
                field: CeilFloorKind::DateTimeField(field),
            } if !matches!(field, sqlparser::ast::DateTimeField::NoDateTime) => {
                *e = untranslated(
                    &format!("CEIL(x TO {field})"),
                    self.0,
                    vec![(**expr).clone()],
                );
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateTrunc {
    fn name(&self) -> &'static str {
        "date_trunc"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
