//! Symbolic execution of a plan over the symbolic database, collecting the coverage branches of each operator (paper §3, Table 2).

use std::collections::HashSet;

use z3::ast::{Bool, Int};

use super::aggregate::count;
use super::database::SymDb;
use super::values::{same_value, SymRel, SymRow, SymVal, Truth};
use crate::parseval::SearchError;
use crate::plan::{AggCall, AggFunc, Aggregate, ColumnId, Columns, Expr, Literal, Op, Plan, Sort};
use crate::schema::Schema;

/// Most candidate rows one intermediate relation may hold (joins multiply them).
pub const MAX_REL_ROWS: usize = 400;

/// Most steps one symbolic execution may take: each candidate row an operator outputs is a
/// step, and each pair of input rows an operator compares (a join's pairs, an aggregate's,
/// a sort's or a window's, per key). A subquery is executed again for every row of the query
/// around it, so the steps of one plan multiply where [`MAX_REL_ROWS`] bounds each relation
/// alone; past this bound the search stops at the sizes done ("instance too large"), before
/// the terms built would take seconds.
pub const MAX_STEPS: u64 = 500_000;

/// A coverage branch: a condition on the symbolic database that one test database should meet.
#[derive(Debug, Clone)]
pub struct Branch {
    /// What it covers, e.g. `Filter#2 term 1 false`.
    pub label: String,
    /// Positive branches (a row passes, a pair matches, a group has several rows) come first in
    /// the search; negative ones (a row fails, a tuple joins with nothing, NULLs, empty input) after.
    pub positive: bool,
    pub cond: Bool,
}

/// Walks a plan symbolically.
pub struct Executor<'a> {
    pub schema: &'a Schema,
    pub db: &'a SymDb,
    pub columns: &'a Columns,
    pub branches: Vec<Branch>,
    /// Conditions a database should rather not meet (ties on the keys of an ordered LIMIT, on
    /// which the query's own result depends on tie-breaking): preferred false when the chosen
    /// branches allow it.
    pub avoid: Vec<Bool>,
    /// Operator counter for branch labels.
    pub(super) next_op: usize,
    /// Inside a subquery evaluated per outer row: no branches are collected there.
    pub(super) quiet: usize,
    /// Scalar subqueries whose row-count branches were collected (by address, in order).
    pub(super) scalar_subqueries: Vec<usize>,
    /// The output columns of the aggregate calls executed so far: a HAVING condition's
    /// aggregates, whose `=` against a constant gets boundary branches of its own.
    pub(super) aggregates: HashSet<ColumnId>,
    /// Steps taken so far (see [`MAX_STEPS`]).
    steps: u64,
}

pub(super) fn any(conds: Vec<Bool>) -> Bool {
    if conds.is_empty() {
        Bool::from_bool(false)
    } else {
        Bool::or(&conds)
    }
}

impl<'a> Executor<'a> {
    pub fn new(schema: &'a Schema, db: &'a SymDb, columns: &'a Columns) -> Executor<'a> {
        Executor {
            schema,
            db,
            columns,
            branches: Vec::new(),
            avoid: Vec::new(),
            next_op: 0,
            quiet: 0,
            scalar_subqueries: Vec::new(),
            aggregates: HashSet::new(),
            steps: 0,
        }
    }

    /// Counts `steps` more; past [`MAX_STEPS`] this execution is too large.
    pub(super) fn step(&mut self, steps: usize) -> Result<(), SearchError> {
        self.steps = self.steps.saturating_add(steps as u64);
        self.within_steps()
    }

    /// Whether this execution is still within [`MAX_STEPS`]: a subquery past it counts as
    /// unknown where it is evaluated, so the whole execution is checked again at its end.
    pub fn within_steps(&self) -> Result<(), SearchError> {
        if self.steps > MAX_STEPS {
            return Err(SearchError::TooLarge(format!(
                "symbolic execution past {MAX_STEPS} steps (subqueries run per row multiply them)"
            )));
        }
        Ok(())
    }

    pub(super) fn branch(&mut self, label: String, positive: bool, cond: Bool) {
        if self.quiet == 0 {
            self.branches.push(Branch {
                label,
                positive,
                cond,
            });
        }
    }

    fn checked(&mut self, rel: SymRel) -> Result<SymRel, SearchError> {
        self.step(rel.rows.len())?;
        if rel.rows.len() > MAX_REL_ROWS {
            return Err(SearchError::TooLarge(format!(
                "an intermediate relation has {} candidate rows",
                rel.rows.len()
            )));
        }
        Ok(rel)
    }

    /// The candidate output rows of `plan`; `outer` is the row of an enclosing query.
    pub fn run(&mut self, plan: &Plan, outer: &[(u32, SymVal)]) -> Result<SymRel, SearchError> {
        self.within_steps()?;
        self.next_op += 1;
        let op = self.next_op;
        let rel = match plan {
            Plan::TableScan(t) => self.scan(t)?,
            Plan::Filter(f) => {
                let input = self.run(&f.input, outer)?;
                self.filter(op, input, &f.condition, outer)?
            }
            Plan::Project(p) => {
                let input = self.run(&p.input, outer)?;
                self.projection_branches(op, &p.items, &input, outer);
                let mut rows = Vec::with_capacity(input.rows.len());
                for row in &input.rows {
                    let env = self.env(&input.cols, &row.vals, outer);
                    let vals = p
                        .items
                        .iter()
                        .map(|(_, e)| self.value(e, &env))
                        .collect::<Vec<_>>();
                    rows.push(SymRow {
                        exists: row.exists.clone(),
                        vals,
                    });
                }
                SymRel {
                    cols: p.items.iter().map(|(id, _)| *id).collect(),
                    rows,
                }
            }
            Plan::Join(j) => self.join(op, j, outer)?,
            Plan::Aggregate(a) => self.aggregate(op, a, outer)?,
            Plan::Sort(s) => self.sort(op, s, outer)?,
            Plan::Window(w) => self.window(op, w, outer)?,
            Plan::SetOp(s) => self.setop(op, s, outer)?,
            Plan::Values(v) => {
                let rows = v
                    .rows
                    .iter()
                    .map(|r| SymRow {
                        exists: Bool::from_bool(true),
                        vals: r.iter().map(|e| self.value(e, outer)).collect(),
                    })
                    .collect();
                SymRel {
                    cols: v.columns.clone(),
                    rows,
                }
            }
        };
        self.checked(rel)
    }

    /// The evaluation environment of one row: its columns, then the outer row's.
    pub(super) fn env(
        &self,
        cols: &[u32],
        vals: &[SymVal],
        outer: &[(u32, SymVal)],
    ) -> Vec<(u32, SymVal)> {
        cols.iter()
            .copied()
            .zip(vals.iter().cloned())
            .chain(outer.iter().cloned())
            .collect()
    }

    fn scan(&mut self, t: &crate::plan::TableScan) -> Result<SymRel, SearchError> {
        let ti = self.schema.table_index(&t.table).ok_or_else(|| {
            SearchError::Unsupported(format!("table {} is not in the schema", t.table))
        })?;
        let table = &self.schema.tables[ti];
        let st = self.db.table(ti).ok_or_else(|| {
            SearchError::Unsupported(format!("no candidate tuples for {}", t.table))
        })?;
        let mut positions = Vec::with_capacity(t.columns.len());
        for &id in &t.columns {
            let meta = self.columns.meta(id);
            let pos = meta
                .origin
                .as_ref()
                .and_then(|(_, col)| self.schema.column_index(ti, col))
                .and_then(|c| table.columns.iter().position(|&x| x == c));
            positions.push(pos);
        }
        let rows = st
            .rows
            .iter()
            .map(|r| SymRow {
                exists: r.exists.clone(),
                vals: positions
                    .iter()
                    .map(|p| {
                        p.and_then(|p| r.vals.get(p).cloned())
                            .unwrap_or_else(SymVal::unknown)
                    })
                    .collect(),
            })
            .collect();
        Ok(SymRel {
            cols: t.columns.clone(),
            rows,
        })
    }

    fn filter(
        &mut self,
        op: usize,
        input: SymRel,
        cond: &Expr,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let atoms = atoms(cond);
        let mut per_atom: Vec<Vec<Truth>> = vec![Vec::new(); atoms.len()];
        let mut rows = Vec::with_capacity(input.rows.len());
        let mut passes = Vec::new();
        let mut fails = Vec::new();
        for row in &input.rows {
            let env = self.env(&input.cols, &row.vals, outer);
            let truth = self.truth(cond, &env);
            if self.quiet == 0 {
                for (k, a) in atoms.iter().enumerate() {
                    per_atom[k].push(self.truth(a, &env));
                }
            }
            passes.push(Bool::and(&[row.exists.clone(), truth.t.clone()]));
            fails.push(Bool::and(&[row.exists.clone(), truth.t.not()]));
            rows.push(SymRow {
                exists: Bool::and(&[row.exists.clone(), truth.t]),
                vals: row.vals.clone(),
            });
        }
        self.branch(format!("Filter#{op} some row passes"), true, any(passes));
        self.branch(format!("Filter#{op} some row fails"), false, any(fails));
        for (k, truths) in per_atom.iter().enumerate() {
            let exists = input.rows.iter().map(|r| r.exists.clone());
            let (mut t, mut f, mut u) = (Vec::new(), Vec::new(), Vec::new());
            for (e, tr) in exists.zip(truths) {
                t.push(Bool::and(&[e.clone(), tr.t.clone()]));
                f.push(Bool::and(&[e.clone(), tr.f.clone()]));
                u.push(Bool::and(&[e, tr.is_unknown()]));
            }
            self.branch(format!("Filter#{op} term {k} true"), true, any(t));
            self.branch(format!("Filter#{op} term {k} false"), false, any(f));
            self.branch(format!("Filter#{op} term {k} null"), false, any(u));
            self.boundary_branches(op, (k, atoms[k]), cond, &input, outer);
            self.missing_from_subquery(op, k, atoms[k], &input, outer);
        }
        if atoms.len() == 1 {
            let u: Vec<Bool> = input
                .rows
                .iter()
                .map(|r| {
                    let env = self.env(&input.cols, &r.vals, outer);
                    Bool::and(&[r.exists.clone(), self.truth(cond, &env).is_unknown()])
                })
                .collect();
            self.branch(format!("Filter#{op} condition null"), false, any(u));
        }
        Ok(SymRel {
            cols: input.cols,
            rows,
        })
    }

    fn aggregate(
        &mut self,
        op: usize,
        a: &Aggregate,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let input = self.run(&a.input, outer)?;
        let n = input.rows.len();
        self.step(n * n * (a.group.len() + a.calls.len()).max(1))?;
        let key_pos: Vec<usize> = a
            .group
            .iter()
            .map(|g| {
                input
                    .position(*g)
                    .ok_or_else(|| SearchError::Unsupported(format!("group key ${g} not in input")))
            })
            .collect::<Result<_, _>>()?;
        // member[i][j]: input row j belongs to the group whose representative is row i
        let same_group = |i: usize, j: usize| -> Bool {
            let conds: Vec<Bool> = key_pos
                .iter()
                .map(|&k| same_value(&input.rows[i].vals[k], &input.rows[j].vals[k]))
                .collect();
            Bool::and(&conds)
        };
        let mut reps: Vec<(Bool, Vec<Bool>, usize)> = Vec::new();
        if key_pos.is_empty() {
            let member: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
            reps.push((Bool::from_bool(true), member, 0));
        } else {
            for i in 0..n {
                let mut first = vec![input.rows[i].exists.clone()];
                for j in 0..i {
                    first.push(Bool::and(&[input.rows[j].exists.clone(), same_group(i, j)]).not());
                }
                let member: Vec<Bool> = (0..n)
                    .map(|j| Bool::and(&[input.rows[j].exists.clone(), same_group(i, j)]))
                    .collect();
                reps.push((Bool::and(&first), member, i));
            }
        }
        let exists_all: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
        let big_group: Vec<Bool> = reps
            .iter()
            .map(|(rep, member, _)| Bool::and(&[rep.clone(), count(member).ge(Int::from_i64(2))]))
            .collect();
        self.branch(
            format!("Aggregate#{op} a group of several rows"),
            true,
            any(big_group),
        );
        if !key_pos.is_empty() && reps.len() > 1 {
            let pairs: Vec<Bool> = (0..reps.len())
                .flat_map(|i| (0..i).map(move |j| (i, j)))
                .map(|(i, j)| Bool::and(&[reps[i].0.clone(), reps[j].0.clone()]))
                .collect();
            self.branch(format!("Aggregate#{op} several groups"), true, any(pairs));
        }
        self.branch(
            format!("Aggregate#{op} empty input"),
            false,
            any(exists_all).not(),
        );
        self.argument_branches(op, &a.calls, &input, &same_group);
        self.aggregates.extend(a.calls.iter().map(|c| c.id));
        let mut rows = Vec::with_capacity(reps.len());
        for (rep, member, i) in &reps {
            let mut vals: Vec<SymVal> = key_pos
                .iter()
                .map(|&k| {
                    input
                        .rows
                        .get(*i)
                        .map_or_else(SymVal::null, |r| r.vals[k].clone())
                })
                .collect();
            for call in &a.calls {
                vals.push(self.agg_call(call, &input, member, *i));
            }
            rows.push(SymRow {
                exists: rep.clone(),
                vals,
            });
        }
        Ok(SymRel {
            cols: a.output_columns(),
            rows,
        })
    }

    fn agg_call(&mut self, call: &AggCall, input: &SymRel, member: &[Bool], rep: usize) -> SymVal {
        let arg = call.args.first().and_then(|c| input.position(*c));
        let Some(p) = arg else {
            return match call.func {
                AggFunc::Count => SymVal::of(super::values::Term::Int(count(member))),
                _ => SymVal::unknown(),
            };
        };
        // rows of the group whose argument is not NULL (first occurrence only under DISTINCT)
        let mut live: Vec<Bool> = Vec::with_capacity(member.len());
        for (j, m) in member.iter().enumerate() {
            let mut c = vec![m.clone(), input.rows[j].vals[p].null.not()];
            if call.distinct {
                for (k, mk) in member.iter().enumerate().take(j) {
                    let dup = Bool::and(&[
                        mk.clone(),
                        input.rows[k].vals[p].null.not(),
                        same_value(&input.rows[k].vals[p], &input.rows[j].vals[p]),
                    ]);
                    c.push(dup.not());
                }
            }
            live.push(Bool::and(&c));
        }
        let vals: Vec<&SymVal> = input.rows.iter().map(|r| &r.vals[p]).collect();
        super::aggregate::call(
            &call.func,
            &live,
            &vals,
            input.rows.get(rep).map(|r| &r.vals[p]),
        )
    }

    fn sort(
        &mut self,
        op: usize,
        s: &Sort,
        outer: &[(u32, SymVal)],
    ) -> Result<SymRel, SearchError> {
        let input = self.run(&s.input, outer)?;
        self.step(input.rows.len() * input.rows.len() * s.keys.len())?;
        let keys: Vec<usize> = s
            .keys
            .iter()
            .filter_map(|k| input.position(k.column))
            .collect();
        let mut tie_free: Option<Bool> = None;
        if !keys.is_empty() && input.rows.len() > 1 {
            let mut ties = Vec::new();
            for i in 0..input.rows.len() {
                for j in 0..i {
                    let (a, b) = (&input.rows[i], &input.rows[j]);
                    let mut c = vec![a.exists.clone(), b.exists.clone()];
                    c.extend(keys.iter().map(|&k| same_value(&a.vals[k], &b.vals[k])));
                    ties.push(Bool::and(&c));
                }
            }
            let exists: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
            let several = count(&exists).ge(Int::from_i64(2));
            self.branch(format!("Sort#{op} several rows to order"), true, several);
            let tie = any(ties);
            if s.fetch.is_some() && self.quiet == 0 {
                self.avoid.push(tie.clone());
            }
            tie_free = Some(tie.clone());
            self.branch(format!("Sort#{op} tie on the keys"), false, tie);
        }
        if let Some(Expr::Literal(Literal::Integer(k))) = &s.fetch {
            let exists: Vec<Bool> = input.rows.iter().map(|r| r.exists.clone()).collect();
            let more = count(&exists).gt(Int::from_i64(*k));
            // without ties on the keys: the rows kept are then the query's own choice, not
            // SQLite's tie-breaking, so a database covering this can tell queries apart
            let mut cond = vec![more];
            cond.extend(tie_free.map(|t| t.not()));
            self.branch(
                format!("Sort#{op} more rows than the limit"),
                true,
                Bool::and(&cond),
            );
        }
        // LIMIT/OFFSET are not modelled: the operators above see every row (execution decides)
        Ok(input)
    }
}

/// The atoms of a condition: its leaves under AND, OR and NOT.
pub fn atoms(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Call(Op::And | Op::Or, args) => args.iter().flat_map(atoms).collect(),
        Expr::Call(Op::Not, args) if args.len() == 1 => atoms(&args[0]),
        _ => vec![e],
    }
}

trait OutputColumns {
    fn output_columns(&self) -> Vec<u32>;
}

impl OutputColumns for Aggregate {
    fn output_columns(&self) -> Vec<u32> {
        self.group
            .iter()
            .copied()
            .chain(self.calls.iter().map(|c| c.id))
            .collect()
    }
}
