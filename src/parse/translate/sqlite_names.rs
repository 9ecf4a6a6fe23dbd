//! Names in a translation that SQLite's reading would not take for names, quoted (rule
//! `sqlite_grammar`): SQLite's reserved words (`order`), words its tokenizer does not read
//! unquoted (PostgreSQL's `emoji😀`), and words sqlparser's SQLite reading takes for keywords
//! where another dialect reads a name (Snowflake's `INTERVAL`, a table aliased `END`).

use sqlparser::ast::Ident;
use sqlparser::dialect::{Dialect as _, SQLiteDialect};
use sqlparser::keywords::{Keyword, ALL_KEYWORDS, ALL_KEYWORDS_INDEX, RESERVED_FOR_TABLE_ALIAS};

/// SQLite's keywords that it never reads as a bare name (its keywords less those its parser
/// falls back to a name for, and less FILTER, OVER and WINDOW, which its tokenizer reads as
/// names where no clause follows), and CAST and RAISE, which start an expression where a name
/// could (`SELECT cast` is an incomplete CAST to SQLite).
pub(super) const RESERVED: &[&str] = &[
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "AS",
    "AUTOINCREMENT",
    "BETWEEN",
    "CASE",
    "CAST",
    "CHECK",
    "COLLATE",
    "COMMIT",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "DEFAULT",
    "DEFERRABLE",
    "DELETE",
    "DISTINCT",
    "DROP",
    "ELSE",
    "ESCAPE",
    "EXCEPT",
    "EXISTS",
    "FOREIGN",
    "FROM",
    "FULL",
    "GROUP",
    "HAVING",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "LEFT",
    "LIMIT",
    "NATURAL",
    "NOT",
    "NOTHING",
    "NOTNULL",
    "NULL",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "PRIMARY",
    "RAISE",
    "REFERENCES",
    "RETURNING",
    "RIGHT",
    "SELECT",
    "SET",
    "TABLE",
    "THEN",
    "TO",
    "TRANSACTION",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
];

/// Whether SQLite's tokenizer (sqlparser's, which reads the translation again) reads `name`
/// unquoted as one name: another dialect's may take more (PostgreSQL's an emoji).
fn bare_in_sqlite(name: &str) -> bool {
    let sqlite = SQLiteDialect {};
    let mut chars = name.chars();
    chars.next().is_some_and(|c| sqlite.is_identifier_start(c))
        && chars.all(|c| sqlite.is_identifier_part(c))
}

/// sqlparser's keyword spelled `name` (in any case), if it is one.
fn keyword(name: &str) -> Option<Keyword> {
    let upper = name.to_ascii_uppercase();
    let index = ALL_KEYWORDS.binary_search(&upper.as_str()).ok()?;
    Some(ALL_KEYWORDS_INDEX[index])
}

/// Whether sqlparser's SQLite reading takes the bare word `name` for a keyword wherever an
/// expression may start (`INTERVAL`, `EXISTS`, `STRUCT`, `TRIM`: Snowflake reads `INTERVAL`
/// as a name).
fn reserved_in_expressions(name: &str) -> bool {
    keyword(name).is_some_and(|k| SQLiteDialect {}.is_reserved_for_identifier(k))
}

/// Whether sqlparser's SQLite reading takes the bare word `name` after a table for a clause,
/// not for the table's alias (`FETCH`, `END`: Snowflake reads `FROM t END` as `t` named `END`).
fn reserved_after_table(name: &str) -> bool {
    keyword(name).is_some_and(|k| RESERVED_FOR_TABLE_ALIAS.contains(&k))
}

/// Quotes `id` in brackets, which SQLite never reads as a string (a name the query quoted may
/// be read as one), when it is bare and `reserved` says SQLite's reading would not take it for
/// a name.
fn quote_if(id: &mut Ident, reserved: impl Fn(&str) -> bool) {
    if id.quote_style.is_none() && !id.value.contains(']') && reserved(&id.value) {
        id.quote_style = Some('[');
    }
}

/// Quotes a bare name SQLite's reading would take for something else: a reserved word of
/// SQLite, a word its tokenizer does not read unquoted, or a keyword where an expression starts.
pub(super) fn quote_unreadable_name(id: &mut Ident) {
    quote_if(id, |name| {
        RESERVED.contains(&name.to_ascii_uppercase().as_str())
            || !bare_in_sqlite(name)
            || reserved_in_expressions(name)
    });
}

/// Quotes a bare table alias SQLite's reading would take for a clause (`FROM t END`).
pub(super) fn quote_unreadable_alias(alias: &mut Ident) {
    quote_if(alias, reserved_after_table);
}
