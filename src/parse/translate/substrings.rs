//! Rule `substrings`: `SUBSTRING` in its forms, `SUBSTR`, `MID`, `LEFT` and `RIGHT` as SQLite's
//! `SUBSTRING(x, start[, length])`, with each dialect's reading of starts below 1.
//!
//! ```sql
//! -- before (postgres)
//! SELECT SUBSTRING(x FROM 2 FOR 3), SUBSTRING(x FROM 0 FOR 3), LEFT(x, 4), RIGHT(x, 2) FROM t
//! -- after
//! SELECT SUBSTRING(x, 2, 3), SUBSTRING(x, 1, 2), SUBSTRING(x, 1, 4), SUBSTRING(x, -2) FROM t
//! -- before (mysql)
//! SELECT SUBSTR(x, -2), MID(x, 2, 3) FROM t
//! -- after
//! SELECT CASE WHEN LENGTH(x) < 2 THEN '' ELSE SUBSTRING(x, -2) END, SUBSTRING(x, 2, 3) FROM t
//! ```
//!
//! A start of 1 or more with a length of 0 or more (or none) means the same everywhere. Below 1
//! the engines part ways:
//!
//! - SQLite and DuckDB count a negative start from the end, and a start of 0 as the position
//!   before the first character; DuckDB's `substring` is SQLite's, so it is kept as written.
//! - PostgreSQL and standard SQL take the characters at positions `start .. start + length - 1`
//!   that exist: the start is raised to 1 and the length shortened by as much (`MAX(start, 1)`
//!   for a start that is not a literal). A negative literal length is an error there: no
//!   translation.
//! - MySQL counts a negative start from the end but gives '' for a start of 0, for one before
//!   the first character and for a negative length (`MAX(length, 0)`).
//! - BigQuery counts a negative start from the end, and reads a start of 0, or one before the
//!   first character, as 1 (`CASE WHEN LENGTH(x) < 2 THEN SUBSTRING(x, 1, n) ...` for
//!   `SUBSTR(x, -2, n)`); a negative literal length is an error there: no translation.
//! - Snowflake: a literal start below 1 has no translation.
//!
//! A start computed from the data (`INSTR(x, ' ') + 1`) is taken as it is in MySQL, BigQuery and
//! Snowflake (docs/dialects.md, known limits). `LEFT(x, n)` is `SUBSTRING(x, 1, n)` and
//! `RIGHT(x, n)` the last `n` characters; a negative `n` keeps all but the last (LEFT) or first
//! (RIGHT) `-n` characters in PostgreSQL and DuckDB, none in MySQL, and is an error in BigQuery
//! (no translation). SQLite has no LEFT or RIGHT function at all.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Statement, VisitMut, VisitorMut};

use super::calls::{additive, binary, case, int, int_literal, name, plain_args, take, text};
use super::copies::copy;
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Substrings;

/// The construct left untranslated for a start or length the dialect reads differently.
const SUBSTRING_BELOW_1: &str = "SUBSTRING with a start below 1 or a negative length";

/// `SUBSTRING(x, start[, length])` as SQLite prints it.
fn substring(x: Expr, start: Expr, length: Option<Expr>) -> Expr {
    Expr::Substring {
        expr: Box::new(x),
        substring_from: Some(Box::new(start)),
        substring_for: length.map(Box::new),
        special: true,
        shorthand: false,
    }
}

fn length_of(x: &Expr) -> Expr {
    call("LENGTH", vec![copy(x)])
}

/// `MAX(e, floor)` (SQLite's scalar MAX: NULL when `e` is).
fn at_least(e: Expr, floor: i64) -> Expr {
    call("MAX", vec![e, int(floor)])
}

fn plus(a: Expr, b: Expr) -> Expr {
    additive(a, BinaryOperator::Plus, b)
}

fn minus(a: Expr, b: Expr) -> Expr {
    additive(a, BinaryOperator::Minus, b)
}

/// SUBSTRING(x, start[, length]) of `dialect`, or None where there is no faithful translation.
fn translate(x: Expr, start: Expr, length: Option<Expr>, dialect: Dialect) -> Option<Expr> {
    let s = int_literal(&start);
    let l = length.as_ref().map(int_literal);
    let plain_length = matches!(l, None | Some(Some(0..)));
    if s.is_some_and(|s| s >= 1) && plain_length || dialect == Dialect::Duckdb {
        return Some(substring(x, start, length));
    }
    match dialect {
        Dialect::Postgres | Dialect::Ansi => match (s, length) {
            (_, Some(_)) if matches!(l, Some(Some(..=-1))) => None,
            (Some(s), None) => Some(substring(x, int(s.max(1)), None)),
            (Some(s), Some(len)) => Some(match int_literal(&len) {
                Some(len) => substring(x, int(1), Some(int((s + len - 1).max(0)))),
                None => substring(x, int(1), Some(at_least(plus(len, int(s - 1)), 0))),
            }),
            (None, None) => Some(substring(x, at_least(start, 1), None)),
            (None, Some(len)) => {
                let first = at_least(copy(&start), 1);
                let end = at_least(plus(start, len), 1);
                Some(substring(x, copy(&first), Some(minus(end, first))))
            }
        },
        Dialect::Mysql => {
            let length = match (l, length) {
                (Some(Some(..=-1)), _) => return Some(substring(x, int(1), Some(int(0)))),
                (Some(None), Some(len)) => Some(at_least(len, 0)),
                (_, length) => length,
            };
            match s {
                Some(0) => Some(substring(x, int(1), Some(int(0)))),
                Some(s) if s < 0 => {
                    let short = binary(length_of(&x), BinaryOperator::Lt, int(-s));
                    Some(case(
                        vec![(short, text(""))],
                        Some(substring(x, int(s), length)),
                    ))
                }
                _ => Some(substring(x, start, length)),
            }
        }
        Dialect::Bigquery | Dialect::Snowflake => {
            if matches!(l, Some(Some(..=-1))) {
                return None;
            }
            let length = match (l, length) {
                (Some(None), Some(len)) => Some(at_least(len, 0)),
                (_, length) => length,
            };
            match s {
                Some(0) if dialect == Dialect::Bigquery => Some(substring(x, int(1), length)),
                Some(s) if s < 0 && dialect == Dialect::Bigquery => Some(match length {
                    None => substring(x, int(s), None),
                    Some(len) => {
                        let short = binary(length_of(&x), BinaryOperator::Lt, int(-s));
                        let from_first = substring(copy(&x), int(1), Some(copy(&len)));
                        case(
                            vec![(short, from_first)],
                            Some(substring(x, int(s), Some(len))),
                        )
                    }
                }),
                Some(..=0) => None,
                _ => Some(substring(x, start, length)),
            }
        }
        Dialect::Sqlite | Dialect::Duckdb => Some(substring(x, start, length)),
    }
}

/// LEFT(x, n) of `dialect`.
fn left(x: Expr, n: Expr, dialect: Dialect) -> Option<Expr> {
    let keeps_all_but = matches!(dialect, Dialect::Postgres | Dialect::Duckdb);
    Some(match int_literal(&n) {
        Some(0..) => substring(x, int(1), Some(n)),
        Some(k) if keeps_all_but => {
            let length = plus(length_of(&x), int(k));
            substring(x, int(1), Some(length))
        }
        Some(_) if dialect == Dialect::Mysql => substring(x, int(1), Some(int(0))),
        Some(_) => return None,
        None if keeps_all_but => {
            let negative = binary(copy(&n), BinaryOperator::Lt, int(0));
            let length = call("IIF", vec![negative, plus(length_of(&x), copy(&n)), n]);
            substring(x, int(1), Some(length))
        }
        None => substring(x, int(1), Some(at_least(n, 0))),
    })
}

/// RIGHT(x, n) of `dialect`.
fn right(x: Expr, n: Expr, dialect: Dialect) -> Option<Expr> {
    let keeps_all_but = matches!(dialect, Dialect::Postgres | Dialect::Duckdb);
    let from_end = |x: &Expr, n: Expr| at_least(plus(minus(length_of(x), n), int(1)), 1);
    Some(match int_literal(&n) {
        Some(1..) => substring(x, int(-int_literal(&n)?), None),
        Some(0) => substring(x, int(1), Some(int(0))),
        Some(k) if keeps_all_but => substring(x, int(1 - k), None),
        Some(_) if dialect == Dialect::Mysql => substring(x, int(1), Some(int(0))),
        Some(_) => return None,
        None if keeps_all_but => {
            let negative = binary(copy(&n), BinaryOperator::Lt, int(0));
            let start = call(
                "IIF",
                vec![negative, minus(int(1), copy(&n)), from_end(&x, n)],
            );
            substring(x, start, None)
        }
        None => {
            let start = from_end(&x, n);
            substring(x, start, None)
        }
    })
}

/// `LEFT(x, n)` (or `RIGHT(x, n)`, `right`) as the SQLite reading of a gold query takes it
/// (`sqlite_reading`): the translation every dialect shares for a length that is an integer
/// literal of 0 or more; any other length is untranslated ("LEFT with a length that is not a
/// literal of 0 or more in sqlite"), since PostgreSQL and MySQL read a negative one differently
/// and the text does not say which engine it was written for.
pub(crate) fn common_left_right(right_side: bool, x: Expr, n: Expr) -> Expr {
    let label = if right_side { "RIGHT" } else { "LEFT" };
    let construct = format!("{label} with a length that is not a literal of 0 or more");
    let args = vec![x.clone(), n.clone()];
    let common = match int_literal(&n) {
        Some(0..) if right_side => right(x, n, Dialect::Mysql),
        Some(0..) => left(x, n, Dialect::Mysql),
        _ => None,
    };
    common.unwrap_or_else(|| untranslated(&construct, Dialect::Sqlite, args))
}

struct Rewrite(Dialect);

impl Rewrite {
    /// The translation of `e`, None to leave it, or the construct it cannot translate.
    fn translate(&self, e: &Expr) -> Option<Result<Expr, &'static str>> {
        let d = self.0;
        match e {
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let start = substring_from.as_deref().cloned().unwrap_or_else(|| int(1));
                let length = substring_for.as_deref().cloned();
                Some(translate(*expr.clone(), start, length, d).ok_or(SUBSTRING_BELOW_1))
            }
            Expr::Function(f) => {
                let function = name(f);
                let mut args = plain_args(f)?;
                let n = args.len();
                let supported = match function.as_str() {
                    "substr" | "substring" => matches!(n, 2 | 3),
                    "mid" => d == Dialect::Mysql && matches!(n, 2 | 3),
                    "left" | "right" => n == 2 && d != Dialect::Ansi,
                    _ => false,
                };
                if !supported {
                    return None;
                }
                let second = args.remove(1);
                let x = args.remove(0);
                Some(match function.as_str() {
                    "left" => left(x, second, d).ok_or("LEFT with a negative length"),
                    "right" => right(x, second, d).ok_or("RIGHT with a negative length"),
                    _ => translate(x, second, args.pop(), d).ok_or(SUBSTRING_BELOW_1),
                })
            }
            _ => None,
        }
    }
}

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match self.translate(e) {
            Some(Ok(translated)) => *e = translated,
            Some(Err(construct)) => {
                let args = match take(e) {
                    Expr::Substring {
                        expr,
                        substring_from,
                        substring_for,
                        ..
                    } => std::iter::once(*expr)
                        .chain(substring_from.map(|b| *b))
                        .chain(substring_for.map(|b| *b))
                        .collect(),
                    Expr::Function(f) => plain_args(&f).unwrap_or_default(),
                    _ => vec![],
                };
                *e = untranslated(construct, self.0, args);
            }
            None => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Substrings {
    fn name(&self) -> &'static str {
        "substrings"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
