//! DuckDB's parser with `f(a = b)` read as DuckDB reads it in an expression: a call of `f` on
//! the comparison `a = b`.
//!
//! sqlparser's DuckDB dialect reads `name = value` inside any call's parentheses as a named
//! argument (DuckDB's `read_csv('f.csv', header = true)` in FROM), so `SUM(x = 2)`,
//! `IF(x = 2 AND y > 1, a, b)` or `COUNT(x = 1 OR x = 2)` became calls with a named argument
//! `x` whose value swallowed the rest of the operand (`2 AND y > 1`). DuckDB itself binds a
//! scalar or aggregate call's `a = b` as a comparison (`SUM(x = 2)` counts the rows where
//! `x = 2`); a table function's named `=` argument has no SQLite translation either way. So
//! [`DuckDbCalls`] is sqlparser's DuckDB dialect with that one reading off: `=` is a comparison
//! in every call, and `f(a := b)` stays a named argument. Every other behaviour is DuckDB's:
//! each method sqlparser's `DuckDbDialect` overrides is delegated to it, and the dialect reports
//! DuckDB's type, so the parser's checks for DuckDB (`dialect_of!`) still hold.

use std::any::TypeId;

use sqlparser::dialect::{Dialect, DuckDbDialect};

/// sqlparser's DuckDB dialect, `=` in a call's arguments a comparison (see the module
/// documentation).
#[derive(Debug, Default)]
pub(crate) struct DuckDbCalls(DuckDbDialect);

/// Delegates each of `$m` (a `bool` method of no argument) to DuckDB's dialect.
macro_rules! delegate {
    ($($m:ident),* $(,)?) => {
        $(fn $m(&self) -> bool {
            self.0.$m()
        })*
    };
}

impl Dialect for DuckDbCalls {
    fn dialect(&self) -> TypeId {
        self.0.dialect()
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        self.0.is_identifier_start(ch)
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        self.0.is_identifier_part(ch)
    }

    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        self.0.identifier_quote_style(identifier)
    }

    /// Off: `f(a = b)` is a call on a comparison.
    fn supports_named_fn_args_with_eq_operator(&self) -> bool {
        false
    }

    delegate!(
        supports_trailing_commas,
        supports_filter_during_aggregation,
        supports_group_by_expr,
        supports_bitwise_shift_operators,
        supports_named_fn_args_with_assignment_operator,
        supports_dictionary_syntax,
        support_map_literal_syntax,
        supports_lambda_functions,
        allow_extract_single_quotes,
        supports_explain_with_utility_options,
        supports_load_extension,
        supports_array_typedef_with_brackets,
        supports_from_first_select,
        supports_order_by_all,
        supports_select_wildcard_exclude,
        supports_notnull_operator,
        supports_install,
        supports_detach,
        supports_select_wildcard_replace,
        supports_comma_separated_trim,
        supports_numeric_literal_underscores,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::parser::Parser;

    fn parsed(dialect: &dyn Dialect, sql: &str) -> String {
        Parser::parse_sql(dialect, sql)
            .map(|s| format!("{s:?}"))
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn equals_in_a_call_is_a_comparison() {
        let calls = DuckDbCalls::default();
        let sql = "SELECT SUM(x = 2 AND y > 1), IF(x = 2, 1, 0), f(a := 1) FROM t";
        let stmt = &Parser::parse_sql(&calls, sql).unwrap()[0];
        assert_eq!(stmt.to_string(), sql);
        let debug = format!("{stmt:?}");
        // `x = 2 AND y > 1` is `(x = 2) AND (y > 1)`, and `a := 1` stays a named argument
        assert!(debug.contains("op: And"), "{debug}");
        assert_eq!(debug.matches("Named {").count(), 1, "{debug}");
        assert!(parsed(&DuckDbDialect {}, sql).contains("operator: Equals"));
    }

    #[test]
    fn every_other_reading_is_duckdb_s() {
        for sql in [
            "FROM t SELECT a",
            "SELECT * EXCLUDE (a) REPLACE (b + 1 AS b) FROM t ORDER BY ALL",
            "SELECT {'a': 1}, MAP {1: 2}, [1, 2], list_transform(l, x -> x + 1), 1_000, a$b, 1 << 2, FROM t",
            "SELECT COUNT(*) FILTER (WHERE a) FROM t WHERE b NOTNULL GROUP BY a + 1",
            "SELECT EXTRACT('year' FROM d), TRIM(a, 'b'), CAST(x AS INT[]) FROM \"T\"",
        ] {
            assert_eq!(
                parsed(&DuckDbCalls::default(), sql),
                parsed(&DuckDbDialect {}, sql),
                "{sql}"
            );
        }
    }
}
