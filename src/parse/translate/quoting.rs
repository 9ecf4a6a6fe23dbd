//! Rule `quoting`: every dialect's string and name quoting in SQLite's spelling.
//!
//! ```sql
//! -- before (mysql)
//! SELECT "Paris", `City` FROM t WHERE name = "Anna"
//! -- after (names in double quotes once printed: see `requote_names`)
//! SELECT 'Paris', "City" FROM t WHERE name = 'Anna'
//! -- before (postgres)
//! SELECT "City", E'it''s', $$a$$ FROM t WHERE airline = "UAL"
//! -- after
//! SELECT "City", 'it''s', 'a' FROM t WHERE airline = "UAL"
//! ```
//!
//! MySQL and BigQuery read a double-quoted token as a string; the other dialects as a name. The
//! dialect's parser has already decided which, so every string literal becomes a single-quoted
//! SQLite string (escape, dollar-quoted, national and raw strings included), and once the
//! statement is printed, [`requote_names`] puts every quoted name (double-quoted, or backquoted
//! in MySQL and BigQuery) in double quotes. So a quoted name that names no column or alias in
//! scope is read as SQLite reads it, as a string, instead of failing the query: a deliberate
//! leniency, because sqlglot and LLMs carry SQLite's double-quoted strings (`"UAL"` in Spider's
//! gold) into other dialects as quoted names (docs/dialects.md). A table named with its schema,
//! database or project (`public.users`, `db.schema.t`, BigQuery's
//! `` `project.dataset.table` ``) keeps its last part, the table, as the normalization pass
//! `database_qualifiers` does for `db.table`: sqlsim's schemas name tables alone.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Ident, ObjectName, ObjectNamePart, Statement, Value, VisitMut, VisitorMut,
};

use super::Rule;
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Quoting;

/// The text of a string literal of any quoting, or None for a value that is not a string.
fn string_text(v: &Value) -> Option<String> {
    match v {
        Value::DoubleQuotedString(s)
        | Value::EscapedStringLiteral(s)
        | Value::NationalStringLiteral(s)
        | Value::SingleQuotedRawStringLiteral(s)
        | Value::DoubleQuotedRawStringLiteral(s)
        | Value::TripleSingleQuotedString(s)
        | Value::TripleDoubleQuotedString(s)
        | Value::UnicodeStringLiteral(s) => Some(s.clone()),
        Value::DollarQuotedString(d) => Some(d.value.clone()),
        _ => None,
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Value(v) = e {
            if let Some(s) = string_text(&v.value) {
                v.value = Value::SingleQuotedString(s);
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_relation(&mut self, name: &mut ObjectName) -> ControlFlow<()> {
        let last = match name.0.as_slice() {
            [ObjectNamePart::Identifier(id)] if self.0 == Dialect::Bigquery => {
                match id.value.rsplit_once('.') {
                    Some((_, table)) => Ident::with_quote('`', table),
                    None => return ControlFlow::Continue(()),
                }
            }
            [.., _, ObjectNamePart::Identifier(table)] => table.clone(),
            _ => return ControlFlow::Continue(()),
        };
        name.0 = vec![ObjectNamePart::Identifier(last)];
        ControlFlow::Continue(())
    }
}

impl Rule for Quoting {
    fn name(&self) -> &'static str {
        "quoting"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}

/// `sql` (printed by sqlparser, every string single-quoted) with each quoted name in double
/// quotes (a double quote inside doubled), where SQLite reads one that names nothing as a string;
/// strings and everything else byte for byte.
///
/// ```
/// use sqlsim::parse::translate::quoting::requote_names;
/// assert_eq!(requote_names(r#"SELECT `a"b`, 'x`y', "c" FROM `T`"#), r#"SELECT "a""b", 'x`y', "c" FROM "T""#);
/// assert_eq!(requote_names("SELECT `a``b`"), r#"SELECT "a`b""#);
/// ```
pub fn requote_names(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                // a string, or a name already in double quotes: byte for byte
                out.push(c);
                while let Some(s) = chars.next() {
                    out.push(s);
                    if s == c {
                        if chars.peek() == Some(&c) {
                            out.push(c);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
            }
            '`' => {
                let mut name = String::new();
                while let Some(s) = chars.next() {
                    if s == '`' {
                        if chars.peek() == Some(&'`') {
                            name.push('`');
                            chars.next();
                            continue;
                        }
                        break;
                    }
                    name.push(s);
                }
                out.push('"');
                out.push_str(&name.replace('"', "\"\""));
                out.push('"');
            }
            _ => out.push(c),
        }
    }
    out
}
