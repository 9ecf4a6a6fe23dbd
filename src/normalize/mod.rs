//! Normalization passes over the AST, applied in one ordered list ([`PASSES`]).
//!
//! Each pass lives in its own file, is a unit struct implementing [`Pass`], and its `name()` equals
//! the file name; `tests/golden/normalize/<name>.txt` holds its before/after fixtures.
//!
//! Recursion: every pass walks the AST with sqlparser's visitors or with loops over flat lists; the
//! visitors recurse as deep as the AST, which the parser's recursion limit
//! (`crate::parse::RECURSION_LIMIT`) bounds.

pub(crate) mod calcite_casts;
pub(crate) mod commutative_order;
pub(crate) mod database_qualifiers;
pub(crate) mod derived_having;
pub(crate) mod double_quoted_strings;
pub(crate) mod fetch_as_limit;
pub(crate) mod flatten_boolean;
pub(crate) mod identifier_case;
pub(crate) mod literals;
pub(crate) mod negated_predicates;
pub(crate) mod noop_syntax;
pub(crate) mod select_aliases;
pub(crate) mod table_aliases;
pub(crate) mod unqualify_columns;
pub(crate) mod wrapper_queries;

use sqlparser::ast::{Query, Select, Statement, TableAlias, TableFactor, VisitMut, VisitorMut};
use std::ops::ControlFlow;

/// One AST rewrite that maps equivalent spellings of a query onto one spelling.
pub trait Pass: Sync {
    /// The pass's name: the name of its file in `src/normalize/` and of its golden fixture.
    fn name(&self) -> &'static str;
    /// Rewrites one statement.
    fn apply(&self, statement: Statement) -> Statement;
}

/// Every pass, in the order [`normalize`] applies them. Why this order:
///
/// 1. `double_quoted_strings` first: it must see the original quote styles (which
///    `identifier_case` strips) and the original aliases (which `table_aliases` removes) to tell a
///    double-quoted *string* from a double-quoted column name.
/// 2. `identifier_case` next, so every later pass compares names case-insensitively for free.
/// 3. `database_qualifiers` drops `db.` from `db.table` (Calcite prints it), so that the passes
///    after it see plain table names.
/// 4. `wrapper_queries` inlines a CTE read once as a derived table and unwraps `SELECT * FROM
///    (X)`, before `table_aliases` names derived tables (it compares lower-cased names).
/// 5. `derived_having` then reads a filter over a grouped derived table (which `wrapper_queries`
///    may have made of a CTE) as HAVING; it resolves the outer query's names against the derived
///    table's alias, which `table_aliases` would rename.
/// 6. `table_aliases` then rewrites `T1.col` to `table.col` and drops the aliases; it needs the
///    lower-cased names and must run before `noop_syntax` removes select-item aliases (it only
///    touches table aliases, so the two are independent otherwise).
/// 7. `unqualify_columns` after alias resolution, so qualifiers are table names it can compare with
///    the single table in scope.
/// 8. `select_aliases` drops select-item aliases, substituting the aliased expression where
///    ORDER BY/GROUP BY/HAVING use them, before `noop_syntax` tidies those expressions.
/// 9. `negated_predicates` turns `NOT (a = b)` into `(a <> b)`, keeping parentheses that
///    `noop_syntax` then drops where they are no-ops.
/// 10. `noop_syntax` drops ASC, join noise words and redundant parentheses; `flatten_boolean`
///     relies on the parentheses being gone where they are no-ops.
/// 11. `fetch_as_limit` turns standard SQL's `OFFSET n ROWS FETCH NEXT m ROWS ONLY` (Calcite's)
///     into `LIMIT m OFFSET n` before
/// 12. `literals` canonicalizes numbers and string quoting, before
/// 13. `calcite_casts` drops Calcite's floating-point casts inside AVG and on a column compared
///     with a number: it looks for number literals, which `literals` may have made of strings
///     (run before it, a second normalization would find more to drop), and then
/// 14. `commutative_order`, last, sorts operands by their final printed form: any earlier change of
///     spelling would change the sort keys.
pub static PASSES: &[&dyn Pass] = &[
    &double_quoted_strings::DoubleQuotedStrings,
    &identifier_case::IdentifierCase,
    &database_qualifiers::DatabaseQualifiers,
    &wrapper_queries::WrapperQueries,
    &derived_having::DERIVED_HAVING,
    &table_aliases::TableAliases,
    &unqualify_columns::UnqualifyColumns,
    &select_aliases::SelectAliases,
    &negated_predicates::NegatedPredicates,
    &noop_syntax::NoopSyntax,
    &flatten_boolean::FlattenBoolean,
    &fetch_as_limit::FetchAsLimit,
    &literals::Literals,
    &calcite_casts::CalciteCasts,
    &commutative_order::CommutativeOrder,
];

/// The pass named `name`, if there is one.
pub fn pass_by_name(name: &str) -> Option<&'static dyn Pass> {
    PASSES.iter().copied().find(|p| p.name() == name)
}

/// Names of all passes, in pipeline order.
pub fn pass_names() -> Vec<&'static str> {
    PASSES.iter().map(|p| p.name()).collect()
}

/// Runs every pass, in order, on every statement.
///
/// ```
/// let s = sqlsim::parse::parse_sql("SELECT T1.Name AS n FROM Singer AS T1 WHERE (T1.age > 3)").unwrap();
/// let n = sqlsim::normalize::normalize(s);
/// assert_eq!(n[0].to_string(), "SELECT name FROM singer WHERE age > 3");
/// ```
pub fn normalize(statements: Vec<Statement>) -> Vec<Statement> {
    normalize_except(statements, &[])
}

/// Runs every pass except those named in `skip` (for ablation studies).
pub fn normalize_except(statements: Vec<Statement>, skip: &[&str]) -> Vec<Statement> {
    statements
        .into_iter()
        .map(|s| {
            PASSES
                .iter()
                .filter(|p| !skip.contains(&p.name()))
                .fold(s, |s, p| p.apply(s))
        })
        .collect()
}

/// True when `q` is its body alone: no WITH, ORDER BY, LIMIT, FETCH, locking, FOR, SETTINGS,
/// FORMAT or pipe operators (what a pass that replaces a query by its body must not drop).
pub(crate) fn body_only(q: &Query) -> bool {
    q.with.is_none()
        && q.order_by.is_none()
        && q.limit_clause.is_none()
        && q.fetch.is_none()
        && q.locks.is_empty()
        && q.for_clause.is_none()
        && q.settings.is_none()
        && q.format_clause.is_none()
        && q.pipe_operators.is_empty()
}

/// The query `select` reads from, with its alias, when its FROM is one derived table and nothing
/// else: no join, not LATERAL, no TABLESAMPLE, no column list in the alias.
pub(crate) fn lone_derived_table(select: &Select) -> Option<(&Query, Option<&TableAlias>)> {
    let [from] = select.from.as_slice() else {
        return None;
    };
    let TableFactor::Derived {
        lateral: false,
        subquery,
        alias,
        sample: None,
    } = &from.relation
    else {
        return None;
    };
    (from.joins.is_empty() && alias.as_ref().is_none_or(|a| a.columns.is_empty()))
        .then_some((subquery.as_ref(), alias.as_ref()))
}

/// Calls `rewrite` on every query in `node`, a query after the queries inside it (so that what
/// it sees inside is already rewritten), as the passes that replace a whole query need.
pub(crate) fn each_query_inside_out<N: VisitMut + ?Sized>(
    node: &mut N,
    rewrite: &mut dyn FnMut(&mut Query),
) {
    struct InsideOut<'r>(&'r mut dyn FnMut(&mut Query));
    impl VisitorMut for InsideOut<'_> {
        type Break = ();
        fn post_visit_query(&mut self, q: &mut Query) -> ControlFlow<()> {
            (self.0)(q);
            ControlFlow::Continue(())
        }
    }
    let _ = node.visit(&mut InsideOut(rewrite));
}

/// A pass that replaces whole queries: `rewrite` runs on every query of the statement, each after
/// the queries inside it ([`each_query_inside_out`]).
pub struct QueryPass {
    name: &'static str,
    rewrite: fn(&mut Query),
}

impl QueryPass {
    /// The pass `name` (its file's and golden fixture's name) that runs `rewrite` on each query.
    pub(crate) const fn new(name: &'static str, rewrite: fn(&mut Query)) -> QueryPass {
        QueryPass { name, rewrite }
    }
}

impl Pass for QueryPass {
    fn name(&self) -> &'static str {
        self.name
    }
    fn apply(&self, mut statement: Statement) -> Statement {
        each_query_inside_out(&mut statement, &mut |q| (self.rewrite)(q));
        statement
    }
}

/// Lower-cased key of an identifier, the form every pass compares names in.
pub(crate) fn key(value: &str) -> String {
    value.to_lowercase()
}
