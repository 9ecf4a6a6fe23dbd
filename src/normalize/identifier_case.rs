//! Pass `identifier_case`: lower-cases every identifier and function name and drops needless quotes.
//!
//! SQLite compares identifiers case-insensitively, and sqlparser already prints keywords in one case,
//! so after this pass only the spelling of literals keeps its case.
//!
//! ```sql
//! -- before
//! SELECT `Name`, "Age", COUNT(*) FROM Singer WHERE `Song Name` = 'X'
//! -- after
//! SELECT name, age, count(*) FROM singer WHERE `song name` = 'X'
//! ```
//!
//! Identifiers that need quoting to stay valid SQL (spaces, punctuation, reserved words) keep a canonical
//! backtick style; the others lose their quotes.

use super::Pass;
use sqlparser::ast::{Ident, Statement, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// See the module documentation.
pub struct IdentifierCase;

struct Lower;

impl VisitorMut for Lower {
    type Break = ();
    fn pre_visit_ident(&mut self, ident: &mut Ident) -> ControlFlow<()> {
        canonical_ident(ident);
        ControlFlow::Continue(())
    }
}

/// Lower-cases `ident` and sets its quote style to `None` when it is a plain name, a backtick
/// otherwise (not `"`, which `double_quoted_strings` would read as a possible string).
pub(crate) fn canonical_ident(ident: &mut Ident) {
    // Already-lower-case ASCII is the common case: skip the allocation (same result).
    if !ident
        .value
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        ident.value = super::key(&ident.value);
    }
    ident.quote_style = if needs_quotes(&ident.value) {
        Some('`')
    } else {
        None
    };
}

fn needs_quotes(name: &str) -> bool {
    let mut chars = name.chars();
    let plain_start = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
    let plain =
        plain_start && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    !plain || RESERVED.binary_search(&name).is_ok()
}

/// Words that cannot be printed unquoted as names (sorted). sqlparser's keyword list is far larger
/// (it holds `name`, `year`, `count`, ...), and quoting those would only obscure the output.
const RESERVED: &[&str] = &[
    "all",
    "and",
    "as",
    "asc",
    "between",
    "by",
    "case",
    "cross",
    "desc",
    "distinct",
    "else",
    "end",
    "except",
    "exists",
    "from",
    "full",
    "group",
    "having",
    "in",
    "inner",
    "intersect",
    "is",
    "join",
    "left",
    "like",
    "limit",
    "not",
    "null",
    "offset",
    "on",
    "or",
    "order",
    "outer",
    "right",
    "select",
    "table",
    "then",
    "union",
    "using",
    "when",
    "where",
    "with",
];

impl Pass for IdentifierCase {
    fn name(&self) -> &'static str {
        "identifier_case"
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        // Function names are ObjectNames, whose parts are Idents: the ident visitor reaches them too.
        let _ = statement.visit(&mut Lower);
        statement
    }
}
