//! Rule `date_arithmetic`: dates and times moved by an interval: `x + INTERVAL '1 day'`,
//! `x - INTERVAL 3 MONTH`, `DATE_ADD`/`DATE_SUB`/`ADDDATE`/`SUBDATE`, `DATEADD`/`TIMESTAMPADD`,
//! BigQuery's `DATETIME_ADD`/`TIMESTAMP_ADD`/..., and PostgreSQL's and DuckDB's
//! `date + integer` (days).
//!
//! ```sql
//! -- before (postgres)
//! SELECT d + INTERVAL '1 day', CAST(d AS DATE) + 7 FROM t
//! -- after
//! SELECT datetime(d, '+1 days'), date(date(d), '+7 days') FROM t
//! -- before (mysql)
//! SELECT DATE_ADD(d, INTERVAL 1 MONTH) FROM t
//! -- after (clamped to the end of the month, as MySQL does)
//! SELECT CASE WHEN strftime('%d', d, '+1 months') = strftime('%d', d)
//!        THEN strftime(CASE WHEN length(d) > 10 THEN '%Y-%m-%d %H:%M:%S' ELSE '%Y-%m-%d' END, d, '+1 months')
//!        ELSE strftime(.., d, '+1 months', '-' || strftime('%d', d, '+1 months') || ' days') END FROM t
//! ```
//!
//! Intervals are SQLite modifiers: months (years and quarters as months) first, then days
//! (weeks as 7 days), hours, minutes and seconds, which is the order PostgreSQL adds an
//! interval's fields in. A month added to the 31st gives the month's last day, as in every
//! engine (SQLite alone would carry into the next month). PostgreSQL strings may hold several
//! fields, a time (`'1 day 02:00:00'`) and `ago`. The result has the dialect's type: a timestamp
//! in PostgreSQL and DuckDB (`date + interval` is a timestamp there); in MySQL, Snowflake and
//! standard SQL the input's type for days and longer units, a timestamp for shorter ones; a date
//! for BigQuery's `DATE_ADD`, a timestamp for its `DATETIME_ADD`, `TIMESTAMP_ADD` and `+`. An
//! input of unknown type is a date when its text has no time (`length(x) <= 10`). sqlglot
//! spells MySQL's `DATE_ADD(d, INTERVAL 1 DAY)` `DATE(d, '1 DAY')`, which drops a time.
//!
//! No faithful translation: an interval alone (SQLite has no interval values), fractions of
//! months, units below a second, MySQL's compound units (`HOUR_MINUTE`), and `INTERVAL .. TO ..`.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Interval, Statement, Value, VisitMut, VisitorMut};

use super::temporal::{
    add, function_name, integer_value, kind_of, plain_args, string_value, unit_arg, unit_named,
    unit_of_field, Amount, Kind, Shape, Unit,
};
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateArithmetic;

/// A number literal's value.
fn number_value(e: &Expr) -> Option<f64> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok(),
            _ => string_value(e).and_then(|s| s.trim().parse().ok()),
        },
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } => number_value(expr).map(|n| -n),
        Expr::Nested(inner) => number_value(inner),
        _ => None,
    }
}

/// The amount an expression gives: its value when it is a literal.
fn amount(e: &Expr) -> Amount {
    number_value(e).map_or_else(|| Amount::Expr(e.clone()), Amount::Literal)
}

/// The fields of a PostgreSQL interval string (`'1 year 2 months'`, `'1 day 02:00:00'`,
/// `'3 days ago'`, Snowflake's `'1 day, 2 hours'`).
fn interval_string(text: &str) -> Option<Vec<(Amount, Unit)>> {
    let mut fields = vec![];
    let mut sign = 1.0;
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        if word.eq_ignore_ascii_case("ago") {
            sign = -1.0;
            i += 1;
            continue;
        }
        if word.contains(':') {
            let negative = word.starts_with('-');
            let parts: Vec<f64> = word
                .trim_start_matches(['-', '+'])
                .split(':')
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            let s = if negative { -1.0 } else { 1.0 };
            for (value, unit) in parts.iter().zip([Unit::Hour, Unit::Minute, Unit::Second]) {
                if *value != 0.0 {
                    fields.push((Amount::Literal(s * value), unit));
                }
            }
            if parts.len() > 3 {
                return None;
            }
            i += 1;
            continue;
        }
        // "1day" or "1 day"
        let split = word
            .find(|c: char| c.is_ascii_alphabetic())
            .unwrap_or(word.len());
        let (number, mut unit) = word.split_at(split);
        let value: f64 = number.parse().ok()?;
        if unit.is_empty() {
            i += 1;
            unit = words.get(i)?;
        }
        fields.push((Amount::Literal(value), unit_named(unit)?));
        i += 1;
    }
    if fields.is_empty() {
        return None;
    }
    Some(
        fields
            .into_iter()
            .map(|(a, u)| (if sign < 0.0 { a.negated() } else { a }, u))
            .collect(),
    )
}

/// The fields of an interval expression, or None without a faithful translation.
fn interval_fields(iv: &Interval, dialect: Dialect) -> Option<Vec<(Amount, Unit)>> {
    if iv.last_field.is_some() {
        return None;
    }
    match &iv.leading_field {
        None => interval_string(string_value(&iv.value)?),
        Some(field) => {
            let unit = unit_of_field(field)?;
            let value = match string_value(&iv.value) {
                // `INTERVAL '1 day' DAY` is no number
                Some(s) => Amount::Literal(s.trim().parse().ok()?),
                None => amount(&iv.value),
            };
            if dialect == Dialect::Mysql && matches!(value, Amount::Literal(n) if n.fract() != 0.0)
            {
                return None;
            }
            Some(vec![(value, unit)])
        }
    }
}

/// The type of `x` moved by `fields` with `+` in `dialect`.
fn plus_shape(dialect: Dialect, fields: &[(Amount, Unit)]) -> Shape {
    let below_a_day = fields
        .iter()
        .any(|(_, u)| matches!(u, Unit::Hour | Unit::Minute | Unit::Second));
    match dialect {
        Dialect::Mysql | Dialect::Snowflake | Dialect::Ansi if !below_a_day => Shape::LikeInput,
        _ => Shape::Timestamp,
    }
}

/// `x` moved by `fields` (negated when `subtract`), or the untranslated call.
fn moved(
    construct: &str,
    x: Expr,
    fields: Option<Vec<(Amount, Unit)>>,
    subtract: bool,
    shape: impl Fn(&[(Amount, Unit)]) -> Shape,
    dialect: Dialect,
    args: Vec<Expr>,
) -> Expr {
    let result = fields.and_then(|fields| {
        let fields: Vec<_> = fields
            .into_iter()
            .map(|(a, u)| (if subtract { a.negated() } else { a }, u))
            .collect();
        let shape = shape(&fields);
        add(x, fields, shape)
    });
    result.unwrap_or_else(|| untranslated(construct, dialect, args))
}

/// The translation of `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let subtract = name.contains("SUB");
    let interval = |e: &Expr| match e {
        Expr::Interval(iv) => interval_fields(iv, dialect),
        _ => None,
    };
    let by = |shape: Shape| move |_: &[(Amount, Unit)]| shape;
    Some(match (name, dialect, args.as_slice()) {
        ("DATE_ADD" | "DATE_SUB" | "ADDDATE" | "SUBDATE", Mysql, [x, n]) => {
            let fields = match n {
                Expr::Interval(_) => interval(n),
                // ADDDATE(d, 3): days
                _ if name.ends_with("DATE") => Some(vec![(amount(n), Unit::Day)]),
                _ => None,
            };
            let shape = |f: &[(Amount, Unit)]| plus_shape(dialect, f);
            moved(
                name,
                x.clone(),
                fields,
                subtract,
                shape,
                dialect,
                args.clone(),
            )
        }
        ("DATE_ADD", Duckdb, [x, n]) => moved(
            name,
            x.clone(),
            interval(n),
            false,
            by(Shape::Timestamp),
            dialect,
            args.clone(),
        ),
        ("DATE_ADD" | "DATE_SUB", Bigquery, [x, n]) => moved(
            name,
            x.clone(),
            interval(n),
            subtract,
            by(Shape::Date),
            dialect,
            args.clone(),
        ),
        ("DATETIME_ADD" | "DATETIME_SUB" | "TIMESTAMP_ADD" | "TIMESTAMP_SUB", Bigquery, [x, n]) => {
            moved(
                name,
                x.clone(),
                interval(n),
                subtract,
                by(Shape::Timestamp),
                dialect,
                args.clone(),
            )
        }
        ("TIMESTAMPADD", Mysql | Snowflake | Ansi, [unit, n, x])
        | ("DATEADD" | "TIMEADD", Snowflake, [unit, n, x]) => {
            let fields = unit_arg(unit).map(|u| vec![(amount(n), u)]);
            let shape = |f: &[(Amount, Unit)]| plus_shape(dialect, f);
            moved(name, x.clone(), fields, false, shape, dialect, args.clone())
        }
        ("DATE_ADD" | "DATE_SUB" | "ADDDATE" | "SUBDATE", Mysql, _)
        | ("DATE_ADD" | "DATE_SUB" | "DATETIME_ADD" | "DATETIME_SUB", Bigquery, _)
        | ("TIMESTAMP_ADD" | "TIMESTAMP_SUB", Bigquery, _)
        | ("DATEADD" | "TIMEADD" | "TIMESTAMPADD", Snowflake, _) => {
            untranslated(name, dialect, args)
        }
        _ => return None,
    })
}

/// `left op right` where one side is an interval, or a date plus or minus whole days.
fn translate_binary(
    left: &Expr,
    op: &BinaryOperator,
    right: &Expr,
    dialect: Dialect,
) -> Option<Expr> {
    let subtract = match op {
        BinaryOperator::Plus => false,
        BinaryOperator::Minus => true,
        _ => return None,
    };
    let shape = |f: &[(Amount, Unit)]| match dialect {
        Dialect::Bigquery => Shape::Timestamp,
        d => plus_shape(d, f),
    };
    let args = vec![left.clone(), right.clone()];
    match (left, right) {
        (x, Expr::Interval(iv)) => Some(moved(
            "INTERVAL arithmetic",
            x.clone(),
            interval_fields(iv, dialect),
            subtract,
            shape,
            dialect,
            args,
        )),
        (Expr::Interval(iv), x) if !subtract => Some(moved(
            "INTERVAL arithmetic",
            x.clone(),
            interval_fields(iv, dialect),
            false,
            shape,
            dialect,
            args,
        )),
        // PostgreSQL and DuckDB: a date plus whole days is a date
        (x, n)
            if matches!(dialect, Dialect::Postgres | Dialect::Duckdb)
                && kind_of(x) == Kind::Date
                && integer_value(n).is_some() =>
        {
            let days = vec![(amount(n), Unit::Day)];
            Some(moved(
                "date arithmetic",
                x.clone(),
                Some(days),
                subtract,
                |_| Shape::Date,
                dialect,
                args,
            ))
        }
        _ => None,
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
            Expr::BinaryOp { left, op, right } => translate_binary(left, op, right, self.0),
            _ => None,
        };
        if let Some(new) = new {
            *e = new;
        }
        ControlFlow::Continue(())
    }
}

/// Marks every interval no rewrite above used (SQLite has no interval values).
struct Leftovers(Dialect);

impl VisitorMut for Leftovers {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Interval(iv) = e {
            *e = untranslated("INTERVAL", self.0, vec![(*iv.value).clone()]);
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateArithmetic {
    fn name(&self) -> &'static str {
        "date_arithmetic"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
        let _ = statement.visit(&mut Leftovers(dialect));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_interval_strings_are_read_field_by_field() {
        let f = interval_string("1 year 2 months 3 days 04:05:06").unwrap();
        let units: Vec<Unit> = f.iter().map(|(_, u)| *u).collect();
        assert_eq!(
            units,
            [
                Unit::Year,
                Unit::Month,
                Unit::Day,
                Unit::Hour,
                Unit::Minute,
                Unit::Second
            ]
        );
        let ago = interval_string("3 days ago").unwrap();
        assert!(matches!(ago[0].0, Amount::Literal(n) if n == -3.0));
        assert!(interval_string("1 fortnight").is_none());
        assert!(interval_string("").is_none());
    }
}
