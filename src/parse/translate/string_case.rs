//! Rule `string_case`: each dialect's letter-case rules for LIKE and text comparisons, in
//! SQLite's spelling.
//!
//! ```sql
//! -- before (postgres: LIKE tells case apart, ILIKE does not)
//! SELECT a FROM t WHERE b LIKE 'Ab%' AND c ILIKE '%x%' AND d LIKE '%2012%'
//! -- after
//! SELECT a FROM t WHERE glob('Ab*', b) AND c LIKE '%x%' AND d LIKE '%2012%'
//! ```
//!
//! SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's, DuckDB's, Snowflake's,
//! BigQuery's and standard SQL's LIKE does not. A LIKE whose pattern has an ASCII letter becomes
//! SQLite's `glob(pattern, x)` (the function form of `x GLOB pattern`, which the planner reads as
//! a call) with the pattern in GLOB's syntax: `%` is `*`, `_` is `?`, and `*`, `?` and `[` match
//! themselves as `[*]`, `[?]` and `[[]`; a pattern that is not a literal is converted the same way
//! with `REPLACE` calls. The escape character is the ESCAPE clause's, else a backslash in
//! PostgreSQL, MySQL and BigQuery (none in the others); a non-literal pattern with one has no
//! translation. `ILIKE` ignores case: SQLite's LIKE (ASCII letters only, as everywhere here).
//!
//! MySQL's LIKE ignores case as SQLite's does, and keeps SQLite's LIKE (a backslash in the
//! pattern escapes, as in MySQL). MySQL's default collation (`utf8mb4_0900_ai_ci`) also compares
//! text with `=`, `<`, `IN` and `INSTR` without case; those stay SQLite's case-sensitive
//! comparisons, as in sqlglot's translation (docs/dialects.md, known limits, says why). A
//! `COLLATE` naming a collation SQLite lacks has no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, ObjectName, Statement, UnaryOperator, VisitMut, VisitorMut};

use super::calls::{take, text, text_literal};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct StringCase;

/// Whether LIKE tells letter case apart in `dialect`.
fn case_sensitive_like(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::Postgres
            | Dialect::Duckdb
            | Dialect::Snowflake
            | Dialect::Bigquery
            | Dialect::Ansi
    )
}

/// The escape character of a LIKE without ESCAPE clause in `dialect`.
fn default_escape(dialect: Dialect) -> Option<char> {
    matches!(
        dialect,
        Dialect::Postgres | Dialect::Mysql | Dialect::Bigquery
    )
    .then_some('\\')
}

fn has_letter(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_alphabetic())
}

/// A LIKE pattern in GLOB's syntax.
fn glob_pattern(like: &str, escape: Option<char>) -> String {
    let mut out = String::with_capacity(like.len() + 4);
    let mut chars = like.chars();
    while let Some(c) = chars.next() {
        let c = if Some(c) == escape {
            chars.next().unwrap_or(c)
        } else {
            match c {
                '%' => {
                    out.push('*');
                    continue;
                }
                '_' => {
                    out.push('?');
                    continue;
                }
                c => c,
            }
        };
        if matches!(c, '*' | '?' | '[') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

/// A non-literal LIKE pattern converted into GLOB's syntax when the query runs.
fn glob_pattern_of(pattern: Expr) -> Expr {
    [
        ("[", "[[]"),
        ("*", "[*]"),
        ("?", "[?]"),
        ("%", "*"),
        ("_", "?"),
    ]
    .into_iter()
    .fold(pattern, |p, (from, to)| {
        call("REPLACE", vec![p, text(from), text(to)])
    })
}

/// The escape character of an ESCAPE clause, Err for one that is not a one-character literal.
fn escape_of(clause: Option<&Expr>, dialect: Dialect) -> Result<Option<char>, ()> {
    match clause {
        None => Ok(default_escape(dialect)),
        Some(e) => {
            let s = text_literal(e).ok_or(())?;
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (c, None) => Ok(c),
                _ => Err(()),
            }
        }
    }
}

struct Rewrite(Dialect);

impl Rewrite {
    /// A case-sensitive LIKE of `x` and `pattern`.
    fn like(&self, x: Expr, pattern: Expr, escape: Option<Expr>, negated: bool) -> Expr {
        let label = if negated { "NOT LIKE" } else { "LIKE" };
        let Ok(escape_char) = escape_of(escape.as_ref(), self.0) else {
            let args = [x, pattern].into_iter().chain(escape).collect();
            return untranslated(&format!("{label} with this ESCAPE"), self.0, args);
        };
        let literal = text_literal(&pattern).map(str::to_string);
        let glob_arg = match literal {
            Some(p) if !has_letter(&p) => {
                return like_expr(
                    x,
                    pattern,
                    escape_for_sqlite(escape, escape_char, &p),
                    negated,
                )
            }
            Some(p) => text(&glob_pattern(&p, escape_char)),
            None if escape_char.is_none() => glob_pattern_of(pattern),
            None => {
                let args = [x, pattern].into_iter().chain(escape).collect();
                return untranslated(&format!("{label} of a computed pattern"), self.0, args);
            }
        };
        let glob = call("glob", vec![glob_arg, x]);
        if negated {
            Expr::UnaryOp {
                op: UnaryOperator::Not,
                expr: Box::new(glob),
            }
        } else {
            glob
        }
    }

    /// MySQL's LIKE with a backslash in its pattern: an escape, as SQLite needs it said.
    fn mysql(&self, e: &mut Expr) {
        match e {
            Expr::Like {
                pattern,
                escape_char: escape_char @ None,
                any: false,
                ..
            } if text_literal(pattern).is_some_and(|p| p.contains('\\')) => {
                *escape_char = Some(Box::new(text("\\")));
            }
            _ => {}
        }
    }
}

/// The ESCAPE clause SQLite needs for a LIKE pattern `p` that stays a LIKE.
fn escape_for_sqlite(clause: Option<Expr>, escape: Option<char>, p: &str) -> Option<Expr> {
    clause.or_else(|| {
        escape
            .filter(|c| p.contains(*c))
            .map(|c| text(&c.to_string()))
    })
}

fn like_expr(x: Expr, pattern: Expr, escape: Option<Expr>, negated: bool) -> Expr {
    Expr::Like {
        negated,
        any: false,
        expr: Box::new(x),
        pattern: Box::new(pattern),
        escape_char: escape.map(Box::new),
    }
}

/// Whether SQLite has the collation `name`.
fn sqlite_collation(name: &ObjectName) -> bool {
    let n = name
        .to_string()
        .trim_matches(['"', '`'])
        .to_ascii_uppercase();
    matches!(n.as_str(), "BINARY" | "NOCASE" | "RTRIM")
}

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Collate { expr, collation } = e {
            if !sqlite_collation(collation) {
                let construct = format!("COLLATE {collation}");
                *e = untranslated(&construct, self.0, vec![take(expr)]);
            }
            return ControlFlow::Continue(());
        }
        if self.0 == Dialect::Mysql {
            self.mysql(e);
            return ControlFlow::Continue(());
        }
        let (negated, x, pattern, escape, case_sensitive) = match e {
            Expr::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char,
            } => (*negated, expr, pattern, escape_char, true),
            Expr::ILike {
                negated,
                any: false,
                expr,
                pattern,
                escape_char,
            } => (*negated, expr, pattern, escape_char, false),
            _ => return ControlFlow::Continue(()),
        };
        let (x, pattern, escape) = (take(x), take(pattern), escape.take().map(|b| *b));
        *e = if case_sensitive {
            self.like(x, pattern, escape, negated)
        } else {
            let escape = match (&escape, text_literal(&pattern)) {
                (None, Some(p)) => escape_for_sqlite(None, default_escape(self.0), p),
                _ => escape,
            };
            like_expr(x, pattern, escape, negated)
        };
        ControlFlow::Continue(())
    }
}

impl Rule for StringCase {
    fn name(&self) -> &'static str {
        "string_case"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        case_sensitive_like(dialect) || dialect == Dialect::Mysql
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
