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
            let [a, lo, hi]: [Expr; 3] = match args.try_into() {
                Ok(three) => three,
                Err(args) => return Expr::Call(Op::Between, args),
            };
            Expr::and(vec![
                Expr::call(Op::GtEq, vec![a.clone(), lo]),
                Expr::call(Op::LtEq, vec![a, hi]),
            ])
        }
        Expr::Call(Op::InList, mut args) if args.len() >= 2 && repeatable(&args[0]) => {
            let a = args.remove(0);
            let mut items: Vec<Expr> = Vec::new();
            for x in args {
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
