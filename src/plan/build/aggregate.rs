//! GROUP BY and aggregate calls: a pre-projection for computed keys and arguments, the Aggregate
//! operator, and the rewrite of SELECT/HAVING/ORDER BY expressions onto its outputs.

use super::{BuildResult, Builder, PlanError};
use crate::plan::columns::ColumnId;
use crate::plan::expr::{AggFunc, Expr, Op};
use crate::plan::node::{AggCall, Aggregate, Plan, Project};

/// An aggregate call found in an expression, before it gets its output column.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    func: AggFunc,
    distinct: bool,
    args: Vec<Expr>,
}

impl Builder<'_> {
    /// An `ANY_VALUE(column)` call with its own output column: one value of `column` per group
    /// (SQLite's bare column in an aggregate query, a hidden ORDER BY column under DISTINCT).
    pub(super) fn any_value(&mut self, column: ColumnId) -> AggCall {
        let meta = self.columns.meta(column).clone();
        let id = self.columns.derived(
            &meta.name,
            meta.ty,
            format!("ANY_VALUE({})", meta.label),
            false,
        );
        AggCall {
            id,
            func: AggFunc::AnyValue,
            distinct: false,
            args: vec![column],
        }
    }

    /// Plans `input` grouped by `group`, and rewrites every expression of `targets` to read the
    /// Aggregate's outputs: group expressions become key columns, aggregate calls their result
    /// columns, and a column that is neither (SQLite's "bare column") an `ANY_VALUE` call.
    pub(super) fn aggregate(
        &mut self,
        input: Plan,
        group: Vec<Expr>,
        targets: Vec<&mut Expr>,
    ) -> BuildResult<Plan> {
        if group.iter().any(Expr::has_aggregate) {
            return Err(PlanError::Invalid(
                "aggregate functions are not allowed in GROUP BY".into(),
            ));
        }
        let available = input.output();
        let mut group_exprs: Vec<Expr> = Vec::new();
        for g in group {
            if !group_exprs.contains(&g) {
                group_exprs.push(g);
            }
        }
        let mut found: Vec<Found> = Vec::new();
        let mut bare: Vec<ColumnId> = Vec::new();
        for t in &targets {
            collect(t, &group_exprs, &available, &mut found, &mut bare)?;
        }
        let (input, group_ids, call_args) = self.pre_project(input, &group_exprs, &found, &bare);
        let mut calls = self.agg_calls(&found, call_args, group_ids.len());
        let mut bare_ids = Vec::new();
        for &b in &bare {
            let call = self.any_value(b);
            bare_ids.push((b, call.id));
            calls.push(call);
        }
        let found_ids: Vec<(Found, ColumnId)> =
            found.into_iter().zip(calls.iter().map(|c| c.id)).collect();
        for t in targets {
            *t = rewrite(t, &group_exprs, &group_ids, &found_ids, &bare_ids);
        }
        Ok(Plan::Aggregate(Aggregate {
            input: Box::new(input),
            group: group_ids,
            calls,
        }))
    }

    /// Every group key, aggregate argument and bare column must be an input column; the others
    /// are computed in a Project below the Aggregate, as Calcite does. Returns the input
    /// (projected when needed), the group key columns and each call's argument columns.
    fn pre_project(
        &mut self,
        input: Plan,
        group: &[Expr],
        found: &[Found],
        bare: &[ColumnId],
    ) -> (Plan, Vec<ColumnId>, Vec<Vec<ColumnId>>) {
        let mut pre = PreProject::default();
        let group_ids: Vec<ColumnId> = group.iter().map(|g| pre.column_of(self, g)).collect();
        let mut call_args: Vec<Vec<ColumnId>> = Vec::new();
        for f in found {
            call_args.push(f.args.iter().map(|a| pre.column_of(self, a)).collect());
        }
        for b in bare {
            pre.column_of(self, &Expr::Column(*b));
        }
        let input = if pre.computed {
            Plan::Project(Project {
                input: Box::new(input),
                items: pre.items,
            })
        } else {
            input
        };
        (input, group_ids, call_args)
    }

    /// The Aggregate's calls, each with its output column (`$f<n>`, numbered after the `keys`
    /// group columns) over its argument columns.
    fn agg_calls(
        &mut self,
        found: &[Found],
        call_args: Vec<Vec<ColumnId>>,
        keys: usize,
    ) -> Vec<AggCall> {
        let mut calls = Vec::new();
        for (f, args) in found.iter().zip(call_args) {
            let e = Expr::call(Op::Aggregate(f.func.clone(), f.distinct), f.args.clone());
            let id = self.columns.derived(
                &format!("$f{}", keys + calls.len()),
                e.data_type(&self.columns),
                e.digest(&self.columns),
                f.func == AggFunc::Count,
            );
            calls.push(AggCall {
                id,
                func: f.func.clone(),
                distinct: f.distinct,
                args,
            });
        }
        calls
    }
}

/// The Project below an Aggregate: one item per distinct key, argument or bare column.
#[derive(Default)]
struct PreProject {
    items: Vec<(ColumnId, Expr)>,
    /// Some item is computed (not a plain input column), so the Project is needed.
    computed: bool,
}

impl PreProject {
    /// The column holding `e`: an input column as is, anything else a new `$f<n>` column.
    fn column_of(&mut self, b: &mut Builder<'_>, e: &Expr) -> ColumnId {
        if let Some((id, _)) = self.items.iter().find(|(_, x)| x == e) {
            return *id;
        }
        let id = match e {
            Expr::Column(c) => *c,
            other => {
                self.computed = true;
                let ty = other.data_type(&b.columns);
                let label = other.digest(&b.columns);
                let name = format!("$f{}", self.items.len());
                b.columns.derived(&name, ty, label, false)
            }
        };
        self.items.push((id, e.clone()));
        id
    }
}

fn collect(
    e: &Expr,
    group: &[Expr],
    available: &[ColumnId],
    found: &mut Vec<Found>,
    bare: &mut Vec<ColumnId>,
) -> BuildResult<()> {
    if group.contains(e) {
        return Ok(());
    }
    match e {
        Expr::Call(Op::Aggregate(func, distinct), args) => {
            let f = Found {
                func: func.clone(),
                distinct: *distinct,
                args: args.clone(),
            };
            if !found.contains(&f) {
                found.push(f);
            }
        }
        Expr::Call(_, args) => {
            for a in args {
                collect(a, group, available, found, bare)?;
            }
        }
        Expr::Column(c) => {
            if available.contains(c) && !bare.contains(c) {
                bare.push(*c);
            }
        }
        Expr::Literal(_) | Expr::Subquery(_) => {}
    }
    Ok(())
}

fn rewrite(
    e: &Expr,
    group: &[Expr],
    group_ids: &[ColumnId],
    found: &[(Found, ColumnId)],
    bare: &[(ColumnId, ColumnId)],
) -> Expr {
    if let Some(i) = group.iter().position(|g| g == e) {
        return Expr::Column(group_ids[i]);
    }
    match e {
        Expr::Call(Op::Aggregate(func, distinct), args) => {
            let id = found
                .iter()
                .find(|(f, _)| f.func == *func && f.distinct == *distinct && f.args == *args)
                .map(|(_, id)| *id);
            id.map_or_else(|| e.clone(), Expr::Column)
        }
        Expr::Call(op, args) => Expr::Call(
            op.clone(),
            args.iter()
                .map(|a| rewrite(a, group, group_ids, found, bare))
                .collect(),
        ),
        Expr::Column(c) => bare
            .iter()
            .find(|(b, _)| b == c)
            .map_or(Expr::Column(*c), |(_, id)| Expr::Column(*id)),
        other => other.clone(),
    }
}
