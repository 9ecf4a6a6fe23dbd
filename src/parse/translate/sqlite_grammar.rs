//! Rule `sqlite_grammar` (the last rule, every dialect): what the other rules leave that
//! SQLite's grammar lacks is untranslated, and what SQLite would read otherwise is spelled so
//! that it reads the same.
//!
//! ```sql
//! -- before (mysql: no rule translates these)
//! SELECT a FROM t WHERE b RLIKE 'x' AND c SIMILAR TO 'y'
//! -- after
//! SELECT a FROM t WHERE sqlsim_untranslated('RLIKE in mysql', b, 'x')
//!   AND sqlsim_untranslated('SIMILAR TO in mysql', c, 'y')
//! -- before (mysql: `--x` is minus minus x, not a comment; `order` a name)
//! SELECT --x, `order`.a FROM `order`
//! -- after
//! SELECT -(-x), "order".a FROM "order"
//! -- before (postgres: QUALIFY, which PostgreSQL lacks and its parser accepts)
//! SELECT a FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1
//! -- after
//! SELECT a FROM t WHERE sqlsim_untranslated('QUALIFY in postgres', ROW_NUMBER() OVER (ORDER BY a) = 1)
//! ```
//!
//! A dialect's parser accepts more than its engine (sqlparser reads `QUALIFY`, `ILIKE`, `TOP`
//! and arrays in every dialect), and a rule translates only what its dialect means. Anything
//! left that SQLite's grammar has no place for (an operator, a literal form, a call's clause, a
//! clause of SELECT, a join or table form) becomes [`untranslated`] with its operands, or for
//! a clause a marker in the WHERE of its SELECT, so that the verdict is unknown instead of a
//! text SQLite cannot read. The check is a list of what SQLite reads, so a construct no rule
//! knows yet is caught too. Two spellings are repaired: a minus sign before a negative operand
//! is parenthesized (`- -x` prints as `--x`, a comment to SQLite), a name that is one of
//! SQLite's reserved words (`order`, `select`, `as`) or that SQLite's tokenizer does not read
//! unquoted (PostgreSQL's `emoji😀`) is quoted (in brackets, `[order]`, which
//! SQLite never reads as a string, as it may a name the query quoted), and a number's grouping
//! underscores (DuckDB's `1_000`) are dropped.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, CastKind, CeilFloorKind, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArguments, Ident, Query, Select, Statement, TableFactor, UnaryOperator, Value,
    VisitMut, VisitorMut,
};

use super::sqlite_clauses::{first_select, mark, query_lacks, select_lacks};
use super::sqlite_names::{quote_unreadable_alias, quote_unreadable_name, RESERVED};
use super::{untranslated, Rule};
use crate::parse::dialect::Dialect;
use crate::parse::table_alias;

/// See the module documentation.
pub struct SqliteGrammar;

/// Whether SQLite reads `op` between two operands (with its meaning in every dialect: the
/// rules have moved those whose meaning differs). Not `<<` and `>>`: SQLite has them, but
/// sqlparser's SQLite reading, which reads the translation again, does not.
fn sqlite_binary(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(
        op,
        Plus | Minus
            | Multiply
            | Divide
            | Modulo
            | StringConcat
            | Gt
            | Lt
            | GtEq
            | LtEq
            | Eq
            | NotEq
            | And
            | Or
            | BitwiseOr
            | BitwiseAnd
    )
}

/// Whether a type name is one SQLite reads: words, then at most two signed numbers in
/// parentheses (`DOUBLE PRECISION`, `DECIMAL(10, 2)`; not `INT[]` or `STRUCT<a INT>`).
fn sqlite_type(name: &str) -> bool {
    let (words, numbers) = match name.split_once('(') {
        Some((w, rest)) => (w, Some(rest)),
        None => (name, None),
    };
    let word_ok = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !RESERVED.contains(&w.to_ascii_uppercase().as_str())
    };
    let words_ok = !words.trim().is_empty() && words.split_whitespace().all(word_ok);
    let numbers_ok = numbers.is_none_or(|rest| {
        rest.strip_suffix(')').is_some_and(|inner| {
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            parts.len() <= 2
                && parts.iter().all(|p| {
                    let digits = p.trim_start_matches(['-', '+']);
                    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
                })
        })
    });
    words_ok && numbers_ok
}

/// Whether `e` prints beginning with a minus sign.
fn leads_with_minus(e: &Expr) -> bool {
    match e {
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            ..
        } => true,
        Expr::Value(v) => matches!(&v.value, Value::Number(n, _) if n.starts_with('-')),
        Expr::BinaryOp { left: x, .. }
        | Expr::IsNull(x)
        | Expr::IsNotNull(x)
        | Expr::IsTrue(x)
        | Expr::IsNotTrue(x)
        | Expr::IsFalse(x)
        | Expr::IsNotFalse(x)
        | Expr::IsDistinctFrom(x, _)
        | Expr::IsNotDistinctFrom(x, _)
        | Expr::Collate { expr: x, .. }
        | Expr::Between { expr: x, .. }
        | Expr::InList { expr: x, .. }
        | Expr::InSubquery { expr: x, .. }
        | Expr::Like { expr: x, .. } => leads_with_minus(x),
        _ => false,
    }
}

/// The expressions among a call's arguments (kept by its untranslated call).
fn argument_exprs(f: &Function) -> Vec<Expr> {
    let FunctionArguments::List(list) = &f.args else {
        return vec![];
    };
    list.args
        .iter()
        .filter_map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e))
            | FunctionArg::Named {
                arg: FunctionArgExpr::Expr(e),
                ..
            }
            | FunctionArg::ExprNamed {
                arg: FunctionArgExpr::Expr(e),
                ..
            } => Some(e.clone()),
            _ => None,
        })
        .collect()
}

/// What SQLite's grammar lacks in a call, if anything.
fn call_lacks(f: &Function) -> Option<&'static str> {
    if f.name.0.len() != 1 {
        return Some("a qualified function name");
    }
    if f.uses_odbc_syntax {
        return Some("an ODBC call");
    }
    if !matches!(f.parameters, FunctionArguments::None) {
        return Some("parameters");
    }
    if !f.within_group.is_empty() {
        return Some("WITHIN GROUP");
    }
    if f.null_treatment.is_some() {
        return Some("IGNORE NULLS or RESPECT NULLS");
    }
    match &f.args {
        FunctionArguments::None => None,
        FunctionArguments::Subquery(_) => Some("a query for arguments"),
        FunctionArguments::List(list) => {
            if !list.clauses.is_empty() {
                return Some("a clause in its arguments");
            }
            list.args.iter().find_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(_) | FunctionArgExpr::Wildcard) => None,
                FunctionArg::Unnamed(_) => Some("a qualified * argument"),
                _ => Some("named arguments"),
            })
        }
    }
}

/// The construct SQLite's grammar lacks at the top of `e` (its operands checked already), and
/// the operands its untranslated call keeps.
fn lacks(e: &Expr) -> Option<(String, Vec<Expr>)> {
    let plain = |name: &str| Some((name.to_string(), vec![]));
    let with = |name: &str, args: Vec<&Expr>| {
        Some((name.to_string(), args.into_iter().cloned().collect()))
    };
    match e {
        Expr::Identifier(_)
        | Expr::IsFalse(_)
        | Expr::IsNotFalse(_)
        | Expr::IsTrue(_)
        | Expr::IsNotTrue(_)
        | Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsDistinctFrom(..)
        | Expr::IsNotDistinctFrom(..)
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Between { .. }
        | Expr::Collate { .. }
        | Expr::Nested(_)
        | Expr::Case { .. }
        | Expr::Exists { .. }
        | Expr::Subquery(_)
        | Expr::Tuple(_) => None,
        Expr::CompoundIdentifier(parts) if parts.len() <= 3 => None,
        Expr::CompoundIdentifier(_) => plain("a name of more than three parts"),
        Expr::BinaryOp { left, op, right } if !sqlite_binary(op) => {
            with(&format!("the operator {op}"), vec![left, right])
        }
        Expr::BinaryOp { .. } => None,
        Expr::UnaryOp { op, expr } => match op {
            UnaryOperator::Plus
            | UnaryOperator::Minus
            | UnaryOperator::Not
            | UnaryOperator::BitwiseNot => None,
            _ => with(&format!("the operator {op}"), vec![expr]),
        },
        Expr::Like {
            any: false,
            escape_char,
            ..
        } => match escape_char.as_deref() {
            None => None,
            Some(Expr::Value(v)) if matches!(v.value, Value::SingleQuotedString(_)) => None,
            Some(_) => plain("LIKE with this ESCAPE"),
        },
        Expr::Like { expr, pattern, .. } => with("LIKE ANY", vec![expr, pattern]),
        Expr::ILike { expr, pattern, .. } => with("ILIKE", vec![expr, pattern]),
        Expr::SimilarTo { expr, pattern, .. } => with("SIMILAR TO", vec![expr, pattern]),
        Expr::RLike {
            expr,
            pattern,
            regexp,
            ..
        } => with(
            if *regexp { "REGEXP" } else { "RLIKE" },
            vec![expr, pattern],
        ),
        Expr::AnyOp { left, right, .. } => with("ANY", vec![left, right]),
        Expr::AllOp { left, right, .. } => with("ALL", vec![left, right]),
        Expr::Cast {
            kind: CastKind::Cast,
            expr,
            data_type,
            format,
            ..
        } => match (format, sqlite_type(&data_type.to_string())) {
            (None, true) => None,
            (None, false) => with(&format!("CAST AS {data_type}"), vec![expr]),
            (Some(_), _) => with("CAST with FORMAT", vec![expr]),
        },
        Expr::Cast { kind, expr, .. } => {
            let name = match kind {
                CastKind::TryCast => "TRY_CAST",
                CastKind::SafeCast => "SAFE_CAST",
                _ => "::",
            };
            with(name, vec![expr])
        }
        Expr::Value(v) => match &v.value {
            Value::Number(..)
            | Value::SingleQuotedString(_)
            | Value::Null
            | Value::Boolean(_)
            | Value::HexStringLiteral(_)
            | Value::Placeholder(_) => None,
            _ => plain("this literal"),
        },
        Expr::Function(f) => {
            call_lacks(f).map(|what| (format!("{} with {what}", f.name), argument_exprs(f)))
        }
        Expr::Substring {
            expr,
            substring_from,
            substring_for,
            special,
            ..
        } => match (special, substring_from) {
            (true, Some(_)) => None,
            _ => {
                let mut args = vec![expr.as_ref()];
                args.extend(substring_from.as_deref());
                args.extend(substring_for.as_deref());
                with("SUBSTRING with FROM or FOR", args)
            }
        },
        Expr::Trim {
            trim_where: None,
            trim_what: None,
            trim_characters,
            ..
        } if trim_characters.as_ref().is_none_or(|c| c.len() == 1) => None,
        Expr::Trim { expr, .. } => with("TRIM with BOTH, LEADING or TRAILING", vec![expr]),
        Expr::Ceil {
            field: CeilFloorKind::DateTimeField(sqlparser::ast::DateTimeField::NoDateTime),
            ..
        }
        | Expr::Floor {
            field: CeilFloorKind::DateTimeField(sqlparser::ast::DateTimeField::NoDateTime),
            ..
        } => None,
        Expr::Ceil { expr, .. } => with("CEIL with a scale", vec![expr]),
        Expr::Floor { expr, .. } => with("FLOOR with a scale", vec![expr]),
        Expr::Extract { expr, .. } => with("EXTRACT", vec![expr]),
        Expr::Position { expr, r#in } => with("POSITION", vec![expr, r#in]),
        Expr::Overlay { expr, .. } => with("OVERLAY", vec![expr]),
        Expr::AtTimeZone { timestamp, .. } => with("AT TIME ZONE", vec![timestamp]),
        Expr::Convert { expr, .. } => with("CONVERT", vec![expr]),
        Expr::Interval(iv) => with("INTERVAL", vec![&iv.value]),
        Expr::TypedString(_) => plain("a typed literal"),
        Expr::Array(_) => plain("ARRAY"),
        Expr::InUnnest { expr, .. } => with("IN UNNEST", vec![expr]),
        Expr::IsUnknown(x) | Expr::IsNotUnknown(x) => with("IS UNKNOWN", vec![x]),
        Expr::GroupingSets(_) | Expr::Cube(_) | Expr::Rollup(_) => {
            plain("GROUPING SETS, CUBE or ROLLUP")
        }
        Expr::CompoundFieldAccess { root, .. } => with("a subscript or field access", vec![root]),
        Expr::JsonAccess { value, .. } => with("a JSON path", vec![value]),
        Expr::MatchAgainst { .. } => plain("MATCH AGAINST"),
        Expr::Struct { .. } | Expr::Map(_) | Expr::Dictionary(_) => plain("a composite literal"),
        Expr::Lambda(_) => plain("a lambda"),
        Expr::OuterJoin(x) | Expr::Prior(x) => with("(+) or PRIOR", vec![x]),
        _ => plain("this expression"),
    }
}

struct Rewrite(Dialect);

impl Rewrite {
    fn marker(&self, construct: &str, args: Vec<Expr>) -> Expr {
        untranslated(construct, self.0, args)
    }
}

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_ident(&mut self, id: &mut Ident) -> ControlFlow<()> {
        quote_unreadable_name(id);
        ControlFlow::Continue(())
    }

    fn post_visit_table_factor(&mut self, table: &mut TableFactor) -> ControlFlow<()> {
        if let Some(alias) = table_alias(table) {
            quote_unreadable_alias(&mut alias.name);
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Some((construct, args)) = lacks(e) {
            *e = self.marker(&construct, args);
            return ControlFlow::Continue(());
        }
        if let Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } = e
        {
            if leads_with_minus(expr) {
                let inner = std::mem::replace(expr.as_mut(), Expr::value(Value::Null));
                **expr = Expr::Nested(Box::new(inner));
            }
        }
        // DuckDB's `1_000`: digits grouped by underscores (SQLite before 3.46 reads no such number)
        if let Expr::Value(v) = e {
            if let Value::Number(n, _) = &mut v.value {
                if n.contains('_') {
                    n.retain(|c| c != '_');
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn post_visit_select(&mut self, select: &mut Select) -> ControlFlow<()> {
        for (construct, args) in select_lacks(select) {
            let marker = self.marker(construct, args);
            mark(select, marker);
        }
        ControlFlow::Continue(())
    }

    fn post_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        let found = query_lacks(query);
        if found.is_empty() {
            return ControlFlow::Continue(());
        }
        let markers: Vec<Expr> = found
            .into_iter()
            .map(|(construct, args)| self.marker(construct, args))
            .collect();
        if let Some(select) = first_select(&mut query.body) {
            for marker in markers {
                mark(select, marker);
            }
        }
        ControlFlow::Continue(())
    }
}

impl Rule for SqliteGrammar {
    fn name(&self) -> &'static str {
        "sqlite_grammar"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::dialect::tag;
    use crate::parse::translate::sqlite_text;

    fn sqlite(sql: &str, dialect: Dialect) -> String {
        sqlite_text(&tag(sql, dialect)).unwrap().into_owned()
    }

    #[test]
    fn whole_translations_are_text_sqlite_reads() {
        // `--a` printed as it was is a comment to SQLite
        assert_eq!(
            sqlite("SELECT --a, - -1 FROM t", Dialect::Mysql),
            "SELECT -(-a), -(-1) FROM t"
        );
        assert_eq!(
            sqlite("SELECT a FROM t WHERE b RLIKE 'x'", Dialect::Mysql),
            "SELECT a FROM t WHERE sqlsim_untranslated('RLIKE in mysql', b, 'x')"
        );
        assert_eq!(
            sqlite("SELECT a FROM t QUALIFY a = 1", Dialect::Postgres),
            "SELECT a FROM t WHERE sqlsim_untranslated('QUALIFY in postgres', a = 1)"
        );
        assert_eq!(
            sqlite("SELECT order.id FROM order", Dialect::Postgres),
            "SELECT [order].id FROM [order]"
        );
        assert_eq!(
            sqlite("SELECT a FROM t WHERE a SIMILAR TO 'x'", Dialect::Duckdb),
            "SELECT a FROM t WHERE sqlsim_untranslated('SIMILAR TO in duckdb', a, 'x')"
        );
    }

    #[test]
    fn sqlite_type_names_are_words_and_two_numbers() {
        for ok in [
            "INTEGER",
            "DOUBLE PRECISION",
            "DECIMAL(10, 2)",
            "NUMERIC(5)",
            "VARCHAR(-1)",
        ] {
            assert!(sqlite_type(ok), "{ok}");
        }
        for bad in [
            "INT[]",
            "STRUCT<a INT>",
            "ARRAY<INT>",
            "INT(1, 2, 3)",
            "",
            "TIME(x)",
        ] {
            assert!(!sqlite_type(bad), "{bad}");
        }
    }
}
