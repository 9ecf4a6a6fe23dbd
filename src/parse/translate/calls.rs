//! Reading the pieces of a dialect's syntax tree that the translation rules test: a call's name
//! and plain arguments, integer and text literals, and building the small expressions the rules
//! write (`CASE`, `IIF`, `x IS NULL`, numbers, strings).

use sqlparser::ast::{
    BinaryOperator, CaseWhen, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments,
    UnaryOperator, Value,
};

/// The lower-case name of a call (its last part: `pg_catalog.lower` is `lower`).
pub(crate) fn name(f: &Function) -> String {
    f.name
        .0
        .last()
        .and_then(|p| p.as_ident())
        .map(|id| id.value.to_ascii_lowercase())
        .unwrap_or_default()
}

/// The arguments of a plain call `f(a, b, ...)`: no DISTINCT, no clause inside the parentheses
/// (ORDER BY, SEPARATOR, ...), no FILTER, OVER or WITHIN GROUP, every argument an unnamed
/// expression. None for any other call.
pub(crate) fn plain_args(f: &Function) -> Option<Vec<Expr>> {
    if f.filter.is_some()
        || f.over.is_some()
        || !f.within_group.is_empty()
        || f.null_treatment.is_some()
        || !matches!(f.parameters, FunctionArguments::None)
    {
        return None;
    }
    match &f.args {
        FunctionArguments::None => Some(vec![]),
        FunctionArguments::List(list)
            if list.duplicate_treatment.is_none() && list.clauses.is_empty() =>
        {
            list.args
                .iter()
                .map(|a| match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e.clone()),
                    _ => None,
                })
                .collect()
        }
        _ => None,
    }
}

/// The value of an integer literal (`3`, `-2`, `+1`, `(4)`).
pub(crate) fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok(),
            _ => None,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => int_literal(expr).map(|i| -i),
        Expr::UnaryOp {
            op: UnaryOperator::Plus,
            expr,
        }
        | Expr::Nested(expr) => int_literal(expr),
        _ => None,
    }
}

/// The text of a string literal (every string is single-quoted once `quoting` has run).
pub(crate) fn text_literal(e: &Expr) -> Option<&str> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) => Some(s),
            _ => None,
        },
        Expr::Nested(inner) => text_literal(inner),
        _ => None,
    }
}

/// Whether `e` is the literal NULL.
pub(crate) fn is_null(e: &Expr) -> bool {
    match e {
        Expr::Value(v) => matches!(v.value, Value::Null),
        Expr::Nested(inner) => is_null(inner),
        _ => false,
    }
}

/// An integer literal.
pub(crate) fn int(i: i64) -> Expr {
    if i < 0 {
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr: Box::new(int(-i)),
        }
    } else {
        Expr::value(Value::Number(i.to_string(), false))
    }
}

/// A string literal.
pub(crate) fn text(s: &str) -> Expr {
    Expr::value(Value::SingleQuotedString(s.to_string()))
}

/// Whether `e` needs no parentheses next to any operator: a name, a literal, a call, a cast,
/// a parenthesized expression.
fn is_atom(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Identifier(_)
            | Expr::CompoundIdentifier(_)
            | Expr::Value(_)
            | Expr::Function(_)
            | Expr::Nested(_)
            | Expr::Cast { .. }
            | Expr::Substring { .. }
    )
}

/// `e` in parentheses unless it is an atom (a name, a literal, a call, already parenthesized).
pub(crate) fn nested(e: Expr) -> Expr {
    if is_atom(&e) {
        e
    } else {
        Expr::Nested(Box::new(e))
    }
}

/// `left op right`, each operand parenthesized where it is not an atom.
pub(crate) fn binary(left: Expr, op: BinaryOperator, right: Expr) -> Expr {
    Expr::BinaryOp {
        left: Box::new(nested(left)),
        op,
        right: Box::new(nested(right)),
    }
}

/// Whether `e` binds at least as tightly as a product (an atom, a unary minus, `*`, `/`, `%`,
/// `||`).
fn multiplicative(e: &Expr) -> bool {
    use BinaryOperator::*;
    match e {
        Expr::BinaryOp { op, .. } => matches!(op, Multiply | Divide | Modulo | StringConcat),
        Expr::UnaryOp { op, .. } => matches!(op, UnaryOperator::Minus | UnaryOperator::Plus),
        other => is_atom(other),
    }
}

/// `a + b` or `a - b` (`op`), parenthesizing an operand only where SQL's precedence needs it;
/// a negative integer literal `b` flips the operator (`x + -1` is `x - 1`).
pub(crate) fn additive(a: Expr, op: BinaryOperator, b: Expr) -> Expr {
    use BinaryOperator::{Minus, Plus};
    if let Some(k) = int_literal(&b).filter(|k| *k < 0) {
        let flipped = if op == Plus { Minus } else { Plus };
        return additive(a, flipped, int(-k));
    }
    let left = match &a {
        Expr::BinaryOp {
            op: Plus | Minus, ..
        } => a,
        _ if multiplicative(&a) => a,
        _ => Expr::Nested(Box::new(a)),
    };
    let right = if multiplicative(&b) {
        b
    } else {
        Expr::Nested(Box::new(b))
    };
    Expr::BinaryOp {
        left: Box::new(left),
        op,
        right: Box::new(right),
    }
}

/// `left op right` without parentheses around the operands: for AND and OR of comparisons.
pub(crate) fn logic(left: Expr, op: BinaryOperator, right: Expr) -> Expr {
    Expr::BinaryOp {
        left: Box::new(left),
        op,
        right: Box::new(right),
    }
}

/// `CASE WHEN c1 THEN r1 ... [ELSE e] END`.
pub(crate) fn case(branches: Vec<(Expr, Expr)>, otherwise: Option<Expr>) -> Expr {
    Expr::Case {
        case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        operand: None,
        conditions: branches
            .into_iter()
            .map(|(condition, result)| CaseWhen { condition, result })
            .collect(),
        else_result: otherwise.map(Box::new),
    }
}

/// `NOT e IS NULL`, as sqlglot spells "e is not NULL".
pub(crate) fn not_null(e: Expr) -> Expr {
    Expr::UnaryOp {
        op: UnaryOperator::Not,
        expr: Box::new(Expr::IsNull(Box::new(nested(e)))),
    }
}

/// The operands of `e` that MySQL would group differently if they were an unparenthesized `||`
/// or `XOR` (`op`): sqlparser reads MySQL's `||` with the precedence of concatenation and `XOR`
/// above comparisons, MySQL both below AND (`||` is OR), so the tree of `a = 1 || b` is
/// `a = (1 || b)` where MySQL reads `(a = 1) OR b`. Only such an operator beside OR or itself,
/// inside parentheses or alone in its place (an argument, a SELECT item, the WHERE clause)
/// reads the same both ways.
pub(crate) fn tight_operands<'a>(
    e: &'a mut Expr,
    op_of_child: &BinaryOperator,
) -> Vec<&'a mut Expr> {
    match e {
        Expr::BinaryOp { left, op, right } if *op != BinaryOperator::Or && op != op_of_child => {
            vec![left.as_mut(), right.as_mut()]
        }
        Expr::UnaryOp { expr, .. }
        | Expr::IsNull(expr)
        | Expr::IsNotNull(expr)
        | Expr::IsTrue(expr)
        | Expr::IsNotTrue(expr)
        | Expr::IsFalse(expr)
        | Expr::IsNotFalse(expr)
        | Expr::InList { expr, .. }
        | Expr::InSubquery { expr, .. }
        | Expr::Collate { expr, .. } => vec![expr.as_mut()],
        Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => vec![a.as_mut(), b.as_mut()],
        Expr::Between {
            expr, low, high, ..
        } => vec![expr.as_mut(), low.as_mut(), high.as_mut()],
        Expr::Like { expr, pattern, .. } | Expr::ILike { expr, pattern, .. } => {
            vec![expr.as_mut(), pattern.as_mut()]
        }
        _ => vec![],
    }
}

/// A placeholder to move an expression out of a `&mut Expr`.
pub(crate) fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::value(Value::Null))
}

/// A visitor that replaces each plain call `F(args)` by what its `translate(F, args, dialect)`
/// gives (F upper-case), leaving calls it answers None for: the shape of the call-by-call rules.
struct CallRewrite {
    dialect: crate::parse::dialect::Dialect,
    translate: CallTranslation,
}

/// A rule's translation of one call: upper-case name, arguments, dialect.
pub(crate) type CallTranslation =
    fn(&str, Vec<Expr>, crate::parse::dialect::Dialect) -> Option<Expr>;

impl sqlparser::ast::VisitorMut for CallRewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> std::ops::ControlFlow<()> {
        if let Expr::Function(f) = e {
            let name = super::temporal::function_name(f);
            if let Some(args) = super::temporal::plain_args(f) {
                if let Some(new) = (self.translate)(&name, args, self.dialect) {
                    *e = new;
                }
            }
        }
        std::ops::ControlFlow::Continue(())
    }
}

/// Rewrites every plain call of `statement` that `translate` translates ([`CallRewrite`]).
pub(crate) fn rewrite_calls(
    statement: &mut sqlparser::ast::Statement,
    dialect: crate::parse::dialect::Dialect,
    translate: CallTranslation,
) {
    use sqlparser::ast::VisitMut;
    let _ = statement.visit(&mut CallRewrite { dialect, translate });
}
