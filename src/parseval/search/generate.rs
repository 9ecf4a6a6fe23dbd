//! The search for test databases (paper Algorithm 1): greedy over the coverage branches, positives first, one Z3 model per database, growing the instance size while branches stay uncovered.

use std::collections::{HashMap, HashSet};

use z3::ast::Bool;

use super::cover::{assert_pending, assert_preferences, cover};
use super::solver::{bounded_solver, with_bounded_z3};
use super::work_budget::Budget;
use crate::exec::instance::Database;
use crate::parseval::options::{Mode, Options};
use crate::parseval::symbolic::database::{SymDb, TextDomains};
use crate::parseval::symbolic::execute::{Branch, Executor};
use crate::parseval::symbolic::speculative_text::{date_domain, query_texts, text_domains};
use crate::parseval::symbolic::values::Sort;
use crate::parseval::symbolic::values::SymRel;
use crate::parseval::symbolic::z3_text::alphabet_scope;
use crate::parseval::SearchError;
use crate::plan::{AggFunc, Expr, Literal, Op, Plan, QueryPlan};
use crate::schema::Schema;

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
    /// The work budget (or the wall-clock safety cap) ran out before the search finished.
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

/// How the query uses schema columns: as numbers (compared or combined with a number, summed)
/// or as text (compared with text that is not a number, LIKE, string and date functions).
pub fn column_hints(q: &QueryPlan, schema: &Schema) -> HashMap<usize, Sort> {
    let mut ids: HashMap<u32, Sort> = HashMap::new();
    fn walk(e: &Expr, ids: &mut HashMap<u32, Sort>) {
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
                    "julianday", "instr", "replace", "lower", "upper", "trim", "length"].contains(&f.as_str()))
                || (cmp && has_text);
            let hint = if textual {
                Some(Sort::Text)
            } else if numeric_op && has_number {
                Some(Sort::Int)
            } else {
                None
            };
            if let Some(h) = hint {
                for a in args {
                    if let Expr::Column(c) = a {
                        ids.entry(*c).or_insert(h);
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
        for x in summed_columns(p) {
            ids.entry(x).or_insert(Sort::Int);
        }
    });
    ids.iter()
        .filter_map(|(&id, &h)| Some((schema_column(q, schema, id)?, h)))
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
/// ([`crate::parseval::symbolic::speculative_text::text_domains`]); one only compared with a number keeps the
/// literals and fillers of every text column.
fn computed_columns(q: &QueryPlan, schema: &Schema) -> HashSet<usize> {
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

/// Most tables in one generated database (the query's tables plus those their foreign keys reach).
const MAX_TABLES: usize = 8;

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
fn used_columns(q: &QueryPlan, schema: &Schema) -> HashSet<usize> {
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

/// Rows per table the query's COUNT thresholds need (`HAVING COUNT(x) > 5` needs 6 rows in a
/// group) and its LIMITs (`LIMIT 5` needs 6 rows to cut; `LIMIT 2 OFFSET 3`, 6), at most
/// [`crate::parseval::options::MAX_ROWS_LIMIT`] (a larger LIMIT adds nothing); 0 when it has none.
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
                let (col, lit, flipped) = match (a, b) {
                    (Expr::Column(c), Expr::Literal(Literal::Integer(k))) => (*c, *k, false),
                    (Expr::Literal(Literal::Integer(k)), Expr::Column(c)) => (*c, *k, true),
                    _ => (u32::MAX, 0, false),
                };
                if counts.contains(&col) {
                    let n = match (op, flipped) {
                        (Op::Gt, false) | (Op::Lt, true) => lit + 1,
                        (Op::GtEq | Op::Eq, _) | (Op::LtEq, true) => lit,
                        _ => 0,
                    };
                    *need = (*need).max(n);
                }
            }
            args.iter().for_each(|a| walk(a, counts, need));
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
fn window_rows(q: &QueryPlan) -> usize {
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

/// Instance sizes tried in order: 2, 3, `max_rows`, from `least` up (what an ordered window
/// needs, at most `max_rows`), then what the COUNT thresholds need (`needed`) when that is larger
/// (the growing instance size of Algorithm 1).
fn sizes(opts: &Options, needed: usize, least: usize) -> Vec<usize> {
    let mut v: Vec<usize> = match opts.mode {
        Mode::Complete => (1..=opts.max_rows).collect(),
        _ => vec![2, 3, opts.max_rows],
    };
    let least = least.min(opts.max_rows);
    v.retain(|&s| s >= least && s <= opts.max_rows);
    v.dedup();
    if v.is_empty() {
        v.push(opts.max_rows);
    }
    if needed > opts.max_rows {
        v.push(needed);
    }
    v
}

/// What the search fixes for one query: the tables generated, how the query uses their
/// columns, the columns it models, and the texts speculative values are drawn from.
struct Setting<'a> {
    q: &'a QueryPlan,
    schema: &'a Schema,
    opts: &'a Options,
    tables: Vec<usize>,
    hints: HashMap<usize, Sort>,
    computed: HashSet<usize>,
    used: HashSet<usize>,
    literals: Vec<String>,
    /// The tables the query itself reads (`tables` adds those their foreign keys reach).
    scanned: Vec<usize>,
}

/// The databases generated at one instance size: the labels of every branch found, the
/// databases, whether the budget ran out, and whether some text value was speculative.
struct AtSize {
    labels: Vec<String>,
    made: Vec<Instance>,
    exhausted: bool,
    speculated: bool,
}

/// Generates test databases for `q` against `schema` until every branch is covered, the sizes
/// are exhausted, or `budget` runs out. The first database is always the empty one. Text values
/// are speculative first (the query's literals, `also`'s and dates around them, see
/// symbolic/speculative_text.rs); branches that leaves uncovered are searched again over all strings.
pub fn generate(
    q: &QueryPlan,
    schema: &Schema,
    opts: &Options,
    budget: Budget<'_>,
    also: &[String],
) -> Generated {
    // the wide characters of this search's texts get the same stand-ins whatever ran before
    let _alphabet = alphabet_scope();
    let mut out = Generated {
        instances: vec![Instance {
            db: Database::default(),
            covered: vec!["empty database".into()],
        }],
        ..Generated::default()
    };
    let scanned = scanned_tables(&q.root, schema);
    let tables = with_referenced_tables(scanned.clone(), schema, MAX_TABLES);
    let mut used = used_columns(q, schema);
    // foreign-key columns among the generated tables are modelled, so every generated
    // database honours its foreign keys (a row referencing a missing key is no valid database)
    for &t in &tables {
        for fk in schema
            .tables
            .get(t)
            .map_or(&[][..], |x| &x.foreign_keys[..])
        {
            if tables.contains(&fk.referenced_table) {
                used.extend(fk.columns.iter().chain(&fk.referenced_columns).copied());
            }
        }
    }
    let mut literals = query_texts(q);
    for t in also {
        if !literals.contains(t) {
            literals.push(t.clone());
        }
    }
    let setting = Setting {
        q,
        schema,
        opts,
        hints: column_hints(q, schema),
        computed: computed_columns(q, schema),
        tables,
        used,
        literals,
        scanned,
    };
    let sizes = sizes(opts, threshold_rows(q), window_rows(q));
    let mut done: HashSet<String> = HashSet::new();
    for speculative in [true, false] {
        let mut speculated = false;
        for &size in &sizes {
            if budget.exhausted() {
                out.exhausted = true;
                break;
            }
            match search_size(&setting, size, speculative, &done, budget) {
                Ok(at) => {
                    speculated |= at.speculated;
                    for l in at.labels {
                        if !out.branches.contains(&l) {
                            out.branches.push(l);
                        }
                    }
                    for i in at.made {
                        done.extend(i.covered.iter().cloned());
                        out.instances.push(i);
                    }
                    out.exhausted |= at.exhausted;
                    if at.exhausted {
                        break;
                    }
                    if opts.mode != Mode::Complete && out.branches.iter().all(|b| done.contains(b))
                    {
                        return out;
                    }
                }
                Err(reason) => {
                    out.stopped = Some(reason.to_string());
                    return out;
                }
            }
        }
        if out.exhausted || !speculated {
            break;
        }
    }
    out
}

/// One size of the search (Algorithm 1's inner loop): up to [`MAX_INSTANCES_PER_SIZE`]
/// databases, each covering a greedy subset of the branches not yet `done`.
fn search_size(
    setting: &Setting,
    size: usize,
    speculative: bool,
    done: &HashSet<String>,
    budget: Budget<'_>,
) -> Result<AtSize, SearchError> {
    let Setting {
        q,
        schema,
        opts,
        tables,
        hints,
        computed,
        used,
        literals,
        scanned,
    } = setting;
    let seed = opts.seed;
    let mode = opts.mode;
    let (domain, numbers) = speculative.then(|| text_domains(literals, size)).unzip();
    let dates = date_domain(literals, size);
    let searched = with_bounded_z3(budget.work().cap(), || {
        let meter = budget.context();
        let db = SymDb::new(
            schema,
            tables,
            size,
            &|c| hints.get(&c).copied(),
            &|c| used.contains(&c),
            TextDomains {
                texts: domain.as_deref(),
                numbers: numbers.as_deref(),
                computed: &|c| computed.contains(&c),
                dates: &dates,
            },
        );
        let mut exec = Executor::new(schema, &db, &q.columns);
        let rel = exec.run(&q.root, &[])?;
        let solver = bounded_solver(seed);
        db.assert_constraints(schema, &solver);
        let branches = ordered_branches(exec.branches, &rel, &db, schema, scanned, mode);
        let labels: Vec<String> = branches.iter().map(|b| b.label.clone()).collect();
        let pending = assert_pending(&solver, branches, done);
        let preferences = assert_preferences(&solver, &exec.avoid, db.diversity());
        let (made, exhausted) = cover(&solver, &meter, &db, pending, &preferences, mode, budget);
        Ok(AtSize {
            labels,
            made,
            exhausted,
            speculated: db.speculated,
        })
    });
    searched.and_then(|at| at)
}

/// The branches of one symbolic run in search order: "result has rows" first, the operators'
/// branches, then one per parent row no scanned table references; positives first, stable
/// otherwise (deterministic); negatives dropped in [`Mode::Positive`].
fn ordered_branches(
    mut branches: Vec<Branch>,
    rel: &SymRel,
    db: &SymDb,
    schema: &Schema,
    scanned: &[usize],
    mode: Mode,
) -> Vec<Branch> {
    let rows: Vec<_> = rel.rows.iter().map(|r| r.exists.clone()).collect();
    if !rows.is_empty() {
        branches.insert(
            0,
            Branch {
                label: "result has rows".into(),
                positive: true,
                cond: Bool::or(&rows),
            },
        );
    }
    for (label, cond) in db.unreferenced_parents(schema, scanned) {
        branches.push(Branch {
            label,
            positive: false,
            cond,
        });
    }
    if mode == Mode::Positive {
        branches.retain(|b| b.positive);
    }
    branches.sort_by_key(|b| !b.positive);
    branches
}
