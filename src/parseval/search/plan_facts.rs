//! What a query's plan tells the search: every plan node (subqueries included), the tables it
//! reads and those their foreign keys reach, how it uses each schema column (as a number, as
//! text, computed with, read at all), and the rows per table its COUNT thresholds, LIMITs and
//! ordered window calls need.

use std::collections::{HashMap, HashSet};

use crate::parseval::symbolic::values::Sort;
use crate::plan::{AggFunc, Expr, Literal, Op, Plan, QueryPlan};
use crate::schema::{Affinity, Schema};

/// Every plan node, including those of subqueries inside expressions.
pub(crate) fn visit_all(plan: &Plan, f: &mut dyn FnMut(&Plan)) {
    plan.visit(&mut |p| {
        f(p);
        for e in p.exprs() {
            visit_expr_subqueries(e, f);
        }
    });
}

fn visit_expr_subqueries(e: &Expr, f: &mut dyn FnMut(&Plan)) {
    match e {
        Expr::Subquery(s) => {
            for o in &s.operands {
                visit_expr_subqueries(o, f);
            }
            visit_all(&s.plan, f);
        }
        Expr::Call(_, args) => args.iter().for_each(|a| visit_expr_subqueries(a, f)),
        _ => {}
    }
}

/// The schema tables a plan reads.
pub fn scanned_tables(plan: &Plan, schema: &Schema) -> Vec<usize> {
    let mut out = Vec::new();
    visit_all(plan, &mut |p| {
        if let Plan::TableScan(t) = p {
            if let Some(i) = schema.table_index(&t.table) {
                if !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    });
    out
}

/// How the query uses schema columns: as numbers (compared or combined with a number, summed;
/// reals where equated with a number that has a fraction) or as text (compared with text that is
/// not a number, LIKE, string and date functions). A column of INTEGER or REAL affinity is text only where the query compares it with text that is
/// no number (`dname = 'SECURITY'` over `dname INT`): SQLite stores such text as it is, and only
/// text there can make the comparison true.
pub fn column_hints(q: &QueryPlan, schema: &Schema) -> HashMap<usize, Sort> {
    let mut ids: HashMap<u32, Sort> = HashMap::new();
    let mut text_compared: HashSet<u32> = HashSet::new();
    fn walk(e: &Expr, ids: &mut HashMap<u32, Sort>, text_compared: &mut HashSet<u32>) {
        if let Expr::Call(op, args) = e {
            let cmp = op.is_comparison() || matches!(op, Op::Between | Op::InList);
            let numeric_op = cmp || matches!(op, Op::Plus | Op::Minus | Op::Multiply | Op::Divide);
            let has_number = args
                .iter()
                .any(|a| matches!(a, Expr::Literal(Literal::Integer(_) | Literal::Real(_))));
            let has_text = args.iter().any(|a| match a {
                Expr::Literal(Literal::Text(t)) => t.trim().parse::<f64>().is_err(),
                _ => false,
            });
            let textual = matches!(op, Op::Like | Op::Glob | Op::Concat)
                || matches!(op, Op::Function(f) if ["substr", "substring", "strftime", "date", "datetime",
                    "julianday", "instr", "replace", "lower", "upper", "trim", "length", "glob"]
                    .contains(&f.as_str()))
                || (cmp && has_text);
            // a column equated with a number that has a fraction (`price = 548.4`) holds reals:
            // no integer equals it
            let fraction = matches!(op, Op::Eq | Op::InList)
                && args
                    .iter()
                    .any(|a| matches!(a, Expr::Literal(Literal::Real(x)) if x.fract() != 0.0));
            let hint = if textual {
                Some(Sort::Text)
            } else if numeric_op && has_number {
                Some(if fraction { Sort::Real } else { Sort::Int })
            } else {
                None
            };
            if let Some(h) = hint {
                for a in args {
                    if let Expr::Column(c) = a {
                        let sort = ids.entry(*c).or_insert(h);
                        if (*sort, h) == (Sort::Int, Sort::Real) {
                            *sort = Sort::Real;
                        }
                        if cmp && has_text {
                            text_compared.insert(*c);
                        }
                    }
                }
            }
            args.iter().for_each(|a| walk(a, ids, text_compared));
        }
    }
    visit_all(&q.root, &mut |p| {
        for e in p.exprs() {
            walk(e, &mut ids, &mut text_compared);
        }
        for x in summed_columns(p) {
            ids.entry(x).or_insert(Sort::Int);
        }
    });
    // a Text hint on an INTEGER or REAL column holds where it is compared with text, and the
    // column is no key (an INTEGER PRIMARY KEY cannot hold text; keys join with numbers)
    let holds = |id: u32, c: usize| {
        let Some(col) = schema.columns.get(c) else {
            return true;
        };
        if !matches!(col.affinity(), Affinity::Integer | Affinity::Real) {
            return true;
        }
        let key = col.unique
            || schema.tables.get(col.table).is_some_and(|t| {
                t.primary_key.contains(&c) || t.foreign_keys.iter().any(|k| k.columns.contains(&c))
            });
        text_compared.contains(&id) && !key
    };
    ids.iter()
        .filter_map(|(&id, &h)| {
            let c = schema_column(q, schema, id)?;
            (h != Sort::Text || holds(id, c)).then_some((c, h))
        })
        .collect()
}

/// The plan columns that `p`'s SUM and AVG calls read.
fn summed_columns(p: &Plan) -> Vec<u32> {
    match p {
        Plan::Aggregate(a) => a
            .calls
            .iter()
            .filter(|c| matches!(c.func, AggFunc::Sum | AggFunc::Avg))
            .flat_map(|c| c.args.iter().copied())
            .collect(),
        _ => Vec::new(),
    }
}

/// The schema column behind the plan column `id`, if it reads one.
fn schema_column(q: &QueryPlan, schema: &Schema, id: u32) -> Option<usize> {
    let (t, c) = q.columns.meta(id).origin.as_ref()?;
    schema.column_index(schema.table_index(t)?, c)
}

/// The schema columns `q` computes with as numbers: arguments of SUM and AVG and operands of
/// arithmetic. A text column among them draws its values from numbers
/// ([`super::text_domains::text_domains`]); one only compared with a number keeps the
/// literals and fillers of every text column.
pub(super) fn computed_columns(q: &QueryPlan, schema: &Schema) -> HashSet<usize> {
    fn walk(e: &Expr, ids: &mut HashSet<u32>) {
        if let Expr::Call(op, args) = e {
            if matches!(op, Op::Plus | Op::Minus | Op::Multiply | Op::Divide) {
                ids.extend(args.iter().filter_map(|a| match a {
                    Expr::Column(c) => Some(*c),
                    _ => None,
                }));
            }
            args.iter().for_each(|a| walk(a, ids));
        }
    }
    let mut ids: HashSet<u32> = HashSet::new();
    visit_all(&q.root, &mut |p| {
        for e in p.exprs() {
            walk(e, &mut ids);
        }
        ids.extend(summed_columns(p));
    });
    ids.iter()
        .filter_map(|&id| schema_column(q, schema, id))
        .collect()
}

/// `tables` plus the tables their foreign keys reference, transitively (at most `most`).
pub fn with_referenced_tables(mut tables: Vec<usize>, schema: &Schema, most: usize) -> Vec<usize> {
    let mut k = 0;
    while k < tables.len() && tables.len() < most {
        if let Some(t) = schema.tables.get(tables[k]) {
            for fk in &t.foreign_keys {
                if !tables.contains(&fk.referenced_table) && tables.len() < most {
                    tables.push(fk.referenced_table);
                }
            }
        }
        k += 1;
    }
    tables
}

/// Schema columns the query reads; the others get fixed values (keys distinct by row number,
/// NULL where allowed) instead of solver variables.
pub(super) fn used_columns(q: &QueryPlan, schema: &Schema) -> HashSet<usize> {
    let mut ids: HashSet<u32> = q.root.output().into_iter().collect();
    visit_all(&q.root, &mut |p| {
        ids.extend(p.own_column_reads());
        if let Plan::SetOp(s) = p {
            for i in &s.inputs {
                ids.extend(i.output());
            }
        }
    });
    ids.iter()
        .filter_map(|&id| {
            let (t, c) = q.columns.meta(id).origin.as_ref()?;
            schema.column_index(schema.table_index(t)?, c)
        })
        .collect()
}

/// Rows per table the query's COUNT thresholds need for a group on each side of the threshold
/// (`HAVING COUNT(x) > 5`, `COUNT(x) <= 5`, `COUNT(x) = 5` and `COUNT(x) <> 5` need 6 rows in
/// a group; `COUNT(x) >= 5` and `COUNT(x) < 5`, 5) and its LIMITs (`LIMIT 5` needs 6 rows to
/// cut; `LIMIT 2 OFFSET 3`, 6), at most [`crate::parseval::options::MAX_ROWS_LIMIT`] (a larger
/// LIMIT adds nothing); 0 when it has none.
pub(crate) fn threshold_rows(q: &QueryPlan) -> usize {
    let mut counts: HashSet<u32> = HashSet::new();
    let mut need = 0i64;
    visit_all(&q.root, &mut |p| match p {
        Plan::Aggregate(a) => counts.extend(
            a.calls
                .iter()
                .filter(|c| c.func == crate::plan::AggFunc::Count)
                .map(|c| c.id),
        ),
        Plan::Sort(s) => need = need.max(limit_rows(s).unwrap_or(0)),
        _ => {}
    });
    fn walk(e: &Expr, counts: &HashSet<u32>, need: &mut i64) {
        if let Expr::Call(op, args) = e {
            if let [a, b] = args.as_slice() {
                let (side, lit, flipped) = match (a, b) {
                    (x, Expr::Literal(Literal::Integer(k))) => (x, *k, false),
                    (Expr::Literal(Literal::Integer(k)), x) => (x, *k, true),
                    _ => (a, 0, false),
                };
                match side {
                    // rows enough for a group on each side of the comparison's edge:
                    // `COUNT(x) = 4` parts from `COUNT(x) >= 4` only on a group of 5,
                    // `COUNT(x) < 4` from `COUNT(x) < 5` only on a group of 4
                    Expr::Column(col) if counts.contains(col) => {
                        let n = match (op, flipped) {
                            (Op::Eq | Op::NotEq, _)
                            | (Op::Gt | Op::LtEq, false)
                            | (Op::Lt | Op::GtEq, true) => lit.saturating_add(1),
                            (Op::GtEq | Op::Lt, false) | (Op::LtEq | Op::Gt, true) => lit,
                            _ => 0,
                        };
                        *need = (*need).max(n);
                    }
                    // a count inside an expression (`COUNT(DISTINCT sal) + 0 = 4`, a CAST of
                    // it): rows enough for the literal and one more
                    Expr::Call(..) if op.is_comparison() && reads_any(side, counts) => {
                        *need = (*need).max(lit.saturating_add(1));
                    }
                    _ => {}
                }
            }
            args.iter().for_each(|a| walk(a, counts, need));
        }
    }
    fn reads_any(e: &Expr, counts: &HashSet<u32>) -> bool {
        match e {
            Expr::Column(c) => counts.contains(c),
            Expr::Call(_, args) => args.iter().any(|a| reads_any(a, counts)),
            _ => false,
        }
    }
    if !counts.is_empty() {
        visit_all(&q.root, &mut |p| {
            for e in p.exprs() {
                walk(e, &counts, &mut need);
            }
        });
    }
    need.clamp(0, crate::parseval::options::MAX_ROWS_LIMIT as i64) as usize
}

/// The rows a sort's literal LIMIT (after its OFFSET) needs to cut anything, when an instance of
/// at most [`crate::parseval::options::MAX_ROWS_LIMIT`] rows can hold them.
fn limit_rows(s: &crate::plan::Sort) -> Option<i64> {
    let offset = match &s.offset {
        None => 0,
        Some(Expr::Literal(Literal::Integer(k))) => *k,
        Some(_) => return None,
    };
    let Some(Expr::Literal(Literal::Integer(fetch))) = &s.fetch else {
        return None;
    };
    let rows = fetch.saturating_add(offset).saturating_add(1);
    (rows <= crate::parseval::options::MAX_ROWS_LIMIT as i64).then_some(rows)
}

/// Rows per table an ordered window call needs to show what it computes (a tie on its order
/// keys and a third row, where `rank` and `dense_rank` part): 3, or 0 without one.
pub(super) fn window_rows(q: &QueryPlan) -> usize {
    let mut ordered = false;
    visit_all(&q.root, &mut |p| {
        if let Plan::Window(w) = p {
            ordered |= w.calls.iter().any(|c| !c.order.is_empty());
        }
    });
    if ordered {
        3
    } else {
        0
    }
}
