//! Rule `string_functions`: string lengths and trimming in SQLite's spelling, and the string
//! functions SQLite has no spelling of marked untranslated.
//!
//! ```sql
//! -- before (mysql)
//! SELECT LENGTH(x), CHAR_LENGTH(x), TRIM(LEADING '0' FROM y) FROM t
//! -- after
//! SELECT OCTET_LENGTH(x), LENGTH(x), LTRIM(y, '0') FROM t
//! -- before (postgres)
//! SELECT CHARACTER_LENGTH(x), BTRIM(y, 'xy'), SPLIT_PART(z, ',', 2) FROM t
//! -- after
//! SELECT LENGTH(x), TRIM(y, 'xy'), sqlsim_untranslated('SPLIT_PART in postgres', z, ',', 2) FROM t
//! ```
//!
//! SQLite's `LENGTH` counts the characters of a text. So do `LENGTH` in PostgreSQL, DuckDB,
//! Snowflake and BigQuery, `CHAR_LENGTH`/`CHARACTER_LENGTH` everywhere and `LEN` (Snowflake,
//! DuckDB); MySQL's `LENGTH` counts bytes, as do DuckDB's `STRLEN` and BigQuery's `BYTE_LENGTH`:
//! `OCTET_LENGTH` (registered by sqlsim on every connection, SQLite 3.43's).
//!
//! `TRIM([BOTH | LEADING | TRAILING] [chars] FROM x)`, `TRIM(x, chars)` and PostgreSQL's
//! `BTRIM(x, chars)` remove any of the characters `chars` (spaces without them) from both ends,
//! the start or the end, as SQLite's `TRIM`, `LTRIM` and `RTRIM` do. MySQL removes `chars` as a
//! whole string, repeatedly: the same for one character, no translation for more. BigQuery's
//! `TRIM(x)` removes all Unicode whitespace, SQLite's spaces only (docs/dialects.md, known limits).
//!
//! `SPLIT_PART`, `LPAD`, `RPAD`, `REPEAT`, `REVERSE`, `INITCAP` and MySQL's `SUBSTRING_INDEX`
//! have no SQLite spelling and no registered function: no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Statement, TrimWhereField, VisitMut, VisitorMut};

use super::calls::{name, plain_args, take, text_literal};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct StringFunctions;

/// Functions without a SQLite spelling.
const WITHOUT_SPELLING: [&str; 7] = [
    "split_part",
    "lpad",
    "rpad",
    "repeat",
    "reverse",
    "initcap",
    "substring_index",
];

/// SQLite's name for a length function of `dialect`, if it is one.
fn length_function(function: &str, dialect: Dialect) -> Option<&'static str> {
    use Dialect::*;
    Some(match (function, dialect) {
        ("length", Mysql) | ("strlen", Duckdb) | ("byte_length", Bigquery) => "OCTET_LENGTH",
        ("length", Postgres | Duckdb | Snowflake | Bigquery | Ansi)
        | ("char_length" | "character_length", _)
        | ("len", Snowflake | Duckdb) => "LENGTH",
        _ => return None,
    })
}

/// The SQLite call trimming `chars` (or spaces) from `x` at `side`, or None where the dialect's
/// TRIM means something else.
fn trim(
    x: Expr,
    side: Option<&TrimWhereField>,
    chars: Option<Expr>,
    dialect: Dialect,
) -> Option<Expr> {
    if dialect == Dialect::Mysql {
        if let Some(c) = &chars {
            text_literal(c).filter(|s| s.chars().count() == 1)?;
        }
    }
    let function = match side {
        Some(TrimWhereField::Leading) => "LTRIM",
        Some(TrimWhereField::Trailing) => "RTRIM",
        Some(TrimWhereField::Both) | None => "TRIM",
    };
    Some(call(function, std::iter::once(x).chain(chars).collect()))
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Trim {
                trim_where,
                trim_what,
                expr,
                trim_characters,
            } => {
                let chars = match (trim_what.take(), trim_characters.take()) {
                    (Some(what), _) => Some(*what),
                    (None, Some(mut list)) if list.len() == 1 => list.pop(),
                    (None, Some(list)) if list.is_empty() => None,
                    (None, Some(list)) => {
                        let args = std::iter::once(take(expr)).chain(list).collect();
                        *e = untranslated("TRIM of several character lists", self.0, args);
                        return ControlFlow::Continue(());
                    }
                    (None, None) => None,
                };
                let x = take(expr);
                *e = match trim(x.clone(), trim_where.as_ref(), chars.clone(), self.0) {
                    Some(t) => t,
                    None => untranslated(
                        "TRIM of a string longer than one character",
                        self.0,
                        std::iter::once(x).chain(chars).collect(),
                    ),
                };
            }
            Expr::Function(f) => {
                let function = name(f);
                let Some(args) = plain_args(f) else {
                    return ControlFlow::Continue(());
                };
                if let Some(sqlite) = length_function(&function, self.0).filter(|_| args.len() == 1)
                {
                    *e = call(sqlite, args);
                } else if function == "btrim" && self.0 == Dialect::Postgres && !args.is_empty() {
                    *e = call("TRIM", args);
                } else if WITHOUT_SPELLING.contains(&function.as_str()) {
                    *e = untranslated(&function.to_uppercase(), self.0, args);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for StringFunctions {
    fn name(&self) -> &'static str {
        "string_functions"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
