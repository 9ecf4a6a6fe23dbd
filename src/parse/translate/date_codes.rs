//! The codes of date and time formats, read into pieces: MySQL's `DATE_FORMAT`/`STR_TO_DATE`
//! codes, the C codes of DuckDB's `STRFTIME`/`STRPTIME` and BigQuery's `FORMAT_*`/`PARSE_*`, and
//! the templates of PostgreSQL's and Snowflake's `TO_CHAR`/`TO_DATE`. The `date_format` rule
//! prints the pieces, the `date_parse` rule reads text by them.

use crate::parse::dialect::Dialect;

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
/// `FORMAT_*`/`PARSE_*`): `%g` is DuckDB's milliseconds and BigQuery's two-digit ISO year.
pub(crate) fn c_pieces(format: &str, dialect: Dialect) -> Vec<Piece> {
    let duckdb = dialect == Dialect::Duckdb;
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
            'F' if !unpadded => c_pieces("%Y-%m-%d", dialect),
            'T' if !unpadded => c_pieces("%H:%M:%S", dialect),
            'R' if !unpadded => c_pieces("%H:%M", dialect),
            'D' if !unpadded => c_pieces("%m/%d/%y", dialect),
            'g' if !unpadded && duckdb => vec![Piece::Millis],
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
        } else if starts("HH") && !snowflake {
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
            "HH",
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
