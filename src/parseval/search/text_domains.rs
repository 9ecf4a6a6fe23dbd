//! The constants a speculative text value is chosen from (the paper's speculative concrete
//! assignment): the queries' own literals (LIKE patterns also without their wildcards), the
//! dates just inside and outside each date-shaped literal, then plain fillers, or numbers in a
//! text column a query computes with; a `DATE` column's values are dates alone. The search's
//! first pass draws every generated text from them (`symbolic::speculative_text::choice`).

use super::plan_facts::visit_all;
use crate::parseval::symbolic::database::nth_date;
use crate::parseval::symbolic::z3_text::z3_can_hold;
use crate::plan::{Expr, Literal, QueryPlan};

/// Most literals taken from the queries (the domain adds dates and fillers to them).
const MAX_LITERALS: usize = 24;
/// Longest literal taken (longer ones stay for the symbolic pass).
const MAX_LITERAL_LEN: usize = 200;

/// The literals of `q` as SQLite would compare them with text: text literals as written
/// (LIKE patterns too: a pattern matches itself), numbers in their text form. First-seen order,
/// no repeats.
pub fn query_texts(q: &QueryPlan) -> Vec<String> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Literal(l) => {
                let text = match l {
                    Literal::Text(t) => Some(t.clone()),
                    Literal::Integer(i) => Some(i.to_string()),
                    Literal::Real(r) => Some(r.to_string()),
                    _ => None,
                };
                if let Some(t) = text.filter(|t| !out.contains(t)) {
                    out.push(t);
                }
            }
            Expr::Call(_, args) => args.iter().for_each(|a| walk(a, out)),
            Expr::Subquery(s) => {
                for o in &s.operands {
                    walk(o, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    visit_all(&q.root, &mut |p| {
        for e in p.exprs() {
            walk(e, &mut out);
        }
    });
    out
}

/// The two speculative text domains for instances of `size` rows, the queries' literals read
/// once for both: every text column's ([`with_text_fillers`]) and that of a text column the query
/// computes with ([`with_number_fillers`]).
pub fn text_domains(literals: &[String], size: usize) -> (Vec<String>, Vec<String>) {
    let literal = literal_domain(literals);
    (
        with_text_fillers(literal.clone(), size),
        with_number_fillers(literal, size),
    )
}

/// The texts a generated text value may take: each literal, its form without LIKE wildcards, the
/// dates around each date-shaped literal (see [`dates_around`]), then `size` fillers `v1`, `v2`,
/// ... (enough for distinct keys).
fn with_text_fillers(mut out: Vec<String>, size: usize) -> Vec<String> {
    for k in 1..=size {
        add_text(&mut out, format!("v{k}"));
    }
    out
}

/// The texts a value of a text column the query computes with (`AVG(age)` over Spider's
/// `age VARCHAR(20)`, `weight + 1`: `plan_facts::computed_columns`) may take: the literals as
/// in [`with_text_fillers`], then a number with a fraction and `size` whole numbers instead of
/// the fillers `v1`, `v2`, which all read as 0 (every average of them is 0), so that the rows'
/// values can differ as numbers and a cast to an integer can change one.
fn with_number_fillers(mut out: Vec<String>, size: usize) -> Vec<String> {
    add_text(&mut out, "2.5".to_string());
    let fillers: Vec<String> = (1..)
        .map(|k: usize| k.to_string())
        .filter(|t| !out.contains(t))
        .take(size)
        .collect();
    out.extend(fillers);
    out
}

/// Each literal, its form without LIKE wildcards and the dates around a date-shaped one.
fn literal_domain(literals: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for lit in literals.iter().take(MAX_LITERALS) {
        add_text(&mut out, lit.clone());
        if lit.contains(['%', '_']) {
            add_text(&mut out, lit.replace(['%', '_'], ""));
        }
        for d in dates_around(lit) {
            add_text(&mut out, d);
        }
    }
    out
}

/// Adds `t` to a domain unless it is there, too long or not held by Z3.
fn add_text(out: &mut Vec<String>, t: String) {
    if t.len() <= MAX_LITERAL_LEN && z3_can_hold(&t) && !out.contains(&t) {
        out.push(t);
    }
}

/// The dates a value of a `DATE` column may take ([`crate::schema::Column::holds_dates`]): the
/// dates around each literal that names a year, a month or a day (also as a LIKE pattern,
/// `'1991%'`, `'1981-11-%'`: the dates of date-times taken), the 15th of each month a one- or
/// two-digit literal may name (`STRFTIME('%m', d) = '08'`), dates a quarter century apart
/// (ages and spans: `STRFTIME('%Y', 'now') - STRFTIME('%Y', birthday) > 55`), then `size`
/// fillers from 2000-01-01 on (distinct, ordered). The choice among constants costs Z3 little;
/// a date regular expression on a free string made the BIRD dev pairs twice as much work and
/// left some undecided.
pub fn date_domain(literals: &[String], size: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |t: &str| {
        if !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    };
    for lit in literals.iter().take(MAX_LITERALS) {
        let bare = lit.trim_end_matches(['%', '_', '-']);
        for d in dates_around(bare) {
            add(d.get(..10).unwrap_or(&d));
        }
        if let Ok(month @ 1..=12) = lit.parse::<u32>() {
            if lit.len() <= 2 {
                add(&format!("2000-{month:02}-15"));
            }
        }
    }
    for spread in SPREAD_DATES {
        add(spread);
    }
    for n in 1..=size {
        add(&nth_date(n as i64));
    }
    out
}

/// The values of a column that holds dates or date-times under option `plausible_dates`
/// ([`crate::schema::Column::plausible_dates`]): the dates of [`date_domain`], then the
/// date-times around each date-shaped literal (a period's first day at midnight, its last day
/// and the day after it at noon, [`dates_around`]) and one filler date-time.
pub fn date_time_domain(literals: &[String], size: usize) -> Vec<String> {
    let mut out = date_domain(literals, size);
    let times = literals
        .iter()
        .take(MAX_LITERALS)
        .flat_map(|lit| dates_around(lit.trim_end_matches(['%', '_', '-'])))
        .filter(|d| d.len() > 10)
        .chain([format!("{} 12:00:00", nth_date(1))]);
    for t in times {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Dates far apart, for date arithmetic no literal anchors.
const SPREAD_DATES: [&str; 4] = ["1925-06-15", "1950-06-15", "1975-06-15", "2020-06-15"];

/// A calendar day (year 1000-2999, day within its month).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Day {
    year: i32,
    month: u32,
    day: u32,
}

fn days_in(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Day {
    fn next(self) -> Day {
        if self.day < days_in(self.year, self.month) {
            Day {
                day: self.day + 1,
                ..self
            }
        } else if self.month < 12 {
            Day {
                month: self.month + 1,
                day: 1,
                ..self
            }
        } else {
            Day {
                year: self.year + 1,
                month: 1,
                day: 1,
            }
        }
    }

    fn previous(self) -> Day {
        if self.day > 1 {
            Day {
                day: self.day - 1,
                ..self
            }
        } else if self.month > 1 {
            let month = self.month - 1;
            Day {
                month,
                day: days_in(self.year, month),
                ..self
            }
        } else {
            Day {
                year: self.year - 1,
                month: 12,
                day: 31,
            }
        }
    }

    fn text(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The first and last day of the period a date-shaped literal names: `YYYY`, `YYYY-MM`,
/// `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM:SS` (its day).
fn period(lit: &str) -> Option<(Day, Day)> {
    let num = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let date = lit.split(' ').next()?;
    let parts: Vec<&str> = date.split('-').collect();
    let year = num(parts.first().filter(|y| y.len() == 4)?)? as i32;
    if !(1000..=2999).contains(&year) {
        return None;
    }
    let month = match parts.get(1) {
        Some(m) if m.len() == 2 => Some(num(m).filter(|m| (1..=12).contains(m))?),
        Some(_) => return None,
        None => None,
    };
    let day = match (month, parts.get(2)) {
        (Some(m), Some(d)) if d.len() == 2 => {
            Some(num(d).filter(|d| (1..=days_in(year, m)).contains(d))?)
        }
        (_, Some(_)) => return None,
        _ => None,
    };
    if parts.len() > 3 || (lit.contains(' ') && day.is_none()) {
        return None;
    }
    let first = Day {
        year,
        month: month.unwrap_or(1),
        day: day.unwrap_or(1),
    };
    let last_month = month.unwrap_or(12);
    let last = Day {
        year,
        month: last_month,
        day: day.unwrap_or_else(|| days_in(year, last_month)),
    };
    Some((first, last))
}

/// Dates around a date-shaped literal: the period's first day, its last day at noon (inside
/// the period, after a `... 00:00:00` bound on it), and the days just before and after it, as
/// dates and as date-times. Nothing for other text.
pub fn dates_around(lit: &str) -> Vec<String> {
    let Some((first, last)) = period(lit) else {
        return Vec::new();
    };
    let (before, after) = (first.previous(), last.next());
    vec![
        first.text(),
        format!("{} 12:00:00", last.text()),
        format!("{} 00:00:00", first.text()),
        last.text(),
        before.text(),
        format!("{} 12:00:00", after.text()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_around_years_months_days_and_times() {
        assert_eq!(
            dates_around("1987"),
            [
                "1987-01-01",
                "1987-12-31 12:00:00",
                "1987-01-01 00:00:00",
                "1987-12-31",
                "1986-12-31",
                "1988-01-01 12:00:00"
            ]
        );
        assert_eq!(dates_around("2008-02")[1], "2008-02-29 12:00:00");
        assert_eq!(dates_around("2008-03")[4], "2008-02-29");
        assert_eq!(
            dates_around("1992-12-31 00:00:00")[5],
            "1993-01-01 12:00:00"
        );
        for not_a_date in [
            "east Bohemia",
            "19",
            "2008-13",
            "2008-02-30",
            "12345",
            "2008-1-1",
        ] {
            assert!(dates_around(not_a_date).is_empty(), "{not_a_date}");
        }
    }

    #[test]
    fn domain_holds_literals_patterns_dates_and_enough_fillers() {
        let (d, _) = text_domains(&["%bus%".into(), "2008".into(), "x".into(), "x".into()], 3);
        assert_eq!(&d[..2], ["%bus%", "bus"]);
        assert!(d.contains(&"2007-12-31".to_string()));
        assert_eq!(d.iter().filter(|t| *t == "x").count(), 1);
        assert_eq!(&d[d.len() - 3..], ["v1", "v2", "v3"]);
    }

    #[test]
    fn numeric_domain_holds_the_literals_a_fraction_and_enough_distinct_numbers() {
        let (_, d) = text_domains(&["Y".into(), "2".into(), "2.5".into()], 3);
        assert_eq!(d, ["Y", "2", "2.5", "1", "3", "4"]);
        // the fillers are numbers other than the literals, enough for distinct keys
        let (_, d) = text_domains(&[], 2);
        assert_eq!(d, ["2.5", "1", "2"]);
    }

    #[test]
    fn date_domain_holds_only_dates() {
        let lits = ["1991%", "1981-11-%", "08", "Beroun", "2012-08-26 13:00:00"].map(String::from);
        let d = date_domain(&lits, 2);
        for t in &d {
            let shaped = t.len() == 10 && t.as_bytes()[4] == b'-' && t.as_bytes()[7] == b'-';
            assert!(shaped && period(t).is_some(), "{t}");
        }
        // a year pattern, a month pattern, a month number, a date-time's day and the day after
        for want in [
            "1991-01-01",
            "1990-12-31",
            "1981-11-30",
            "2000-08-15",
            "2012-08-26",
            "2012-08-27",
        ] {
            assert!(d.contains(&want.to_string()), "{want} in {d:?}");
        }
        assert_eq!(&d[d.len() - 2..], ["2000-01-01", "2000-01-02"]);
        assert_eq!(nth_date(29), "2000-02-01");
    }
}
