//! Rule `date_format`: dates and times printed with a format: MySQL's `DATE_FORMAT`, DuckDB's
//! `STRFTIME`, PostgreSQL's and Snowflake's `TO_CHAR`, BigQuery's `FORMAT_DATE`,
//! `FORMAT_DATETIME`, `FORMAT_TIMESTAMP` and `FORMAT_TIME`, and the month and day names
//! (`MONTHNAME`, `DAYNAME`).
//!
//! ```sql
//! -- before (mysql)
//! SELECT DATE_FORMAT(d, '%Y-%m'), DATE_FORMAT(d, '%e %M %Y') FROM t
//! -- after
//! SELECT strftime('%Y-%m', d), CAST(CAST(strftime('%d', d) AS INTEGER) AS TEXT) || ' '
//!        || rtrim(substr('January  February March ...', 9 * CAST(strftime('%m', d) AS INTEGER) - 8, 9))
//!        || strftime(' %Y', d) FROM t
//! -- before (postgres)
//! SELECT TO_CHAR(CAST(d AS TIMESTAMP), 'YYYY-MM-DD HH24:MI') FROM t
//! -- after (the cast by the `casts` rule)
//! SELECT strftime('%Y-%m-%d %H:%M', datetime(d)) FROM t
//! -- before (duckdb)
//! SELECT STRFTIME(d, '%Y') FROM t
//! -- after
//! SELECT strftime('%Y', d) FROM t
//! ```
//!
//! A format is read with its dialect's codes (MySQL's `%i` is minutes and `%s` seconds,
//! PostgreSQL's `MI` and `SS`, DuckDB's and BigQuery's C codes) into pieces: the codes SQLite's
//! `strftime` has (`%Y %m %d %H %M %S %j %w %W`) stay one `strftime` call with the literal text
//! around them (sqlglot's spelling), and the others become SQLite expressions joined with `||`:
//! numbers without their leading zero, two-digit years, 12-hour clocks and AM/PM, quarters, ISO
//! weeks, milliseconds and English month and day names (PostgreSQL pads `Month` and `Day` to 9
//! characters unless `FM` precedes them; Snowflake's `MON`, `DY`, `MONTHNAME` and `DAYNAME` are
//! three letters). DuckDB's `STRFTIME` takes (value, format) and also SQLite's (format, value);
//! in the other dialects, which have no `STRFTIME`, it is left as SQLite's. No faithful
//! translation: a format that is not a string literal, microseconds (SQLite keeps
//! milliseconds), MySQL's `%D` (1st, 2nd), `%u`, `%V`, `%v`, `%X`, `%x` week numbering, time
//! zones, and `TO_CHAR` of a number (`'999.99'`).

use sqlparser::ast::{BinaryOperator, DataType, Expr, Statement};

use super::copies::copy;
use super::date_codes::{c_pieces, mysql_pieces, template_pieces, Case, Piece};
use super::temporal::{
    binary, cast, concat, divide, int_part, iso_week, iso_weekday, iso_year, minus, number, plus,
    strftime, string, string_value, times, weekday_from_sunday,
};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateFormat;

/// `substr('0' || e, -2)`: a number of at most two digits, padded with a zero.
fn pad2(e: Expr) -> Expr {
    call("substr", vec![concat(string("0"), e), number(-2)])
}

fn text(e: Expr) -> Expr {
    cast(e, DataType::Text)
}

fn cased(e: Expr, case: Case) -> Expr {
    match case {
        Case::Initial => e,
        Case::Upper => call("upper", vec![e]),
        Case::Lower => call("lower", vec![e]),
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The `index`-th (from 0) of `names`, read out of one string of fixed-width names.
fn name_at(names: &[&str], index: Expr, abbreviated: bool, case: Case, padded: bool) -> Expr {
    let width = if abbreviated { 3 } else { 9 };
    let table: String = names
        .iter()
        .map(|n| {
            let n = if abbreviated { &n[..3] } else { n };
            format!("{n:width$}")
        })
        .collect();
    let start = plus(times(number(width as i64), index), number(1));
    let name = call("substr", vec![string(&table), start, number(width as i64)]);
    let name = if padded || abbreviated {
        name
    } else {
        call("rtrim", vec![name])
    };
    cased(name, case)
}

/// The SQLite expression of one piece that is not a `strftime` code, for the value `x`.
fn piece_expr(piece: &Piece, x: &Expr) -> Option<Expr> {
    let x = copy(x);
    Some(match piece {
        Piece::Unpadded(code) => text(int_part(code, x)),
        Piece::MonthName(abbreviated, case, padded) => {
            let index = minus(int_part("%m", x), number(1));
            name_at(&MONTHS, index, *abbreviated, *case, *padded)
        }
        Piece::DayName(abbreviated, case, padded) => {
            name_at(&DAYS, weekday_from_sunday(x), *abbreviated, *case, *padded)
        }
        Piece::Year2 => call("substr", vec![strftime("%Y", x, vec![]), number(3)]),
        Piece::Hour12(padded) => {
            // hours 0 to 23 on a 12-hour clock, two characters each: "12", "01", ..., "11"
            let twelve: String = (0..24)
                .map(|h| format!("{:02}", (h + 11) % 12 + 1))
                .collect();
            let start = plus(times(number(2), int_part("%H", x)), number(1));
            let hour = call("substr", vec![string(&twelve), start, number(2)]);
            if *padded {
                hour
            } else {
                call("ltrim", vec![hour, string("0")])
            }
        }
        Piece::Meridiem(upper) => {
            let pm = binary(int_part("%H", x), BinaryOperator::GtEq, number(12));
            let start = plus(times(number(2), pm), number(1));
            let m = call("substr", vec![string("AMPM"), start, number(2)]);
            if *upper {
                m
            } else {
                call("lower", vec![m])
            }
        }
        Piece::Quarter => text(divide(plus(int_part("%m", x), number(2)), number(3))),
        Piece::SundayWeek => pad2(divide(
            minus(
                plus(int_part("%j", copy(&x)), number(6)),
                weekday_from_sunday(x),
            ),
            number(7),
        )),
        Piece::IsoWeek => pad2(iso_week(x)),
        Piece::IsoYear => text(iso_year(x)),
        Piece::IsoWeekday => text(iso_weekday(x)),
        Piece::WeekdayFromOne => text(plus(weekday_from_sunday(x), number(1))),
        Piece::Millis => call("substr", vec![strftime("%f", x, vec![]), number(4)]),
        Piece::Literal(_) | Piece::Code(_) | Piece::Unsupported(_) => return None,
    })
}

/// The SQLite text of `x` printed with `pieces`, or the first unsupported piece.
pub(crate) fn printed(pieces: &[Piece], x: &Expr) -> Result<Expr, NoTranslation> {
    if let Some(Piece::Unsupported(code)) =
        pieces.iter().find(|p| matches!(p, Piece::Unsupported(_)))
    {
        return Err(NoTranslation(code.clone()));
    }
    let mut parts: Vec<Expr> = vec![];
    let mut format = String::new();
    let mut has_code = false;
    let flush = |format: &mut String, has_code: &mut bool, parts: &mut Vec<Expr>| {
        if !format.is_empty() {
            if *has_code || parts.is_empty() {
                parts.push(strftime(format, copy(x), vec![]));
            } else {
                parts.push(string(&format.replace("%%", "%")));
            }
        }
        format.clear();
        *has_code = false;
    };
    for piece in pieces {
        match piece {
            Piece::Literal(s) => format.push_str(&s.replace('%', "%%")),
            Piece::Code(c) => {
                format.push_str(c);
                has_code = true;
            }
            other => {
                flush(&mut format, &mut has_code, &mut parts);
                parts
                    .push(piece_expr(other, x).ok_or_else(|| NoTranslation(format!("{other:?}")))?);
            }
        }
    }
    flush(&mut format, &mut has_code, &mut parts);
    Ok(parts
        .into_iter()
        .reduce(concat)
        .unwrap_or_else(|| strftime("", copy(x), vec![])))
}

/// `x` formatted with the literal `format` read by `read`, or the untranslated call.
fn format_with(
    construct: &str,
    x: Expr,
    format: &Expr,
    read: impl Fn(&str) -> Vec<Piece>,
    dialect: Dialect,
) -> Expr {
    let Some(text) = string_value(format) else {
        return untranslated(
            &format!("{construct} with a computed format"),
            dialect,
            vec![x, format.clone()],
        );
    };
    match printed(&read(text), &x) {
        Ok(e) => e,
        Err(NoTranslation(code)) => untranslated(
            &format!("{construct} code {code}"),
            dialect,
            vec![x, format.clone()],
        ),
    }
}

/// MySQL's `DATE_FORMAT(x, format)` (also the `date_values` rule's `FROM_UNIXTIME(n, format)`).
pub(crate) fn mysql_format(x: Expr, format: &Expr) -> Expr {
    format_with("DATE_FORMAT", x, format, mysql_pieces, Dialect::Mysql)
}

/// True when a `TO_CHAR` template formats a number (`'999.99'`, `'FM0000'`).
fn is_number_template(format: &str) -> bool {
    let upper = format.to_ascii_uppercase();
    let without_hours = upper
        .replace("HH24", "")
        .replace("HH12", "")
        .replace("FF3", "");
    without_hours.contains(['9', '0'])
}

/// The translation of `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    Some(match (name, dialect, args.as_slice()) {
        ("DATE_FORMAT", Mysql, [x, f]) => mysql_format(x.clone(), f),
        ("STRFTIME", Duckdb, [a, b]) => {
            let (x, f) = match (string_value(a), string_value(b)) {
                (_, Some(_)) => (a, b),
                (Some(_), None) => (b, a),
                _ => {
                    return Some(untranslated(
                        "STRFTIME with a computed format",
                        dialect,
                        args,
                    ))
                }
            };
            format_with(name, x.clone(), f, |s| c_pieces(s, dialect), dialect)
        }
        ("TO_CHAR" | "TO_VARCHAR", Postgres | Snowflake, [x, f]) => {
            if string_value(f).is_some_and(is_number_template) {
                return Some(untranslated("TO_CHAR of a number", dialect, args));
            }
            format_with(
                "TO_CHAR",
                x.clone(),
                f,
                |s| template_pieces(s, dialect),
                dialect,
            )
        }
        ("FORMAT_DATE" | "FORMAT_DATETIME" | "FORMAT_TIME", Bigquery, [f, x])
        | ("FORMAT_TIMESTAMP", Bigquery, [f, x]) => {
            format_with(name, x.clone(), f, |s| c_pieces(s, dialect), dialect)
        }
        ("FORMAT_TIMESTAMP", Bigquery, [f, x, zone])
            if string_value(zone).is_some_and(|z| z.eq_ignore_ascii_case("UTC")) =>
        {
            format_with(name, x.clone(), f, |s| c_pieces(s, dialect), dialect)
        }
        ("MONTHNAME" | "DAYNAME", Mysql | Duckdb | Snowflake, [x]) => {
            let abbreviated = dialect == Snowflake;
            let piece = if name == "MONTHNAME" {
                Piece::MonthName(abbreviated, Case::Initial, false)
            } else {
                Piece::DayName(abbreviated, Case::Initial, false)
            };
            piece_expr(&piece, x)?
        }
        ("FORMAT_TIMESTAMP" | "FORMAT_DATE" | "FORMAT_DATETIME", Bigquery, _)
        | ("TIME_FORMAT", Mysql, _) => untranslated(name, dialect, args),
        _ => return None,
    })
}

impl Rule for DateFormat {
    fn name(&self) -> &'static str {
        "date_format"
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

    fn d() -> Expr {
        Expr::Identifier(sqlparser::ast::Ident::new("d"))
    }

    #[test]
    fn a_format_of_strftime_codes_is_one_strftime_call() {
        let e = printed(&mysql_pieces("%Y-%m-%d %H:%i:%s %%"), &d()).unwrap();
        assert_eq!(e.to_string(), "strftime('%Y-%m-%d %H:%M:%S %%', d)");
        let e = printed(&template_pieces("YYYY\"-\"MM", Dialect::Postgres), &d()).unwrap();
        assert_eq!(e.to_string(), "strftime('%Y-%m', d)");
    }

    #[test]
    fn names_and_clocks_are_read_from_fixed_width_tables() {
        let hour = piece_expr(&Piece::Hour12(true), &d()).unwrap().to_string();
        assert!(
            hour.contains("'120102030405060708091011120102030405060708091011'"),
            "{hour}"
        );
        let month = piece_expr(&Piece::MonthName(true, Case::Upper, false), &d()).unwrap();
        assert!(
            month.to_string().starts_with("upper(substr('JanFebMar"),
            "{month}"
        );
        let day = piece_expr(&Piece::DayName(false, Case::Initial, true), &d()).unwrap();
        assert!(
            day.to_string().starts_with("substr('Sunday   Monday   "),
            "{day}"
        );
    }

    #[test]
    fn duckdb_strftime_leaves_the_strftime_of_the_other_date_rules_alone() {
        use crate::parse::{dialect::tag, translate::sqlite_text};
        let sql = "SELECT EPOCH(ts), EXTRACT(EPOCH FROM ts), STRFTIME(ts, '%-d') FROM t";
        let text = sqlite_text(&tag(sql, Dialect::Duckdb))
            .unwrap()
            .into_owned();
        assert!(!text.contains("sqlsim_untranslated"), "{text}");
        assert!(
            text.contains("CAST(strftime('%s', ts) AS INTEGER)"),
            "{text}"
        );
    }

    #[test]
    fn unsupported_codes_are_named() {
        assert_eq!(
            printed(&mysql_pieces("%D %M"), &d()),
            Err(NoTranslation("%D".to_string()))
        );
        assert_eq!(
            printed(&c_pieces("%f", Dialect::Duckdb), &d()),
            Err(NoTranslation("%f".to_string()))
        );
        assert!(is_number_template("FM999.00"));
        assert!(!is_number_template("HH24:MI"));
    }
}
