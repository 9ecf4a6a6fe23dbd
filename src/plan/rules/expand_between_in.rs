//! BETWEEN and IN-lists become comparisons: `a BETWEEN l AND h` → `a >= l AND a <= h`,
//! `a IN (x)` → `a = x`, `a IN (x, y)` → `a = x OR a = y` (duplicates dropped). Exact under
//! three-valued logic; skipped when `a` is volatile or holds a subquery (it would be repeated).

use super::{map_all_exprs, Rule, RuleContext};
use crate::plan::expr::{Expr, Op};
use crate::plan::node::Plan;

pub struct ExpandBetweenIn;

impl Rule for ExpandBetweenIn {
    fn name(&self) -> &'static str {
        "expand_between_in"
    }

    fn apply(&self, plan: Plan, _cx: &mut RuleContext) -> Plan {
        map_all_exprs(plan, &mut expand)
    }
}

fn repeatable(e: &Expr) -> bool {
    !e.is_volatile() && !e.has_subquery()
}

fn expand(e: Expr) -> Expr {
    match e {
        Expr::Call(Op::Between, args) if args.len() == 3 && repeatable(&args[0]) => {
            let mut it = args.into_iter();
            let (a, lo, hi) = match (it.next(), it.next(), it.next()) {
                (Some(a), Some(l), Some(h)) => (a, l, h),
                _ => unreachable_expr(),
            };
            Expr::and(vec![
                Expr::call(Op::GtEq, vec![a.clone(), lo]),
                Expr::call(Op::LtEq, vec![a, hi]),
            ])
        }
        Expr::Call(Op::InList, args) if args.len() >= 2 && repeatable(&args[0]) => {
            let mut it = args.into_iter();
            let a = it.next().unwrap_or(Expr::TRUE);
            let mut items: Vec<Expr> = Vec::new();
            for x in it {
                if !items.contains(&x) {
                    items.push(x);
                }
            }
            Expr::or(
                items
                    .into_iter()
                    .map(|x| Expr::call(Op::Eq, vec![a.clone(), x]))
                    .collect(),
            )
        }
        other => other,
    }
}

fn unreachable_expr() -> (Expr, Expr, Expr) {
    (Expr::TRUE, Expr::TRUE, Expr::TRUE)
}
