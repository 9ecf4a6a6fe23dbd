//! SQLite date functions on date-shaped text: `STRFTIME` with `%Y`, `%m`, `%d`, `%H`, `%M`,
//! `%S` and literal characters, `DATE`, `DATETIME` and `TIME` of one argument, modelled as
//! pieces of a text of the shape `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, NULL on other text
//! (the solver then prefers date-shaped values). SQLite accepts more input shapes (`T`
//! separators, fractional seconds, Julian day numbers); those are left to execution.

use z3::ast::{Bool, Int, Regexp, String as ZString};

use super::speculative_text::lift;
use super::z3_text::z3_string;

/// A text of the shape `YYYY-MM-DD` (years 1000-2999, days up to 28: every month has them).
fn date_regex() -> Regexp {
    let d = || Regexp::range(&'0', &'9');
    let lit = Regexp::literal;
    let year = Regexp::concat(&[&Regexp::range(&'1', &'2'), &d(), &d(), &d()]);
    let month = Regexp::union(&[
        &Regexp::concat(&[&lit("0"), &Regexp::range(&'1', &'9')]),
        &Regexp::concat(&[&lit("1"), &Regexp::range(&'0', &'2')]),
    ]);
    let day = Regexp::union(&[
        &Regexp::concat(&[&lit("0"), &Regexp::range(&'1', &'9')]),
        &Regexp::concat(&[&Regexp::range(&'1', &'2'), &Regexp::range(&'0', &'8')]),
    ]);
    Regexp::concat(&[&year, &lit("-"), &month, &lit("-"), &day])
}

/// `HH:MM:SS`.
fn time_regex() -> Regexp {
    let d = || Regexp::range(&'0', &'9');
    let hour = Regexp::union(&[
        &Regexp::concat(&[&Regexp::range(&'0', &'1'), &d()]),
        &Regexp::concat(&[&Regexp::literal("2"), &Regexp::range(&'0', &'3')]),
    ]);
    let sixty = || Regexp::concat(&[&Regexp::range(&'0', &'5'), &d()]);
    Regexp::concat(&[
        &hour,
        &Regexp::literal(":"),
        &sixty(),
        &Regexp::literal(":"),
        &sixty(),
    ])
}

/// A date-shaped text: `(date, with a time part)` conditions on `s`.
fn shapes(s: &ZString) -> (Bool, Bool) {
    let date = s.regex_matches(&date_regex());
    let datetime = s.regex_matches(&Regexp::concat(&[
        &date_regex(),
        &Regexp::literal(" "),
        &time_regex(),
    ]));
    (date, datetime)
}

fn piece(s: &ZString, from: i64, len: i64) -> ZString {
    s.substr(Int::from_i64(from), Int::from_i64(len))
}

/// The text `strftime(format, s)` gives on a date-shaped `s`, and the condition under which
/// `s` is date-shaped (the result is NULL otherwise); None for a format not modelled. Both are
/// decided per constant of a speculative `s` (see speculative_text.rs).
pub fn strftime(format: &str, s: &ZString) -> Option<(ZString, Bool)> {
    per_constant(s, &|s| strftime_of(format, s))
}

/// `date(s)`, `datetime(s)` and `time(s)` of one date-shaped argument, as [`strftime`].
pub fn date_function(name: &str, s: &ZString) -> Option<(ZString, Bool)> {
    per_constant(s, &|s| date_function_of(name, s))
}

/// `f`'s text and condition, each lifted through a speculative `s`; None when `f` does not
/// model its arguments (which does not depend on `s`).
fn per_constant(
    s: &ZString,
    f: &dyn Fn(&ZString) -> Option<(ZString, Bool)>,
) -> Option<(ZString, Bool)> {
    let (first, _) = f(s)?;
    let text = lift(s, &mut |s| f(s).map_or_else(|| first.clone(), |(t, _)| t));
    let shaped = lift(s, &mut |s| {
        f(s).map_or_else(|| Bool::from_bool(false), |(_, b)| b)
    });
    Some((text, shaped))
}

fn strftime_of(format: &str, s: &ZString) -> Option<(ZString, Bool)> {
    let (date, datetime) = shapes(s);
    let mut parts: Vec<ZString> = Vec::new();
    let mut literal = String::new();
    let mut chars = format.chars();
    let mut uses_time = false;
    while let Some(c) = chars.next() {
        if c != '%' {
            literal.push(c);
            continue;
        }
        let (from, len) = match chars.next()? {
            'Y' => (0, 4),
            'm' => (5, 2),
            'd' => (8, 2),
            'H' => (11, 2),
            'M' => (14, 2),
            'S' => (17, 2),
            '%' => {
                literal.push('%');
                continue;
            }
            _ => return None,
        };
        uses_time |= from >= 11;
        if !literal.is_empty() {
            parts.push(z3_string(&std::mem::take(&mut literal))?);
        }
        parts.push(piece(s, from, len));
    }
    if !literal.is_empty() {
        parts.push(z3_string(&literal)?);
    }
    if parts.is_empty() {
        return None;
    }
    // a time piece of a date without time is "00": only date-times are modelled then
    let shaped = if uses_time {
        datetime
    } else {
        Bool::or(&[date, datetime])
    };
    let text = if parts.len() == 1 {
        parts.remove(0)
    } else {
        ZString::concat(&parts)
    };
    Some((text, shaped))
}

fn date_function_of(name: &str, s: &ZString) -> Option<(ZString, Bool)> {
    let (date, datetime) = shapes(s);
    match name {
        "date" => Some((piece(s, 0, 10), Bool::or(&[date, datetime]))),
        "datetime" => Some((s.clone(), datetime)),
        "time" => Some((piece(s, 11, 8), datetime)),
        _ => None,
    }
}
