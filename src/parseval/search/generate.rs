//! The search for test databases (paper Algorithm 1): greedy over the coverage branches, positives first, one Z3 model per database, growing the instance size while branches stay uncovered.

use std::collections::{HashMap, HashSet};

use z3::ast::Bool;

use super::cover::{assert_pending, assert_preferences, cover};
use super::plan_facts::{
    column_hints, computed_columns, scanned_tables, threshold_rows, used_columns, window_rows,
    with_referenced_tables,
};
use super::solver::{bounded_solver, with_bounded_z3};
use super::text_domains::{date_domain, date_time_domain, query_texts, text_domains};
use super::work_budget::Budget;
use crate::exec::instance::Database;
use crate::parseval::options::{Mode, Options};
use crate::parseval::symbolic::database::{SymDb, TextDomains};
use crate::parseval::symbolic::execute::{Branch, Executor};
use crate::parseval::symbolic::values::{Sort, SymRel};
use crate::parseval::symbolic::z3_text::alphabet_scope;
use crate::parseval::SearchError;
use crate::plan::QueryPlan;
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

/// Most tables in one generated database (the query's tables plus those their foreign keys reach).
const MAX_TABLES: usize = 8;

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
/// text_domains.rs); branches that leaves uncovered are searched again over all strings.
pub fn generate(
    q: &QueryPlan,
    schema: &Schema,
    opts: &Options,
    budget: Budget<'_>,
    also: &[String],
) -> Generated {
    let _timer = crate::profile::time(crate::profile::Stage::Generation);
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
    let date_times = if schema.columns.iter().any(|c| c.plausible_dates) {
        date_time_domain(literals, size)
    } else {
        Vec::new()
    };
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
                date_times: &date_times,
            },
        );
        let mut exec = Executor::new(schema, &db, &q.columns);
        let rel = exec.run(&q.root, &[])?;
        // a subquery stopped past the bound is unknown where it was evaluated: stop here too
        exec.within_steps()?;
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
