//! The search for test databases (paper Algorithm 1): greedy over the coverage branches, positives first, one Z3 model per database, growing the instance size while branches stay uncovered.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use z3::SatResult;

use super::database::SymDb;
use super::execute::{Branch, Executor};
use super::options::{Mode, Options};
use super::solver::{bounded_solver, with_bounded_z3};
use crate::exec::instance::Database;
use crate::plan::{Expr, Literal, Op, Plan, QueryPlan};
use crate::schema::Schema;

/// Most databases generated at one instance size.
const MAX_INSTANCES_PER_SIZE: usize = 6;
/// Longest single solver check.
const MAX_CHECK: Duration = Duration::from_millis(500);

/// One generated database and the branches it covers.
#[derive(Debug, Clone)]
pub struct Instance {
    pub db: Database,
    pub covered: Vec<String>,
}

/// What the search produced for one query.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    pub instances: Vec<Instance>,
    /// Labels of every branch found, covered or not.
    pub branches: Vec<String>,
    /// Why symbolic execution stopped early (an unsupported construct, an instance too large).
    pub stopped: Option<String>,
    /// The time budget ran out before the search finished.
    pub exhausted: bool,
}

impl Generated {
    /// Labels of the covered branches.
    pub fn covered(&self) -> HashSet<&str> {
        self.instances
            .iter()
            .flat_map(|i| i.covered.iter().map(|s| s.as_str()))
            .collect()
    }
}

/// Every plan node, including those of subqueries inside expressions.
fn visit_all(plan: &Plan, f: &mut dyn FnMut(&Plan)) {
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
            if let Some(o) = &s.operand {
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

/// Schema columns the query uses as numbers (compared with or combined with a number, summed).
fn numeric_columns(q: &QueryPlan, schema: &Schema) -> HashSet<usize> {
    let mut ids = HashSet::new();
    fn walk(e: &Expr, ids: &mut HashSet<u32>) {
        if let Expr::Call(op, args) = e {
            let numeric_op = op.is_comparison()
                || matches!(
                    op,
                    Op::Plus | Op::Minus | Op::Multiply | Op::Divide | Op::Between
                );
            let has_number = args
                .iter()
                .any(|a| matches!(a, Expr::Literal(Literal::Integer(_) | Literal::Real(_))));
            if numeric_op && has_number {
                for a in args {
                    if let Expr::Column(c) = a {
                        ids.insert(*c);
                    }
                }
            }
            args.iter().for_each(|a| walk(a, ids));
        }
    }
    visit_all(&q.root, &mut |p| {
        for e in p.exprs() {
            walk(e, &mut ids);
        }
        if let Plan::Aggregate(a) = p {
            for c in &a.calls {
                if matches!(
                    c.func,
                    crate::plan::AggFunc::Sum | crate::plan::AggFunc::Avg
                ) {
                    ids.extend(c.args.iter().copied());
                }
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

fn sizes(opts: &Options) -> Vec<usize> {
    let mut v: Vec<usize> = match opts.mode {
        Mode::Complete => (1..=opts.max_rows).collect(),
        _ => vec![2, 3, opts.max_rows],
    };
    v.retain(|&s| s <= opts.max_rows);
    v.dedup();
    if v.is_empty() {
        v.push(opts.max_rows);
    }
    v
}

/// Generates test databases for `q` against `schema` until every branch is covered, the sizes
/// are exhausted, or `deadline` passes. The first database is always the empty one.
pub fn generate(q: &QueryPlan, schema: &Schema, opts: &Options, deadline: Instant) -> Generated {
    let mut out = Generated {
        instances: vec![Instance {
            db: Database::default(),
            covered: vec!["empty database".into()],
        }],
        ..Generated::default()
    };
    let tables = scanned_tables(&q.root, schema);
    let numeric = numeric_columns(q, schema);
    let mut done: HashSet<String> = HashSet::new();
    for size in sizes(opts) {
        let now = Instant::now();
        if now >= deadline {
            out.exhausted = true;
            break;
        }
        let check = (deadline - now).min(MAX_CHECK);
        let seed = opts.seed;
        let mode = opts.mode;
        let result = with_bounded_z3(check, || {
            let db = SymDb::new(schema, &tables, size, &|c| numeric.contains(&c));
            let mut exec = Executor::new(schema, &db, &q.columns);
            let rel = exec.run(&q.root, &[])?;
            let solver = bounded_solver(check, seed);
            db.assert_constraints(schema, &solver);
            let mut branches: Vec<Branch> = exec.branches;
            let rows: Vec<_> = rel.rows.iter().map(|r| r.exists.clone()).collect();
            if !rows.is_empty() {
                branches.insert(
                    0,
                    Branch {
                        label: "result has rows".into(),
                        positive: true,
                        cond: z3::ast::Bool::or(&rows),
                    },
                );
            }
            if mode == Mode::Positive {
                branches.retain(|b| b.positive);
            }
            // positives first, stable otherwise (deterministic)
            branches.sort_by_key(|b| !b.positive);
            let labels: Vec<String> = branches.iter().map(|b| b.label.clone()).collect();
            let mut pending: Vec<Branch> = branches
                .into_iter()
                .filter(|b| !done.contains(&b.label))
                .collect();
            let mut made: Vec<Instance> = Vec::new();
            let mut exhausted = false;
            for round in 0..MAX_INSTANCES_PER_SIZE {
                if pending.is_empty() {
                    break;
                }
                // the first database of a size covers positive branches only (Algorithm 1)
                let positives_only = round == 0 && pending.iter().any(|b| b.positive);
                solver.push();
                let mut chosen: Vec<usize> = Vec::new();
                let mut negatives = 0;
                for (k, b) in pending.iter().enumerate() {
                    if Instant::now() >= deadline {
                        exhausted = true;
                        break;
                    }
                    if !b.positive
                        && (positives_only || (mode == Mode::OneNegative && negatives == 1))
                    {
                        continue;
                    }
                    solver.push();
                    solver.assert(&b.cond);
                    if solver.check() == SatResult::Sat {
                        chosen.push(k);
                        negatives += usize::from(!b.positive);
                    } else {
                        solver.pop(1);
                    }
                }
                let mut model = None;
                if !chosen.is_empty() {
                    for preference in db.diversity() {
                        solver.push();
                        solver.assert(&preference);
                        if solver.check() == SatResult::Sat {
                            model = solver.get_model();
                        }
                        solver.pop(1);
                        if model.is_some() {
                            break;
                        }
                    }
                    if model.is_none() && solver.check() == SatResult::Sat {
                        model = solver.get_model();
                    }
                }
                solver.pop(chosen.len() as u32 + 1);
                let Some(model) = model else {
                    break;
                };
                let covered: Vec<String> =
                    chosen.iter().map(|&k| pending[k].label.clone()).collect();
                made.push(Instance {
                    db: db.concretize(&model),
                    covered,
                });
                let chosen: HashSet<usize> = chosen.into_iter().collect();
                pending = pending
                    .into_iter()
                    .enumerate()
                    .filter(|(k, _)| !chosen.contains(k))
                    .map(|(_, b)| b)
                    .collect();
                if exhausted {
                    break;
                }
            }
            Ok::<_, String>((labels, made, exhausted))
        });
        match result {
            Ok((labels, made, exhausted)) => {
                for l in labels {
                    if !out.branches.contains(&l) {
                        out.branches.push(l);
                    }
                }
                for i in made {
                    done.extend(i.covered.iter().cloned());
                    out.instances.push(i);
                }
                out.exhausted |= exhausted;
                if exhausted {
                    break;
                }
                if opts.mode != Mode::Complete && out.branches.iter().all(|b| done.contains(b)) {
                    break;
                }
            }
            Err(reason) => {
                out.stopped = Some(reason);
                break;
            }
        }
    }
    out
}
