//! evaluation.py's ten partial-match components and exact set match over rewritten queries.
//!
//! Each component yields `get_scores(count, pred_total, label_total)`: 1/1/1 when the totals are
//! equal and every predicted unit matched, else 0/0/0. Kept from the original: `and/or` reports its
//! totals swapped (label_total is the prediction's count of distinct connectives) and 1/1/1 with both
//! totals 1 whenever the connective sets are equal; `group(no Having)` compares column names only
//! (the table part of `__t.c__` is dropped); exact match also requires equal FROM table units.

use std::fmt::Write;

use super::ast::*;
use super::catalog::Catalog;

/// The ten partial-match components, in the official report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Component {
    Select,
    SelectNoAgg,
    Where,
    WhereNoOp,
    GroupNoHaving,
    Group,
    Order,
    AndOr,
    Iuen,
    Keywords,
}

impl Component {
    pub const ALL: [Component; 10] = [
        Component::Select,
        Component::SelectNoAgg,
        Component::Where,
        Component::WhereNoOp,
        Component::GroupNoHaving,
        Component::Group,
        Component::Order,
        Component::AndOr,
        Component::Iuen,
        Component::Keywords,
    ];

    /// The official name (`select(no AGG)`, `group(no Having)`, `and/or`, `IUEN`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Component::Select => "select",
            Component::SelectNoAgg => "select(no AGG)",
            Component::Where => "where",
            Component::WhereNoOp => "where(no OP)",
            Component::GroupNoHaving => "group(no Having)",
            Component::Group => "group",
            Component::Order => "order",
            Component::AndOr => "and/or",
            Component::Iuen => "IUEN",
            Component::Keywords => "keywords",
        }
    }
}

/// One component's per-example score: acc, rec and f1 are each 0 or 1 in the official evaluator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentScore {
    pub component: Component,
    pub acc: f64,
    pub rec: f64,
    pub f1: f64,
    pub label_total: usize,
    pub pred_total: usize,
}

fn score(
    component: Component,
    count: usize,
    pred_total: usize,
    label_total: usize,
) -> ComponentScore {
    let v = if pred_total == label_total && count == pred_total {
        1.0
    } else {
        0.0
    };
    ComponentScore {
        component,
        acc: v,
        rec: v,
        f1: v,
        label_total,
        pred_total,
    }
}

/// Greedy multiset matching (`if unit in label: label.remove(unit)`): number of matched items.
fn matched<T: PartialEq>(pred: impl Iterator<Item = T>, mut label: Vec<T>) -> usize {
    let mut n = 0;
    for p in pred {
        if let Some(i) = label.iter().position(|l| *l == p) {
            n += 1;
            label.remove(i);
        }
    }
    n
}

fn keywords(sql: &Sql) -> u16 {
    let mut k = 0u16;
    let mut set = |bit: u16, on: bool| {
        if on {
            k |= 1 << bit;
        }
    };
    set(0, sql.where_.raw_len() > 0);
    set(1, !sql.group_by.is_empty());
    set(2, sql.having.raw_len() > 0);
    if let Some(ob) = &sql.order_by {
        set(3, true);
        set(if ob.dir == Dir::Asc { 4 } else { 5 }, true);
    }
    set(6, sql.limit.is_some());
    set(7, sql.except.is_some());
    set(8, sql.union.is_some());
    set(9, sql.intersect.is_some());
    let cs = [&sql.from.conds, &sql.where_, &sql.having];
    set(10, cs.iter().any(|c| c.conj.contains(&Conj::Or)));
    let units = || cs.iter().flat_map(|c| c.units.iter());
    set(11, units().any(|u| u.not));
    set(12, units().any(|u| u.op == WhereOp::In));
    set(13, units().any(|u| u.op == WhereOp::Like));
    k
}

/// evaluation.py `eval_partial_match(pred, label)`.
pub fn partial_match(cat: &Catalog, pred: &Sql, label: &Sql) -> [ComponentScore; 10] {
    // select
    let (lt, pt) = (label.select.items.len(), pred.select.items.len());
    let cnt = matched(
        pred.select.items.iter(),
        label.select.items.iter().collect(),
    );
    let cnt_wo = matched(
        pred.select.items.iter().map(|u| &u.1),
        label.select.items.iter().map(|u| &u.1).collect(),
    );
    let select = score(Component::Select, cnt, pt, lt);
    let select_wo = score(Component::SelectNoAgg, cnt_wo, pt, lt);

    // where
    let (lt, pt) = (label.where_.units.len(), pred.where_.units.len());
    let cnt = matched(
        pred.where_.units.iter(),
        label.where_.units.iter().collect(),
    );
    let cnt_wo = matched(
        pred.where_.units.iter().map(|u| &u.val_unit),
        label.where_.units.iter().map(|u| &u.val_unit).collect(),
    );
    let where_ = score(Component::Where, cnt, pt, lt);
    let where_wo = score(Component::WhereNoOp, cnt_wo, pt, lt);

    // group(no Having): column names only
    let gkey = |c: &ColUnit| match c.col {
        ColRef::All => "__all__",
        ColRef::Col(id) => cat.group_key(id),
    };
    let (lt, pt) = (label.group_by.len(), pred.group_by.len());
    let cnt = matched(
        pred.group_by.iter().map(gkey),
        label.group_by.iter().map(gkey).collect(),
    );
    let group_wo = score(Component::GroupNoHaving, cnt, pt, lt);

    // group (with having)
    let pt = usize::from(!pred.group_by.is_empty());
    let lt = usize::from(!label.group_by.is_empty());
    let same_cols = pred.group_by.len() == label.group_by.len()
        && pred
            .group_by
            .iter()
            .zip(&label.group_by)
            .all(|(a, b)| a.col == b.col);
    let cnt = usize::from(pt == 1 && lt == 1 && same_cols && pred.having == label.having);
    let group = score(Component::Group, cnt, pt, lt);

    // order
    let pt = usize::from(pred.order_by.is_some());
    let lt = usize::from(label.order_by.is_some());
    let cnt = usize::from(
        label.order_by.is_some()
            && pred.order_by == label.order_by
            && pred.limit.is_some() == label.limit.is_some(),
    );
    let order = score(Component::Order, cnt, pt, lt);

    // and/or (totals swapped as in the original)
    let ao = |c: &Condition| (c.conj.contains(&Conj::And), c.conj.contains(&Conj::Or));
    let (pa, la) = (ao(&pred.where_), ao(&label.where_));
    let and_or = if pa == la {
        score(Component::AndOr, 1, 1, 1)
    } else {
        let n = |x: (bool, bool)| usize::from(x.0) + usize::from(x.1);
        // eval_and_or returns (len(pred), len(label), 0) into (label_total, pred_total, cnt)
        score(Component::AndOr, 0, n(la), n(pa))
    };

    // IUEN
    let (mut lt, mut pt, mut cnt) = (0, 0, 0);
    for (p, l) in [
        (&pred.intersect, &label.intersect),
        (&pred.except, &label.except),
        (&pred.union, &label.union),
    ] {
        pt += usize::from(p.is_some());
        lt += usize::from(l.is_some());
        if let (Some(p), Some(l)) = (p, l) {
            cnt += usize::from(exact_match(cat, p, l));
        }
    }
    let iuen = score(Component::Iuen, cnt, pt, lt);

    // keywords
    let (pk, lk) = (keywords(pred), keywords(label));
    let kw = score(
        Component::Keywords,
        (pk & lk).count_ones() as usize,
        pk.count_ones() as usize,
        lk.count_ones() as usize,
    );

    [
        select, select_wo, where_, where_wo, group_wo, group, order, and_or, iuen, kw,
    ]
}

/// Exact set match given already computed partial scores of (pred, label).
pub fn exact_from_partial(partial: &[ComponentScore; 10], pred: &Sql, label: &Sql) -> bool {
    if partial.iter().any(|s| s.f1 != 1.0) {
        return false;
    }
    if label.from.table_units.is_empty() {
        return true;
    }
    // sorted(label) == sorted(pred): multiset equality
    let l = &label.from.table_units;
    let p = &pred.from.table_units;
    l.len() == p.len() && matched(p.iter(), l.iter().collect()) == l.len()
}

/// evaluation.py `Evaluator.eval_exact_match(pred, label)`.
pub fn exact_match(cat: &Catalog, pred: &Sql, label: &Sql) -> bool {
    let partial = partial_match(cat, pred, label);
    exact_from_partial(&partial, pred, label)
}

/// The partial scores as one JSON object keyed by component name, in report order.
pub fn partial_json(scores: &[ComponentScore; 10]) -> String {
    let mut s = String::from("{");
    for (i, c) in scores.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(
            s,
            "\"{}\": {{\"acc\": {}, \"rec\": {}, \"f1\": {}, \"label_total\": {}, \"pred_total\": {}}}",
            c.component.name(),
            c.acc,
            c.rec,
            c.f1,
            c.label_total,
            c.pred_total
        );
    }
    s.push('}');
    s
}
