//! SQLite expressions for dates and times, shared by the date and time rules (`date_parts`,
//! `date_format`, `date_parse`, `date_arithmetic`, `date_diff`, `date_values`).
//!
//! Dates and times are ISO text in SQLite ('2012-03-04', '2012-03-04 10:00:00'), read and
//! written by `date()`, `datetime()`, `time()`, `strftime()` and `julianday()`. Only the
//! `strftime` codes of SQLite 3.39 are used (`%d %f %H %j %m %M %s %S %w %W %Y`), and month
//! arithmetic is clamped to the end of the month, as every other engine does it (SQLite's own
//! `'+1 months'` carries '2020-01-31' into March).

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CaseWhen, CastKind, DataType, DateTimeField, Expr, Function, FunctionArguments,
    Value,
};

use super::call;
use super::copies::copy;

/// A unit of a date or time part, a truncation, an interval or a difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Millennium,
    Century,
    Decade,
    Year,
    Quarter,
    Month,
    Week,
    Day,
    Hour,
    Minute,
    Second,
    Millisecond,
    Microsecond,
    Nanosecond,
    /// Day of the week (the numbering depends on the dialect).
    DayOfWeek,
    /// ISO day of the week, Monday 1 to Sunday 7.
    IsoDayOfWeek,
    DayOfYear,
    /// ISO 8601 week number.
    IsoWeek,
    /// ISO 8601 week-numbering year.
    IsoYear,
    /// Seconds since 1970-01-01 00:00:00.
    Epoch,
    /// PostgreSQL's Julian day.
    Julian,
    /// BigQuery's `DATE`, `TIME` and `DATETIME` parts.
    Date,
    Time,
    Datetime,
}

/// The unit a name spells (`'month'`, `months`, Snowflake's `mm`, `yyyy`, `dow`, ...), in any case.
pub(crate) fn unit_named(name: &str) -> Option<Unit> {
    let n = name.trim().to_ascii_lowercase();
    Some(match n.as_str() {
        "millennium" | "millennia" | "millenium" | "millenniums" | "mil" | "mils" => {
            Unit::Millennium
        }
        "century" | "centuries" | "c" | "cent" => Unit::Century,
        "decade" | "decades" | "dec" | "decs" => Unit::Decade,
        "year" | "years" | "y" | "yy" | "yyy" | "yyyy" | "yr" | "yrs" => Unit::Year,
        "quarter" | "quarters" | "q" | "qtr" | "qtrs" => Unit::Quarter,
        "month" | "months" | "mm" | "mon" | "mons" => Unit::Month,
        "week" | "weeks" | "w" | "wk" | "wks" => Unit::Week,
        "day" | "days" | "d" | "dd" | "dayofmonth" => Unit::Day,
        "hour" | "hours" | "h" | "hh" | "hr" | "hrs" => Unit::Hour,
        "minute" | "minutes" | "m" | "mi" | "min" | "mins" => Unit::Minute,
        "second" | "seconds" | "s" | "sec" | "secs" => Unit::Second,
        "millisecond" | "milliseconds" | "ms" | "msec" | "msecs" | "msecond" | "mseconds" => {
            Unit::Millisecond
        }
        "microsecond" | "microseconds" | "us" | "usec" | "usecs" | "usecond" | "useconds" => {
            Unit::Microsecond
        }
        "nanosecond" | "nanoseconds" | "ns" | "nsec" | "nsecs" => Unit::Nanosecond,
        "dow" | "dayofweek" | "weekday" | "dw" => Unit::DayOfWeek,
        "isodow" | "dayofweekiso" | "dow_iso" | "dw_iso" => Unit::IsoDayOfWeek,
        "doy" | "dayofyear" | "yd" | "dy" => Unit::DayOfYear,
        "isoweek" | "weekiso" | "week_iso" | "weekofyeariso" | "weekofyear_iso" => Unit::IsoWeek,
        "isoyear" | "yearofweekiso" => Unit::IsoYear,
        "epoch" | "epoch_second" | "epoch_seconds" => Unit::Epoch,
        "julian" => Unit::Julian,
        "date" => Unit::Date,
        "time" => Unit::Time,
        "datetime" => Unit::Datetime,
        _ => return None,
    })
}

/// The unit of a parsed date/time field (`EXTRACT(YEAR FROM ..)`, `INTERVAL 1 DAY`).
pub(crate) fn unit_of_field(field: &DateTimeField) -> Option<Unit> {
    use DateTimeField as F;
    Some(match field {
        F::Year | F::Years => Unit::Year,
        F::Month | F::Months => Unit::Month,
        F::Week(None) | F::Weeks => Unit::Week,
        F::Day | F::Days => Unit::Day,
        F::DayOfWeek | F::Dow => Unit::DayOfWeek,
        F::Isodow => Unit::IsoDayOfWeek,
        F::DayOfYear | F::Doy => Unit::DayOfYear,
        F::Date => Unit::Date,
        F::Datetime => Unit::Datetime,
        F::Time => Unit::Time,
        F::Hour | F::Hours => Unit::Hour,
        F::Minute | F::Minutes => Unit::Minute,
        F::Second | F::Seconds => Unit::Second,
        F::Century => Unit::Century,
        F::Decade => Unit::Decade,
        F::Millennium | F::Millenium => Unit::Millennium,
        F::Epoch => Unit::Epoch,
        F::Isoyear => Unit::IsoYear,
        F::IsoWeek => Unit::IsoWeek,
        F::Julian => Unit::Julian,
        F::Microsecond | F::Microseconds => Unit::Microsecond,
        F::Millisecond | F::Milliseconds => Unit::Millisecond,
        F::Nanosecond | F::Nanoseconds => Unit::Nanosecond,
        F::Quarter => Unit::Quarter,
        F::Custom(ident) => return unit_named(&ident.value),
        _ => return None,
    })
}

/// The unit an argument names: a string (`'month'`) or a bare word (`month`, `MONTH`).
pub(crate) fn unit_arg(e: &Expr) -> Option<Unit> {
    match e {
        Expr::Identifier(ident) => unit_named(&ident.value),
        _ => string_value(e).and_then(unit_named),
    }
}

/// The text of a string literal of any quoting.
pub(crate) fn string_value(e: &Expr) -> Option<&str> {
    let Expr::Value(v) = e else { return None };
    match &v.value {
        Value::SingleQuotedString(s)
        | Value::DoubleQuotedString(s)
        | Value::EscapedStringLiteral(s)
        | Value::NationalStringLiteral(s)
        | Value::SingleQuotedRawStringLiteral(s)
        | Value::DoubleQuotedRawStringLiteral(s)
        | Value::TripleSingleQuotedString(s)
        | Value::TripleDoubleQuotedString(s)
        | Value::UnicodeStringLiteral(s) => Some(s),
        Value::DollarQuotedString(d) => Some(&d.value),
        _ => None,
    }
}

/// The value of an integer literal (`3`, `-3`, `'3'`).
pub(crate) fn integer_value(e: &Expr) -> Option<i64> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok(),
            _ => string_value(e).and_then(|s| s.trim().parse().ok()),
        },
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } => integer_value(expr).map(|n| -n),
        Expr::Nested(inner) => integer_value(inner),
        _ => None,
    }
}

/// The upper-case name of a function (its last part).
pub(crate) fn function_name(f: &Function) -> String {
    super::calls::name(f).to_ascii_uppercase()
}

/// The arguments of a plain call `f(a, b)` ([`super::calls::plain_args`]), or None for a name
/// without parentheses (`CURRENT_DATE`).
pub(crate) fn plain_args(f: &Function) -> Option<Vec<Expr>> {
    match f.args {
        FunctionArguments::None => None,
        _ => super::calls::plain_args(f),
    }
}

/// True for a call written without parentheses (`CURRENT_DATE`) or with empty ones (`NOW()`).
pub(crate) fn takes_no_args(f: &Function) -> bool {
    match &f.args {
        FunctionArguments::None => true,
        FunctionArguments::List(list) => list.args.is_empty() && list.clauses.is_empty(),
        FunctionArguments::Subquery(_) => false,
    }
}

/// A string literal.
pub(crate) fn string(s: &str) -> Expr {
    Expr::value(Value::SingleQuotedString(s.to_string()))
}

/// An integer literal.
pub(crate) fn number(n: i64) -> Expr {
    Expr::value(Value::Number(n.to_string(), false))
}

/// `(e)`, unless `e` needs no parentheses as an operand.
pub(crate) fn nested(e: Expr) -> Expr {
    match e {
        Expr::Identifier(_)
        | Expr::CompoundIdentifier(_)
        | Expr::Value(_)
        | Expr::Function(_)
        | Expr::Cast { .. }
        | Expr::Nested(_)
        | Expr::Case { .. } => e,
        other => Expr::Nested(Box::new(other)),
    }
}

/// `left op right`, each side parenthesized where it needs it.
pub(crate) fn binary(left: Expr, op: BinaryOperator, right: Expr) -> Expr {
    Expr::BinaryOp {
        left: Box::new(nested(left)),
        op,
        right: Box::new(nested(right)),
    }
}

pub(crate) fn plus(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::Plus, r)
}

pub(crate) fn minus(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::Minus, r)
}

pub(crate) fn times(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::Multiply, r)
}

/// SQLite's `/`: an integer quotient of integers, truncated towards zero.
pub(crate) fn divide(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::Divide, r)
}

pub(crate) fn modulo(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::Modulo, r)
}

pub(crate) fn concat(l: Expr, r: Expr) -> Expr {
    binary(l, BinaryOperator::StringConcat, r)
}

/// `CAST(e AS type)`.
pub(crate) fn cast(e: Expr, data_type: DataType) -> Expr {
    Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(e),
        data_type,
        format: None,
    }
}

/// `CAST(e AS INTEGER)`.
pub(crate) fn integer(e: Expr) -> Expr {
    cast(e, DataType::Integer(None))
}

/// `CASE WHEN c1 THEN r1 ... [ELSE e] END`.
pub(crate) fn case(branches: Vec<(Expr, Expr)>, otherwise: Option<Expr>) -> Expr {
    Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: branches
            .into_iter()
            .map(|(condition, result)| CaseWhen { condition, result })
            .collect(),
        else_result: otherwise.map(Box::new),
    }
}

/// `strftime(format, x, modifiers...)`.
pub(crate) fn strftime(format: &str, x: Expr, modifiers: Vec<Expr>) -> Expr {
    let mut args = vec![string(format), x];
    args.extend(modifiers);
    call("strftime", args)
}

/// A part of `x` as an integer: `CAST(strftime(format, x) AS INTEGER)`.
pub(crate) fn int_part(format: &str, x: Expr) -> Expr {
    integer(strftime(format, x, vec![]))
}

/// The day of the week of `x`, Sunday 0 to Saturday 6.
pub(crate) fn weekday_from_sunday(x: Expr) -> Expr {
    int_part("%w", x)
}

/// The ISO day of the week of `x`, Monday 1 to Sunday 7.
pub(crate) fn iso_weekday(x: Expr) -> Expr {
    plus(
        modulo(plus(int_part("%w", x), number(6)), number(7)),
        number(1),
    )
}

/// The Thursday of `x`'s ISO week (its ISO year and week are those of that day).
fn iso_thursday(x: Expr) -> Expr {
    let back = concat(
        string("-"),
        modulo(plus(int_part("%w", copy(&x)), number(6)), number(7)),
    );
    let back = concat(back, string(" days"));
    call("date", vec![x, back, string("+3 days")])
}

/// The ISO 8601 week number of `x`.
pub(crate) fn iso_week(x: Expr) -> Expr {
    plus(
        divide(minus(int_part("%j", iso_thursday(x)), number(1)), number(7)),
        number(1),
    )
}

/// The ISO 8601 week-numbering year of `x`.
pub(crate) fn iso_year(x: Expr) -> Expr {
    int_part("%Y", iso_thursday(x))
}

/// Seconds since 1970 of `x` as a whole number (SQLite's `%s`).
pub(crate) fn epoch_seconds(x: Expr) -> Expr {
    int_part("%s", x)
}

/// Seconds since 1970 of `x` with its fraction of a second (milliseconds in SQLite).
pub(crate) fn epoch_with_fraction(x: Expr) -> Expr {
    minus(
        plus(
            epoch_seconds(copy(&x)),
            cast(strftime("%f", copy(&x), vec![]), DataType::Real),
        ),
        int_part("%S", x),
    )
}

/// Whole months from `from` to `to`, truncated towards zero as MySQL's
/// `TIMESTAMPDIFF(MONTH, from, to)` and the months of PostgreSQL's `AGE(to, from)` count them: the
/// month count, one less where the later day and time of the month is earlier.
pub(crate) fn whole_months(from: Expr, to: Expr) -> Expr {
    let months = |x: Expr| {
        plus(
            times(int_part("%Y", copy(&x)), number(12)),
            int_part("%m", x),
        )
    };
    let count = minus(months(copy(&to)), months(copy(&from)));
    let rest = |x: Expr| strftime("%d %H:%M:%f", x, vec![]);
    let shorter = binary(
        binary(copy(&count), BinaryOperator::Gt, number(0)),
        BinaryOperator::And,
        binary(rest(copy(&to)), BinaryOperator::Lt, rest(copy(&from))),
    );
    let longer = binary(
        binary(copy(&count), BinaryOperator::Lt, number(0)),
        BinaryOperator::And,
        binary(rest(to), BinaryOperator::Gt, rest(from)),
    );
    plus(minus(count, shorter), longer)
}

/// What kind of value an expression is known to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Date,
    Timestamp,
    Unknown,
}

/// The kind of `e` where its spelling says it: `date(..)`, `CURRENT_DATE`, `CAST(.. AS DATE)`
/// are dates, `datetime(..)`, `CURRENT_TIMESTAMP`, `CAST(.. AS TIMESTAMP)` timestamps.
pub(crate) fn kind_of(e: &Expr) -> Kind {
    match e {
        Expr::Cast { data_type, .. } => match data_type {
            DataType::Date => Kind::Date,
            DataType::Timestamp(..) | DataType::Datetime(_) | DataType::TimestampNtz(_) => {
                Kind::Timestamp
            }
            _ => Kind::Unknown,
        },
        Expr::Function(f) => match function_name(f).as_str() {
            "DATE" | "CURRENT_DATE" => Kind::Date,
            "DATETIME" | "CURRENT_TIMESTAMP" => Kind::Timestamp,
            _ => Kind::Unknown,
        },
        Expr::Nested(inner) => kind_of(inner),
        _ => Kind::Unknown,
    }
}

/// The shape of a date computed from another: a date, a timestamp, or the shape of the input
/// (a date for a date, a timestamp for a value with a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Date,
    Timestamp,
    LikeInput,
}

/// `x` moved by SQLite `modifiers`, printed in `shape`.
pub(crate) fn shaped(shape: Shape, x: Expr, modifiers: Vec<Expr>) -> Expr {
    let shape = match (shape, kind_of(&x)) {
        (Shape::LikeInput, Kind::Date) => Shape::Date,
        (Shape::LikeInput, Kind::Timestamp) => Shape::Timestamp,
        (s, _) => s,
    };
    let long = match shape {
        Shape::LikeInput => Some(binary(
            call("length", vec![copy(&x)]),
            BinaryOperator::Gt,
            number(10),
        )),
        _ => None,
    };
    let mut args = vec![x];
    args.extend(modifiers);
    match (shape, long) {
        (Shape::Date, _) => call("date", args),
        (Shape::LikeInput, Some(long)) => {
            let format = case(
                vec![(long, string("%Y-%m-%d %H:%M:%S"))],
                Some(string("%Y-%m-%d")),
            );
            let mut all = vec![format];
            all.extend(args);
            call("strftime", all)
        }
        _ => call("datetime", args),
    }
}

/// An amount of a unit: a literal or an expression.
#[allow(clippy::large_enum_variant)] // a handful per query, never stored
#[derive(Debug, Clone)]
pub(crate) enum Amount {
    Literal(f64),
    Expr(Expr),
}

impl Amount {
    pub(crate) fn negated(self) -> Amount {
        match self {
            Amount::Literal(n) => Amount::Literal(-n),
            Amount::Expr(e) => Amount::Expr(Expr::UnaryOp {
                op: sqlparser::ast::UnaryOperator::Minus,
                expr: Box::new(nested(e)),
            }),
        }
    }

    /// The amount times `k`.
    fn scaled(self, k: i64) -> Amount {
        match self {
            Amount::Literal(n) => Amount::Literal(n * k as f64),
            Amount::Expr(e) if k == 1 => Amount::Expr(e),
            Amount::Expr(e) => Amount::Expr(times(e, number(k))),
        }
    }

    fn is_whole(&self) -> bool {
        match self {
            Amount::Literal(n) => n.fract() == 0.0,
            Amount::Expr(_) => true,
        }
    }
}

/// A SQLite modifier adding `amount` of a SQLite unit (`'+3 days'`, `n || ' days'`).
fn modifier(amount: Amount, unit: &str) -> Expr {
    match amount {
        Amount::Literal(n) => {
            let text = if n.fract() == 0.0 {
                format!("{:+} {unit}", n as i64)
            } else {
                format!("{n:+} {unit}")
            };
            string(&text)
        }
        Amount::Expr(e) => concat(nested(e), string(&format!(" {unit}"))),
    }
}

/// `x` plus the given amounts of units, as every engine adds them: months first (clamped to the
/// end of the month: '2020-01-31' plus one month is '2020-02-29'), then days, then time. None
/// where a unit has no SQLite modifier (fractions of months, units below a second).
pub(crate) fn add(x: Expr, amounts: Vec<(Amount, Unit)>, shape: Shape) -> Option<Expr> {
    let mut months: Vec<Amount> = vec![];
    let mut rest: Vec<Expr> = vec![];
    for (amount, unit) in amounts {
        match unit {
            Unit::Millennium => months.push(amount.scaled(12_000)),
            Unit::Century => months.push(amount.scaled(1_200)),
            Unit::Decade => months.push(amount.scaled(120)),
            Unit::Year => months.push(amount.scaled(12)),
            Unit::Quarter => months.push(amount.scaled(3)),
            Unit::Month => months.push(amount),
            Unit::Week => rest.push(modifier(amount.scaled(7), "days")),
            Unit::Day => rest.push(modifier(amount, "days")),
            Unit::Hour => rest.push(modifier(amount, "hours")),
            Unit::Minute => rest.push(modifier(amount, "minutes")),
            Unit::Second => rest.push(modifier(amount, "seconds")),
            _ => return None,
        }
    }
    if months.iter().any(|m| !m.is_whole()) {
        return None;
    }
    let month_total = months.into_iter().reduce(|a, b| match (a, b) {
        (Amount::Literal(x), Amount::Literal(y)) => Amount::Literal(x + y),
        (a, b) => Amount::Expr(plus(amount_expr(a), amount_expr(b))),
    });
    let Some(total) = month_total else {
        return Some(shaped(shape, x, rest));
    };
    if matches!(total, Amount::Literal(n) if n == 0.0) {
        return Some(shaped(shape, x, rest));
    }
    // SQLite carries an overflowing day into the next month ('2020-01-31' + 1 month is
    // '2020-03-02'); going back by the carried days gives the month's last day, time kept.
    let moved = modifier(total, "months");
    let day_after = strftime("%d", copy(&x), vec![copy(&moved)]);
    let same_day = binary(
        copy(&day_after),
        BinaryOperator::Eq,
        strftime("%d", copy(&x), vec![]),
    );
    let back = concat(concat(string("-"), day_after), string(" days"));
    let plain: Vec<Expr> = std::iter::once(copy(&moved))
        .chain(rest.iter().map(copy))
        .collect();
    let clamped: Vec<Expr> = [moved, back].into_iter().chain(rest).collect();
    Some(case(
        vec![(same_day, shaped(shape, copy(&x), plain))],
        Some(shaped(shape, x, clamped)),
    ))
}

fn amount_expr(a: Amount) -> Expr {
    match a {
        Amount::Literal(n) if n.fract() == 0.0 => number(n as i64),
        Amount::Literal(n) => Expr::value(Value::Number(n.to_string(), false)),
        Amount::Expr(e) => e,
    }
}
