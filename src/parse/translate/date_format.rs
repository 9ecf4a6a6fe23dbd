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

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, DataType, Expr, Statement, VisitMut, VisitorMut};

use super::temporal::{
    binary, cast, concat, divide, function_name, int_part, iso_week, iso_weekday, iso_year, minus,
    number, plain_args, plus, strftime, string, string_value, times, weekday_from_sunday,
};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateFormat;

/// How a name is capitalized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// `January`
    Initial,
    /// `JANUARY`
    Upper,
    /// `january`
    Lower,
}

/// A piece of a format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Text printed as it is.
    Literal(String),
    /// A code of SQLite's `strftime` (`%Y`), its width when it is a fixed-width number.
    Code(&'static str),
    /// A number without its leading zero (the SQLite code of the padded number).
    Unpadded(&'static str),
    /// The month's name: abbreviated to three letters, its case, padded to 9 characters.
    MonthName(bool, Case, bool),
    /// The day's name: abbreviated to three letters, its case, padded to 9 characters.
    DayName(bool, Case, bool),
    /// The two last digits of the year.
    Year2,
    /// The hour on a 12-hour clock, 01 to 12, or 1 to 12 unpadded.
    Hour12(bool),
    /// AM or PM, upper or lower case.
    Meridiem(bool),
    Quarter,
    /// Weeks starting on Sunday, 00 to 53.
    SundayWeek,
    /// ISO 8601 week, 01 to 53.
    IsoWeek,
    IsoYear,
    /// ISO day of the week, 1 (Monday) to 7.
    IsoWeekday,
    /// Day of the week, 1 (Sunday) to 7.
    WeekdayFromOne,
    /// Milliseconds, 000 to 999.
    Millis,
    /// A code without a faithful translation, named.
    Unsupported(String),
}

/// The pieces of a MySQL format (`DATE_FORMAT`, `STR_TO_DATE`).
pub(crate) fn mysql_pieces(format: &str) -> Vec<Piece> {
    let mut out = vec![];
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(Piece::Literal(c.to_string()));
            continue;
        }
        let Some(code) = chars.next() else {
            out.push(Piece::Literal("%".into()));
            break;
        };
        out.extend(match code {
            'Y' => vec![Piece::Code("%Y")],
            'y' => vec![Piece::Year2],
            'm' => vec![Piece::Code("%m")],
            'c' => vec![Piece::Unpadded("%m")],
            'd' => vec![Piece::Code("%d")],
            'e' => vec![Piece::Unpadded("%d")],
            'H' => vec![Piece::Code("%H")],
            'k' => vec![Piece::Unpadded("%H")],
            'h' | 'I' => vec![Piece::Hour12(true)],
            'l' => vec![Piece::Hour12(false)],
            'i' => vec![Piece::Code("%M")],
            's' | 'S' => vec![Piece::Code("%S")],
            'p' => vec![Piece::Meridiem(true)],
            'j' => vec![Piece::Code("%j")],
            'w' => vec![Piece::Code("%w")],
            'U' => vec![Piece::SundayWeek],
            'M' => vec![Piece::MonthName(false, Case::Initial, false)],
            'b' => vec![Piece::MonthName(true, Case::Initial, false)],
            'W' => vec![Piece::DayName(false, Case::Initial, false)],
            'a' => vec![Piece::DayName(true, Case::Initial, false)],
            'T' => vec![
                Piece::Code("%H"),
                Piece::Literal(":".into()),
                Piece::Code("%M"),
            ]
            .into_iter()
            .chain([Piece::Literal(":".into()), Piece::Code("%S")])
            .collect(),
            'r' => vec![
                Piece::Hour12(true),
                Piece::Literal(":".into()),
                Piece::Code("%M"),
                Piece::Literal(":".into()),
                Piece::Code("%S"),
                Piece::Literal(" ".into()),
                Piece::Meridiem(true),
            ],
            '%' => vec![Piece::Literal("%".into())],
            'D' | 'f' | 'u' | 'V' | 'v' | 'X' | 'x' => vec![Piece::Unsupported(format!("%{code}"))],
            other => vec![Piece::Literal(other.to_string())],
        });
    }
    out
}

/// The pieces of a C `strftime` format (DuckDB's `STRFTIME`/`STRPTIME`, BigQuery's
/// `FORMAT_*`/`PARSE_*`).
pub(crate) fn c_pieces(format: &str) -> Vec<Piece> {
    let mut out = vec![];
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(Piece::Literal(c.to_string()));
            continue;
        }
        let unpadded = chars.peek() == Some(&'-');
        if unpadded {
            chars.next();
        }
        let Some(code) = chars.next() else {
            out.push(Piece::Unsupported("%".into()));
            break;
        };
        let padded = |p: &'static str| {
            if unpadded {
                Piece::Unpadded(p)
            } else {
                Piece::Code(p)
            }
        };
        out.extend(match code {
            'Y' if !unpadded => vec![Piece::Code("%Y")],
            'y' if !unpadded => vec![Piece::Year2],
            'm' => vec![padded("%m")],
            'd' => vec![padded("%d")],
            'H' => vec![padded("%H")],
            'M' => vec![padded("%M")],
            'S' => vec![padded("%S")],
            'j' if !unpadded => vec![Piece::Code("%j")],
            'I' => vec![Piece::Hour12(!unpadded)],
            'p' if !unpadded => vec![Piece::Meridiem(true)],
            'w' if !unpadded => vec![Piece::Code("%w")],
            'W' if !unpadded => vec![Piece::Code("%W")],
            'U' if !unpadded => vec![Piece::SundayWeek],
            'V' if !unpadded => vec![Piece::IsoWeek],
            'G' if !unpadded => vec![Piece::IsoYear],
            'u' if !unpadded => vec![Piece::IsoWeekday],
            'Q' if !unpadded => vec![Piece::Quarter],
            'B' if !unpadded => vec![Piece::MonthName(false, Case::Initial, false)],
            'b' | 'h' if !unpadded => vec![Piece::MonthName(true, Case::Initial, false)],
            'A' if !unpadded => vec![Piece::DayName(false, Case::Initial, false)],
            'a' if !unpadded => vec![Piece::DayName(true, Case::Initial, false)],
            'F' if !unpadded => c_pieces("%Y-%m-%d"),
            'T' if !unpadded => c_pieces("%H:%M:%S"),
            'R' if !unpadded => c_pieces("%H:%M"),
            'D' if !unpadded => c_pieces("%m/%d/%y"),
            'g' if !unpadded => vec![Piece::Millis],
            'n' if !unpadded => vec![Piece::Literal("\n".into())],
            't' if !unpadded => vec![Piece::Literal("\t".into())],
            '%' if !unpadded => vec![Piece::Literal("%".into())],
            other => vec![Piece::Unsupported(format!("%{other}"))],
        });
    }
    out
}

/// The case of a name pattern as PostgreSQL reads it (`MONTH`, `Month`, `month`).
fn case_of(pattern: &str) -> Case {
    let mut letters = pattern.chars().filter(|c| c.is_ascii_alphabetic());
    match (letters.next(), letters.next()) {
        (Some(a), Some(b)) if a.is_ascii_uppercase() && b.is_ascii_uppercase() => Case::Upper,
        (Some(a), _) if a.is_ascii_uppercase() => Case::Initial,
        _ => Case::Lower,
    }
}

/// The pieces of a PostgreSQL or Snowflake `TO_CHAR` template, or an error naming a number
/// format.
pub(crate) fn template_pieces(format: &str, dialect: Dialect) -> Vec<Piece> {
    let snowflake = dialect == Dialect::Snowflake;
    // (pattern, piece); longest patterns first
    let mut out = vec![];
    let mut rest = format;
    let mut fill_mode = false;
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            out.push(Piece::Literal(quoted[..end].to_string()));
            rest = quoted.get(end + 1..).unwrap_or("");
            continue;
        }
        let upper = rest.to_ascii_uppercase();
        let starts = |p: &str| upper.starts_with(p);
        if !snowflake && starts("FM") {
            fill_mode = true;
            rest = &rest[2..];
            continue;
        }
        let pad = !fill_mode;
        let (len, piece) = if starts("YYYY") {
            (4, Piece::Code("%Y"))
        } else if starts("IYYY") && !snowflake {
            (4, Piece::IsoYear)
        } else if starts("YYY") || starts("Y,YYY") || starts("IYY") || starts("IY") {
            (3, Piece::Unsupported(rest[..3].to_string()))
        } else if starts("YY") {
            (2, Piece::Year2)
        } else if snowflake && starts("MMMM") {
            (4, Piece::MonthName(false, Case::Initial, false))
        } else if !snowflake && starts("MONTH") {
            (5, Piece::MonthName(false, case_of(&rest[..5]), pad))
        } else if starts("MON") {
            let case = if snowflake {
                Case::Initial
            } else {
                case_of(&rest[..3])
            };
            (3, Piece::MonthName(true, case, false))
        } else if starts("MM") {
            (
                2,
                if pad {
                    Piece::Code("%m")
                } else {
                    Piece::Unpadded("%m")
                },
            )
        } else if starts("MI") {
            (
                2,
                if pad {
                    Piece::Code("%M")
                } else {
                    Piece::Unpadded("%M")
                },
            )
        } else if starts("MS") && !snowflake {
            (2, Piece::Millis)
        } else if starts("DDD") && !snowflake {
            (3, Piece::Code("%j"))
        } else if starts("DD") {
            (
                2,
                if pad {
                    Piece::Code("%d")
                } else {
                    Piece::Unpadded("%d")
                },
            )
        } else if !snowflake && starts("DAY") {
            (3, Piece::DayName(false, case_of(&rest[..3]), pad))
        } else if starts("DY") {
            let case = if snowflake {
                Case::Initial
            } else {
                case_of(&rest[..2])
            };
            (2, Piece::DayName(true, case, false))
        } else if starts("D") && !snowflake {
            (1, Piece::WeekdayFromOne)
        } else if starts("HH24") {
            (
                4,
                if pad {
                    Piece::Code("%H")
                } else {
                    Piece::Unpadded("%H")
                },
            )
        } else if starts("HH12") {
            (4, Piece::Hour12(pad))
        } else if starts("HH") {
            (2, Piece::Hour12(pad))
        } else if starts("SSSS") {
            (4, Piece::Unsupported(rest[..4].to_string()))
        } else if starts("SS") {
            (
                2,
                if pad {
                    Piece::Code("%S")
                } else {
                    Piece::Unpadded("%S")
                },
            )
        } else if starts("AM") || starts("PM") {
            (2, Piece::Meridiem(rest.starts_with(['A', 'P'])))
        } else if snowflake && starts("FF3") {
            (3, Piece::Millis)
        } else if starts("IW") && !snowflake {
            (2, Piece::IsoWeek)
        } else if starts("ID") && !snowflake {
            (2, Piece::IsoWeekday)
        } else if starts("Q") && !snowflake {
            (1, Piece::Quarter)
        } else if [
            "US", "FF", "TZ", "OF", "WW", "W", "J", "CC", "TH", "FX", "RM", "A.", "P.", "B", "Y",
        ]
        .iter()
        .any(|p| starts(p))
            || rest.starts_with(['9', '0'])
        {
            let n = rest.chars().next().map_or(1, char::len_utf8);
            (n, Piece::Unsupported(rest[..n].to_string()))
        } else {
            let n = rest.chars().next().map_or(1, char::len_utf8);
            (n, Piece::Literal(rest[..n].to_string()))
        };
        if !matches!(piece, Piece::Literal(_)) {
            fill_mode = false;
        }
        out.push(piece);
        rest = &rest[len..];
    }
    out
}

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
    let x = x.clone();
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
                plus(int_part("%j", x.clone()), number(6)),
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
                parts.push(strftime(format, x.clone(), vec![]));
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
        .unwrap_or_else(|| strftime("", x.clone(), vec![])))
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
        ("DATE_FORMAT", Mysql, [x, f]) => format_with(name, x.clone(), f, mysql_pieces, dialect),
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
            format_with(name, x.clone(), f, c_pieces, dialect)
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
            format_with(name, x.clone(), f, c_pieces, dialect)
        }
        ("FORMAT_TIMESTAMP", Bigquery, [f, x, zone])
            if string_value(zone).is_some_and(|z| z.eq_ignore_ascii_case("UTC")) =>
        {
            format_with(name, x.clone(), f, c_pieces, dialect)
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

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Function(f) = e {
            let name = function_name(f);
            if let Some(args) = plain_args(f) {
                if let Some(new) = translate_call(&name, args, self.0) {
                    *e = new;
                }
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateFormat {
    fn name(&self) -> &'static str {
        "date_format"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
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
    fn unsupported_codes_are_named() {
        assert_eq!(
            printed(&mysql_pieces("%D %M"), &d()),
            Err(NoTranslation("%D".to_string()))
        );
        assert_eq!(
            printed(&c_pieces("%f"), &d()),
            Err(NoTranslation("%f".to_string()))
        );
        assert!(is_number_template("FM999.00"));
        assert!(!is_number_template("HH24:MI"));
    }
}
