//! SQL text → sqlparser AST, SQLite dialect first, with the quirks of real benchmark SQL handled.
//!
//! What the wrapper adds to sqlparser:
//! - a recursion limit ([`RECURSION_LIMIT`]) so that deeply nested input returns an error instead of
//!   overflowing the stack; every later stage (normalization visitors, the tree builder, `Display`,
//!   `Drop`) recurses over the AST, so this one limit bounds all of them;
//! - lexical repairs of quirks seen in Spider/BIRD/LLM output ([`preprocess`]): `! =` written with a
//!   space, identifiers that start with digits (`18_49_Rating_Share`);
//! - a limit on operator chains ([`MAX_OPERATOR_CHAIN`]): a chain such as `a = 1 AND a = 1 AND ...`,
//!   `1 + 1 + ...` or `SELECT .. UNION SELECT .. UNION ...` is parsed without recursion into a tree
//!   as deep as the chain is long, which the recursion limit does not see but every later stage
//!   (and sqlparser's own `Drop`) recurses over;
//! - a fallback to sqlparser's MySQL dialect when the SQLite dialect fails (backslash-escaped quotes
//!   such as `'Women\'s Soccer'` in LLM predictions).
//!
//! Double-quoted identifiers that SQLite would read as strings are handled later, by the
//! `double_quoted_strings` normalization pass, because that needs the names used in the query.

pub mod dialect;
mod duckdb_calls;
pub mod preprocess;
pub mod translate;

use crate::error::{Error, Result};
use sqlparser::ast::Statement;
use sqlparser::dialect::{Dialect, MySqlDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer, Word};

/// Maximum nesting depth the parser accepts (sqlparser counts one level per nested expression,
/// parenthesis or subquery). Chosen so that parsing, normalizing, building the tree, printing and
/// dropping the deepest accepted AST fits in a 2 MiB thread stack in a debug build (see the test
/// `deep_nesting_within_limit_fits_small_stack`); real benchmark queries stay below 15.
pub const RECURSION_LIMIT: usize = 48;

/// Longest SQL text sqlsim will look at; longer input is treated as SQL that does not parse.
pub const MAX_SQL_BYTES: usize = 1 << 20;

/// Longest chain of infix operators (symbols such as `+`, `=`, `||`, and the words AND, OR, IS,
/// LIKE, ...) in one expression, and most set operations (UNION, INTERSECT, EXCEPT) at one level.
/// A chain nests as deep as it is long; at this bound the deepest tree survives every stage,
/// including sqlparser's recursive `Clone` and `Drop` (about 1 KiB of stack per level), on a 1 MiB
/// thread stack, beside the nesting [`RECURSION_LIMIT`] allows (SQLite itself stops at 1000).
pub const MAX_OPERATOR_CHAIN: usize = 400;

/// Words that continue an operator chain.
const OPERATOR_WORDS: &[&str] = &[
    "and", "or", "is", "not", "like", "glob", "regexp", "match", "between", "collate", "escape",
    "in",
];
/// Words that continue the chain of set operations of one query level.
const SET_OPERATION_WORDS: &[&str] = &["union", "intersect", "except"];
/// Words that end an expression (and so an operator chain).
const CLAUSE_WORDS: &[&str] = &[
    "select", "from", "where", "group", "having", "order", "by", "limit", "offset", "on", "using",
    "join", "case", "when", "then", "else", "end", "values", "as",
];

/// Operator chain lengths of one parenthesis level.
#[derive(Default)]
struct Chains {
    operators: usize,
    set_operations: usize,
}

/// Checks `sql` against [`MAX_OPERATOR_CHAIN`] with one pass over the bytes (string literals,
/// quoted identifiers and comments skipped, one counter per parenthesis level); the message says
/// what was exceeded.
pub fn check_operator_chains(sql: &str) -> Result<()> {
    let bytes = sql.as_bytes();
    let mut levels = vec![Chains::default()];
    let mut i = 0;
    while i < bytes.len() {
        if let Some(next) = skipped(bytes, i) {
            i = next; // a string, quoted name or comment: no operator in it
            continue;
        }
        let c = bytes[i];
        let top = levels.len() - 1;
        match c {
            b'(' => {
                levels.push(Chains::default());
                i += 1;
            }
            b')' => {
                if levels.len() > 1 {
                    levels.pop();
                }
                i += 1;
            }
            b',' | b';' => {
                levels[top].operators = 0;
                i += 1;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &sql[start..i];
                let is = |words: &[&str]| words.iter().any(|w| w.eq_ignore_ascii_case(word));
                if is(OPERATOR_WORDS) {
                    levels[top].operators += 1;
                } else if is(SET_OPERATION_WORDS) {
                    levels[top].set_operations += 1;
                } else if is(CLAUSE_WORDS) {
                    levels[top].operators = 0;
                }
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'&' | b'<' | b'>' | b'=' | b'!' | b'~'
            | b'^' | b':' => {
                // a two-character operator (`||`, `<=`, `::`) counts once
                let pair = bytes.get(i + 1).is_some_and(|n| b"|=<>:".contains(n));
                levels[top].operators += 1;
                i += if pair { 2 } else { 1 };
            }
            _ => i += 1,
        }
        if let Some(level) = levels.last() {
            if level.operators > MAX_OPERATOR_CHAIN || level.set_operations > MAX_OPERATOR_CHAIN {
                return Err(Error::Parse(format!(
                    "query chains over {MAX_OPERATOR_CHAIN} operators in one expression, sqlsim's limit"
                )));
            }
        }
    }
    Ok(())
}

/// Where the quoted string or name, or the comment, that starts at byte `i` of `bytes` ends
/// (the byte after it), or None when none starts there.
fn skipped(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    match bytes[i] {
        c @ (b'\'' | b'"' | b'`' | b'[') => {
            let close = if c == b'[' { b']' } else { c };
            j += 1;
            while j < bytes.len() && bytes[j] != close {
                j += 1;
            }
            Some(j + 1)
        }
        b'-' if bytes.get(i + 1) == Some(&b'-') => {
            while j < bytes.len() && bytes[j] != b'\n' {
                j += 1;
            }
            Some(j)
        }
        b'/' if bytes.get(i + 1) == Some(&b'*') => {
            j += 2;
            while j + 1 < bytes.len() && !(bytes[j] == b'*' && bytes[j + 1] == b'/') {
                j += 1;
            }
            Some(j + 2)
        }
        _ => None,
    }
}

/// The deepest nesting of parentheses in `sql` outside quoted strings, names and comments.
pub(crate) fn parenthesis_depth(sql: &str) -> usize {
    let bytes = sql.as_bytes();
    let (mut i, mut depth, mut deepest) = (0, 0usize, 0usize);
    while i < bytes.len() {
        if let Some(next) = skipped(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

fn parse_with(dialect: &dyn Dialect, sql: &str) -> Result<Vec<Statement>> {
    Parser::new(dialect)
        .with_recursion_limit(RECURSION_LIMIT)
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| Error::Parse(e.to_string()))
}

/// Parses `sql` with names that start with `$` (`$f9`, `$cor0`, as Calcite prints them) read as
/// names: sqlparser's tokenizer reads them as placeholders, which no standard SQL query holds.
fn parse_with_dollar_names(dialect: &dyn Dialect, sql: &str) -> Result<Vec<Statement>> {
    let tokens = Tokenizer::new(dialect, sql)
        .tokenize_with_location()
        .map_err(|e| Error::Parse(e.to_string()))?
        .into_iter()
        .map(|t| match t.token {
            Token::Placeholder(p)
                if p.strip_prefix('$').is_some_and(|name| {
                    name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                }) =>
            {
                // in brackets, which SQLite never reads as a string: the name was not quoted
                let word = Word {
                    value: p,
                    quote_style: Some('['),
                    keyword: Keyword::NoKeyword,
                };
                TokenWithSpan::new(Token::Word(word), t.span)
            }
            _ => t,
        })
        .collect();
    Parser::new(dialect)
        .with_recursion_limit(RECURSION_LIMIT)
        .with_tokens_with_locations(tokens)
        .parse_statements()
        .map_err(|e| Error::Parse(e.to_string()))
}

/// Parses `sql` into statements: SQLite dialect first, MySQL dialect as a fallback. A text
/// tagged with another dialect (`dialect::tag`) is parsed as its SQLite translation
/// (`translate::sqlite_text`), so that every later stage sees SQLite's meaning.
///
/// Text with no statement at all (empty, only comments or semicolons) is an error: it is not a query.
///
/// ```
/// let stmts = sqlsim::parse::parse_sql("SELECT `EXPR$0` FROM t WHERE a ! = 1;").unwrap();
/// assert_eq!(stmts.len(), 1);
/// assert!(sqlsim::parse::parse_sql("SELEC x").is_err());
/// ```
pub fn parse_sql(sql: &str) -> Result<Vec<Statement>> {
    parse_sqlite(&translate::sqlite_text(sql)?)
}

/// Parses SQLite text as [`parse_sql`] does once the text is SQLite (its limits, repairs and
/// fallback), with no translation.
pub(crate) fn parse_sqlite(sqlite: &str) -> Result<Vec<Statement>> {
    check_operator_chains(sqlite)?;
    let text = preprocess::preprocess(sqlite);
    let statements = match parse_with(&SQLiteDialect {}, &text) {
        Ok(s) => s,
        Err(first) => match parse_with(&MySqlDialect {}, &text) {
            Ok(s) => s,
            // Report the SQLite dialect's message: it is the dialect sqlsim claims to follow.
            Err(_) => return Err(first),
        },
    };
    if statements.is_empty() {
        return Err(Error::Parse("no SQL statement in the text".into()));
    }
    Ok(statements)
}

/// Parses `sql` with the parser of `dialect` alone, under the same limits as [`parse_sql`]
/// (the first step of a translation; no SQLite repairs, no fallback).
pub fn parse_in(dialect: dialect::Dialect, sql: &str) -> Result<Vec<Statement>> {
    check_operator_chains(sql)?;
    let statements = match dialect {
        dialect::Dialect::Ansi => parse_with_dollar_names(dialect.parser().as_ref(), sql),
        _ => parse_with(dialect.parser().as_ref(), sql),
    }
    .map_err(|e| Error::Parse(format!("{} ({})", e, dialect.name())))?;
    if statements.is_empty() {
        return Err(Error::Parse("no SQL statement in the text".into()));
    }
    Ok(statements)
}

/// The alias of a table in FROM, of the kinds SQLite reads (a table, a derived table, a
/// table-valued function, a nested join).
pub fn table_alias(
    table: &mut sqlparser::ast::TableFactor,
) -> Option<&mut sqlparser::ast::TableAlias> {
    use sqlparser::ast::TableFactor;
    match table {
        TableFactor::Table { alias, .. }
        | TableFactor::Derived { alias, .. }
        | TableFactor::TableFunction { alias, .. }
        | TableFactor::Function { alias, .. }
        | TableFactor::NestedJoin { alias, .. } => alias.as_mut(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_sql_reads_dollar_names_as_names() {
        let sql = "SELECT $f9, EXPR$0 FROM t AS $cor0 WHERE $cor0.a = $_x";
        let statements = parse_in(dialect::Dialect::Ansi, sql).unwrap();
        assert_eq!(
            statements[0].to_string(),
            "SELECT [$f9], EXPR$0 FROM t AS [$cor0] WHERE [$cor0].a = [$_x]"
        );
        // a positional parameter stays one, and is not standard SQL's
        assert!(parse_in(dialect::Dialect::Ansi, "SELECT $1 FROM t").is_ok());
        assert!(parse_in(dialect::Dialect::Postgres, "SELECT a AS $f9 FROM t").is_err());
    }

    #[test]
    fn parses_benchmark_quirks() {
        for sql in [
            "SELECT count(*) AS `EXPR$0` FROM singer",
            "SELECT \"name\" FROM singer WHERE country = \"France\";",
            "select T1.a from t as T1 where T1.b != 3 -- trailing comment\n;",
            "/* c */ SELECT a FROM t WHERE b ! =  'x'",
            "select max(Share),min(Share),18_49_Rating_Share from TV_series",
            "SELECT t.18_49_rating_share FROM tv_series t",
            "SELECT COUNT(*) FROM event WHERE event_name = 'Women\\'s Soccer'",
        ] {
            assert!(parse_sql(sql).is_ok(), "{sql}: {:?}", parse_sql(sql));
        }
    }

    #[test]
    fn operator_chains_are_bounded_outside_strings_and_comments() {
        let chain = |n: usize, op: &str| format!("SELECT {} FROM t", vec!["a"; n].join(op));
        assert!(parse_sql(&chain(MAX_OPERATOR_CHAIN + 1, " || ")).is_ok());
        let err = parse_sql(&chain(MAX_OPERATOR_CHAIN + 2, " AND "))
            .unwrap_err()
            .to_string();
        assert!(err.contains("operators"), "{err}");
        // many short expressions are not a chain
        assert!(parse_sql(&chain(3 * MAX_OPERATOR_CHAIN, " = 1, ")).is_ok());
        let unions = vec!["SELECT a FROM t"; MAX_OPERATOR_CHAIN + 2].join(" UNION ");
        assert!(parse_sql(&unions).is_err());
        let quiet = format!(
            "SELECT '{0}', \"{0}\" FROM t -- {0}\n/* {0} */",
            "+".repeat(3 * MAX_OPERATOR_CHAIN)
        );
        assert!(check_operator_chains(&quiet).is_ok());
    }

    #[test]
    fn rejects_garbage_and_empty() {
        assert!(parse_sql("").is_err());
        assert!(parse_sql(" ; -- nothing").is_err());
        assert!(parse_sql("SELECT FROM WHERE").is_err());
        assert!(parse_sql("\u{0}\u{1}garbage").is_err());
    }

    #[test]
    fn ten_thousand_parentheses_are_an_error() {
        let sql = format!("SELECT {}1{}", "(".repeat(10_000), ")".repeat(10_000));
        let handle = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse_sql(&sql).is_err());
        let joined = handle.map(|h| h.join());
        assert!(matches!(joined, Ok(Ok(true))));
        let subqueries = format!(
            "{}SELECT 1{}",
            "SELECT * FROM (".repeat(5_000),
            ")".repeat(5_000)
        );
        assert!(parse_sql(&subqueries).is_err());
    }
}
