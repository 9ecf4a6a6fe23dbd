//! Rule `date_parse`: dates and times read from text with a format, or built from numbers:
//! MySQL's `STR_TO_DATE` and `MAKEDATE`, PostgreSQL's and Snowflake's `TO_DATE` and
//! `TO_TIMESTAMP`, DuckDB's `STRPTIME`, BigQuery's `PARSE_DATE`/`PARSE_DATETIME`/
//! `PARSE_TIMESTAMP`, `MAKE_DATE`, `DATE_FROM_PARTS` and BigQuery's `DATE(y, m, d)`.
//!
//! ```sql
//! -- before (postgres)
//! SELECT TO_DATE(ym, 'YYYYMM'), TO_DATE(d, 'YYYY-MM-DD'), MAKE_DATE(2020, 1, 2) FROM t
//! -- after
//! SELECT date(substr(ym, 1, 4) || '-' || substr(ym, 5, 2) || '-01'), date(d),
//!        date(printf('%04d-%02d-%02d', 2020, 1, 2)) FROM t
//! ```
//!
//! A format made of fixed-width numbers (year, month, day, hour, minute, second) and
//! separators gives the position of each number in the text; the ISO text built from them is
//! read by `date()` or `datetime()` (NULL where it is no date, where MySQL gives NULL and
//! PostgreSQL an error). The ISO formats themselves read the text as it is (`date(d)`, as sqlglot
//! spells Snowflake's `TO_DATE(d, 'YYYY-MM-DD')`). A part the format lacks is the first month or
//! day, or midnight, as PostgreSQL, Snowflake, DuckDB and BigQuery fill it. The result is a date
//! for `TO_DATE`, `PARSE_DATE` and a MySQL format without time codes, a timestamp otherwise.
//!
//! No faithful translation: a format that is not a literal; BigQuery's `DATE(x, zone)` and
//! `DATETIME(x, zone)` in a zone other than UTC, and `DATETIME(date, time)`; names of months and days, 12-hour
//! clocks and other codes of variable width; MySQL formats without a year, month and day (their
//! result depends on MySQL's `sql_mode`).

use sqlparser::ast::{BinaryOperator, Expr, Statement};

use super::date_codes::{c_pieces, mysql_pieces, template_pieces, Piece};
use super::temporal::{binary, case, concat, minus, number, string, string_value};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateParse;

/// What a parse gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Result {
    Date,
    Timestamp,
    /// A date, or a timestamp when the format reads a time (MySQL's `STR_TO_DATE`).
    ByFormat,
}

/// The ISO text of `x` read with `pieces`, or the reason it has no faithful translation.
fn read(
    pieces: &[Piece],
    x: &Expr,
    result: Result,
    dialect: Dialect,
) -> std::result::Result<Expr, NoTranslation> {
    let mut fields: Vec<(&'static str, usize)> = vec![];
    let mut position = 1;
    for piece in pieces {
        match piece {
            Piece::Code(code) => {
                let width = match *code {
                    "%Y" => 4,
                    "%m" | "%d" | "%H" | "%M" | "%S" => 2,
                    other => return Err(NoTranslation(format!("code {other}"))),
                };
                fields.push((code, position));
                position += width;
            }
            Piece::Literal(s) => position += s.chars().count(),
            Piece::Unsupported(code) => return Err(NoTranslation(format!("code {code}"))),
            other => return Err(NoTranslation(format!("{other:?}"))),
        }
    }
    let at = |code: &str| fields.iter().find(|(c, _)| *c == code).map(|(_, p)| *p);
    let has_time = ["%H", "%M", "%S"].iter().any(|c| at(c).is_some());
    let timestamp = match result {
        Result::Date => false,
        Result::Timestamp => true,
        Result::ByFormat => has_time,
    };
    if dialect == Dialect::Mysql && ["%Y", "%m", "%d"].iter().any(|c| at(c).is_none()) {
        return Err(NoTranslation("without a year, month and day".into()));
    }
    let iso = if timestamp {
        ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"]
    } else {
        ["%Y-%m-%d", "%Y-%m-%d", "%Y-%m-%d"]
    };
    let function = if timestamp { "datetime" } else { "date" };
    // an ISO format reads the text as it is
    let layout: String = pieces
        .iter()
        .map(|p| match p {
            Piece::Code(c) => c.to_string(),
            Piece::Literal(s) => s.clone(),
            _ => String::new(),
        })
        .collect();
    if iso.contains(&layout.as_str()) || (!timestamp && layout.starts_with("%Y-%m-%d")) {
        return Ok(call(function, vec![x.clone()]));
    }
    let part = |code: &str, width: i64, default: &str| match at(code) {
        Some(p) => call("substr", vec![x.clone(), number(p as i64), number(width)]),
        None => string(default),
    };
    let mut text = part("%Y", 4, "0000");
    for (sep, code, default) in [("-", "%m", "01"), ("-", "%d", "01")] {
        text = concat(concat(text, string(sep)), part(code, 2, default));
    }
    if timestamp {
        for (sep, code) in [(" ", "%H"), (":", "%M"), (":", "%S")] {
            text = concat(concat(text, string(sep)), part(code, 2, "00"));
        }
    }
    if at("%Y").is_none() {
        return Err(NoTranslation("without a year".into()));
    }
    Ok(call(function, vec![text]))
}

/// `construct(x, format)` read with `pieces_of`, or the untranslated call.
fn parse_with(
    construct: &str,
    x: &Expr,
    format: &Expr,
    pieces_of: impl Fn(&str) -> Vec<Piece>,
    result: Result,
    dialect: Dialect,
) -> Expr {
    let args = || vec![x.clone(), format.clone()];
    let Some(text) = string_value(format) else {
        return untranslated(
            &format!("{construct} with a computed format"),
            dialect,
            args(),
        );
    };
    match read(&pieces_of(text), x, result, dialect) {
        Ok(e) => e,
        Err(NoTranslation(why)) => untranslated(&format!("{construct} {why}"), dialect, args()),
    }
}

/// `date(printf('%04d-%02d-%02d', y, m, d))`.
fn make_date(y: &Expr, m: &Expr, d: &Expr) -> Expr {
    let text = call(
        "printf",
        vec![string("%04d-%02d-%02d"), y.clone(), m.clone(), d.clone()],
    );
    call("date", vec![text])
}

/// A one-argument `TO_DATE`/`TO_TIMESTAMP` of Snowflake: text read as it is, a number as
/// seconds since 1970; an expression of unknown kind is read as text.
fn snowflake_convert(function: &str, x: &Expr) -> Expr {
    let is_number =
        matches!(x, Expr::Value(v) if matches!(v.value, sqlparser::ast::Value::Number(..)));
    if is_number {
        call(function, vec![x.clone(), string("unixepoch")])
    } else {
        call(function, vec![x.clone()])
    }
}

/// The translation of `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let template = |s: &str| template_pieces(s, dialect);
    let c_codes = |s: &str| c_pieces(s, dialect);
    Some(match (name, dialect, args.as_slice()) {
        ("STR_TO_DATE", Mysql, [x, f]) => {
            parse_with(name, x, f, mysql_pieces, Result::ByFormat, dialect)
        }
        ("TO_DATE", Postgres | Snowflake, [x, f]) => {
            parse_with(name, x, f, template, Result::Date, dialect)
        }
        ("TO_TIMESTAMP" | "TO_TIMESTAMP_NTZ", Postgres | Snowflake, [x, f]) => {
            parse_with("TO_TIMESTAMP", x, f, template, Result::Timestamp, dialect)
        }
        ("TO_DATE" | "DATE", Snowflake, [x]) => snowflake_convert("date", x),
        ("TO_TIMESTAMP" | "TO_TIMESTAMP_NTZ", Snowflake, [x]) => snowflake_convert("datetime", x),
        ("STRPTIME", Duckdb, [x, f]) => parse_with(name, x, f, c_codes, Result::Timestamp, dialect),
        ("PARSE_DATE", Bigquery, [f, x]) => parse_with(name, x, f, c_codes, Result::Date, dialect),
        ("PARSE_DATETIME" | "PARSE_TIMESTAMP", Bigquery, [f, x]) => {
            parse_with(name, x, f, c_codes, Result::Timestamp, dialect)
        }
        // BigQuery's DATE(timestamp, zone), DATETIME(timestamp, zone), DATETIME(date, time)
        ("DATE" | "DATETIME", Bigquery, [x, zone])
            if string_value(zone).is_some_and(|z| z.eq_ignore_ascii_case("UTC")) =>
        {
            call(&name.to_ascii_lowercase(), vec![x.clone()])
        }
        ("DATE" | "DATETIME", Bigquery, [_, _]) => untranslated(name, dialect, args),
        ("MAKE_DATE", Postgres | Duckdb, [y, m, d]) | ("DATE", Bigquery, [y, m, d]) => {
            make_date(y, m, d)
        }
        // Snowflake carries months and days past their end into the next month or year
        ("DATE_FROM_PARTS", Snowflake, [y, m, d]) => call(
            "date",
            vec![
                call("printf", vec![string("%04d-01-01"), y.clone()]),
                concat(minus(m.clone(), number(1)), string(" months")),
                concat(minus(d.clone(), number(1)), string(" days")),
            ],
        ),
        ("MAKEDATE", Mysql, [y, day]) => case(
            vec![(
                binary(day.clone(), BinaryOperator::Gt, number(0)),
                call(
                    "date",
                    vec![
                        call("printf", vec![string("%04d-01-01"), y.clone()]),
                        concat(minus(day.clone(), number(1)), string(" days")),
                    ],
                ),
            )],
            None,
        ),
        ("STR_TO_DATE", Mysql, _)
        | ("TO_DATE" | "TO_TIMESTAMP", Postgres, _)
        | ("STRPTIME", Duckdb, _)
        | ("PARSE_DATE" | "PARSE_DATETIME" | "PARSE_TIMESTAMP", Bigquery, _)
        | ("MAKE_TIMESTAMP" | "MAKE_TIME", Postgres | Duckdb, _)
        | ("TIMESTAMP_FROM_PARTS" | "TIME_FROM_PARTS", Snowflake, _) => {
            untranslated(name, dialect, args)
        }
        _ => return None,
    })
}

impl Rule for DateParse {
    fn name(&self) -> &'static str {
        "date_parse"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        super::calls::rewrite_calls(statement, dialect, translate_call);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Expr {
        Expr::Identifier(sqlparser::ast::Ident::new("x"))
    }

    #[test]
    fn fixed_width_formats_read_by_position() {
        let e = read(
            &template_pieces("YYYYMM", Dialect::Postgres),
            &x(),
            Result::Date,
            Dialect::Postgres,
        )
        .unwrap();
        assert_eq!(
            e.to_string(),
            "date((((substr(x, 1, 4) || '-') || substr(x, 5, 2)) || '-') || '01')"
        );
        let e = read(
            &mysql_pieces("%d/%m/%Y"),
            &x(),
            Result::ByFormat,
            Dialect::Mysql,
        )
        .unwrap();
        assert_eq!(
            e.to_string(),
            "date((((substr(x, 7, 4) || '-') || substr(x, 4, 2)) || '-') || substr(x, 1, 2))"
        );
    }

    #[test]
    fn iso_formats_read_the_text_and_mysql_needs_a_whole_date() {
        let e = read(
            &mysql_pieces("%Y-%m-%d %H:%i:%s"),
            &x(),
            Result::ByFormat,
            Dialect::Mysql,
        )
        .unwrap();
        assert_eq!(e.to_string(), "datetime(x)");
        assert!(read(
            &mysql_pieces("%Y%m"),
            &x(),
            Result::ByFormat,
            Dialect::Mysql
        )
        .is_err());
        assert!(read(
            &mysql_pieces("%b %Y"),
            &x(),
            Result::ByFormat,
            Dialect::Mysql
        )
        .is_err());
    }
}
