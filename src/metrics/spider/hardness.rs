//! Spider's hardness levels (evaluation.py `eval_hardness`) from the gold query's structure.
//!
//! Reproduced literally, including two counting quirks of the original: in `count_others` a WHERE
//! condition counts as an "aggregate" when it is negated (`cond_unit[0]` is the NOT flag), and every
//! HAVING condition that is negated and every `and`/`or` between HAVING conditions counts too.

use super::ast::*;

/// Spider difficulty level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hardness {
    Easy,
    Medium,
    Hard,
    Extra,
}

impl Hardness {
    /// 'easy' | 'medium' | 'hard' | 'extra'
    pub fn as_str(self) -> &'static str {
        match self {
            Hardness::Easy => "easy",
            Hardness::Medium => "medium",
            Hardness::Hard => "hard",
            Hardness::Extra => "extra",
        }
    }
}

fn conds(sql: &Sql) -> [&Condition; 3] {
    [&sql.from.conds, &sql.where_, &sql.having]
}

fn component1(sql: &Sql) -> usize {
    let mut n = 0;
    n += usize::from(sql.where_.raw_len() > 0);
    n += usize::from(!sql.group_by.is_empty());
    n += usize::from(sql.order_by.is_some());
    n += usize::from(sql.limit.is_some());
    n += sql.from.table_units.len().saturating_sub(1);
    for c in conds(sql) {
        n += c.conj.iter().filter(|&&j| j == Conj::Or).count();
        n += c.units.iter().filter(|u| u.op == WhereOp::Like).count();
    }
    n
}

/// `get_nestedSQL` count: query operands of FROM/WHERE/HAVING conditions plus IUE parts.
pub fn nested_count(sql: &Sql) -> usize {
    let mut n = 0;
    for c in conds(sql) {
        for u in &c.units {
            n += usize::from(matches!(u.val1, Some(Value::Sql(_))));
            n += usize::from(matches!(u.val2, Some(Value::Sql(_))));
        }
    }
    n + [&sql.intersect, &sql.except, &sql.union]
        .iter()
        .filter(|s| s.is_some())
        .count()
}

fn others(sql: &Sql) -> usize {
    let mut agg = sql
        .select
        .items
        .iter()
        .filter(|(a, _)| *a != Agg::None)
        .count();
    agg += sql.where_.units.iter().filter(|u| u.not).count();
    agg += sql.group_by.iter().filter(|c| c.agg != Agg::None).count();
    if let Some(ob) = &sql.order_by {
        agg += ob.units.iter().filter(|v| v.left.agg != Agg::None).count();
        agg += ob
            .units
            .iter()
            .filter_map(|v| v.right)
            .filter(|c| c.agg != Agg::None)
            .count();
    }
    agg += sql.having.units.iter().filter(|u| u.not).count() + sql.having.conj.len();
    let mut n = usize::from(agg > 1);
    n += usize::from(sql.select.items.len() > 1);
    n += usize::from(sql.where_.raw_len() > 1);
    n += usize::from(sql.group_by.len() > 1);
    n
}

/// evaluation.py `eval_hardness` on a parsed (not rewritten) query.
pub fn of_sql(sql: &Sql) -> Hardness {
    let c1 = component1(sql);
    let c2 = nested_count(sql);
    let o = others(sql);
    if c1 <= 1 && o == 0 && c2 == 0 {
        Hardness::Easy
    } else if (o <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && o < 2 && c2 == 0) {
        Hardness::Medium
    } else if (o > 2 && c1 <= 2 && c2 == 0)
        || (2 < c1 && c1 <= 3 && o <= 2 && c2 == 0)
        || (c1 <= 1 && o == 0 && c2 <= 1)
    {
        Hardness::Hard
    } else {
        Hardness::Extra
    }
}
