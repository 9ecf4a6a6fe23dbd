//! Equivalence verdicts: generate databases for both queries, run both on each, and return "equivalent", a re-checked counterexample, or why no verdict.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::evidence::{without_nulls, Evidence};
use super::options::Options;
use super::search::{generate, Generated};
use super::speculation::query_texts;
use super::ties::{cutoff, order_determined, orders_by_hidden_keys, Cutoff};
use super::variants::{foreign_keys_hold, variants};
use super::work::Work;
use crate::cache::NamedCache;
use crate::error::Result;
use crate::exec::instance::{compare_on, open_database, Database, Outcome, RowOrder};
use crate::plan::{Expr, Plan, QueryPlan};
use crate::schema::Schema;

/// The verdict on a pair of queries.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// No generated database tells the queries apart.
    Equivalent,
    /// A database on which their results differ (re-checked on a fresh copy).
    Different(Box<Counterexample>),
    /// No verdict, and why.
    Unknown(String),
}

/// A database that distinguishes two queries, with both outcomes on it.
#[derive(Debug, Clone)]
pub struct Counterexample {
    pub db: Database,
    pub gold: Outcome,
    pub pred: Outcome,
    /// How strong this evidence is (the strongest found is kept).
    pub evidence: Evidence,
}

/// A verdict with the facts behind it (for the reason text).
#[derive(Debug, Clone)]
pub struct Decision {
    pub verdict: Verdict,
    pub schema: Arc<Schema>,
    /// Databases the queries were run on.
    pub databases: usize,
    /// Branches covered / found, over both queries.
    pub covered: usize,
    pub branches: usize,
    /// Databases set aside because a difference there came from tie-breaking at a LIMIT cut-off.
    pub tie_databases: usize,
    /// Z3 resource units spent (the deterministic budget, option `work`).
    pub work: u64,
    /// The wall-clock safety cap stopped the call (the verdict then says so; never cached).
    pub capped: bool,
    pub elapsed: Duration,
}

impl Decision {
    /// 1, 0 or None (NULL).
    pub fn value(&self) -> Option<i64> {
        match self.verdict {
            Verdict::Equivalent => Some(1),
            Verdict::Different(_) => Some(0),
            Verdict::Unknown(_) => None,
        }
    }

    /// One sentence saying why.
    pub fn reason(&self) -> String {
        match &self.verdict {
            Verdict::Equivalent => format!(
                "equivalent: same results on {} generated databases covering {} of {} plan branches{}",
                self.databases.saturating_sub(self.tie_databases),
                self.covered,
                self.branches,
                match self.tie_databases {
                    0 => String::new(),
                    n => format!(
                        " ({n} more set aside: they differ only by tie-breaking at a LIMIT cut-off)"
                    ),
                }
            ),
            Verdict::Different(c) => {
                let why = match (&c.gold, &c.pred) {
                    (_, Outcome::Error(e)) => format!("the prediction fails: {e}"),
                    _ => "the results differ".into(),
                };
                let how = match c.evidence {
                    Evidence::Ordinary => "",
                    Evidence::NullDependent => " (only databases with NULL values tell them apart)",
                    Evidence::EmptyInput => " (they differ only when nothing qualifies)",
                };
                format!(
                    "not equivalent: {why} on a generated database with {} rows{how}",
                    c.db.tables.iter().map(|t| t.rows.len()).sum::<usize>()
                )
            }
            Verdict::Unknown(r) => format!("unknown: {r}"),
        }
    }
}

/// How the gold query's rows are compared: bags, or runs of its outer ORDER BY keys (as far as
/// the keys are output columns).
pub fn row_order(q: &QueryPlan) -> RowOrder {
    let (sort, project) = match &q.root {
        Plan::Sort(s) => (s, None),
        Plan::Project(p) => match &*p.input {
            Plan::Sort(s) => (s, Some(p)),
            _ => return RowOrder::Bag,
        },
        _ => return RowOrder::Bag,
    };
    let out = q.root.output();
    let mut keys = Vec::new();
    for k in &sort.keys {
        let pos = match project {
            None => out.iter().position(|&c| c == k.column),
            Some(p) => p
                .items
                .iter()
                .position(|(_, e)| *e == Expr::Column(k.column)),
        };
        match pos {
            Some(p) => keys.push(p),
            None => break,
        }
    }
    if keys.is_empty() {
        RowOrder::Bag
    } else {
        RowOrder::Sorted(keys)
    }
}

/// Both queries ran and returned different numbers of rows (a tie at the outer LIMIT cut-off
/// changes which rows come back, never how many).
fn count_differs(c: &crate::exec::instance::Comparison) -> bool {
    match (&c.gold, &c.pred) {
        (Outcome::Rows(g), Outcome::Rows(p)) => g.len() != p.len(),
        _ => true,
    }
}

/// The counterexample `db` (on which `outcome` differs), or the same database with its NULLs
/// replaced when the queries still differ there: evidence on ordinary data is the stronger.
fn strongest(
    schema: &Schema,
    gold: &str,
    pred: &str,
    order: &RowOrder,
    listed: bool,
    db: &Database,
    outcome: crate::exec::instance::Comparison,
) -> Counterexample {
    let evidence = Evidence::of(db, &outcome.gold, &outcome.pred);
    // a list comparison holds only where both orders are determined, which replacing
    // NULLs may change: such a counterexample is kept as found
    if evidence == Evidence::NullDependent && !listed {
        if let Some(plain) = without_nulls(schema, db) {
            let run = || {
                open_database(schema, &plain)
                    .ok()
                    .map(|conn| compare_on(&conn, gold, pred, order))
                    .filter(|c| c.differ && !c.gold_failed)
            };
            // like every counterexample, it must differ twice, on fresh copies
            if let (Some(_), Some(c)) = (run(), run()) {
                let evidence = Evidence::of(&plain, &c.gold, &c.pred);
                return Counterexample {
                    db: plain,
                    gold: c.gold,
                    pred: c.pred,
                    evidence,
                };
            }
        }
    }
    Counterexample {
        db: db.clone(),
        gold: outcome.gold,
        pred: outcome.pred,
        evidence,
    }
}

/// The schema of a call: parsed from the argument, or inferred from all its queries together
/// (the inference policy of `schema::infer`).
pub fn schema_for(schema: Option<&str>, queries: &[&str]) -> Result<Arc<Schema>> {
    match schema {
        Some(text) => Ok(crate::schema::schema_argument(text)?.schema.clone()),
        None => Ok(Arc::new(Schema::infer_for_queries(queries))),
    }
}

static DECISIONS: NamedCache<Decision> = NamedCache::new("parseval_decisions", 1_024);

/// [`decide`], cached per (gold, pred, schema, options): `sql_equivalent`,
/// `sql_equivalent_reason` and `sql_counterexample` on one pair compute it once.
pub fn decide_cached(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<Arc<Decision>> {
    let s = schema_for(schema, &[gold, pred])?;
    let key = format!(
        "{}\u{1}{}\u{1}{}\u{1}{}\u{1}{}\u{1}{:?}",
        gold.len(),
        gold,
        pred,
        schema.map_or(0, |s| s.len()),
        schema.unwrap_or("\u{2}"),
        opts
    );
    Ok(DECISIONS
        .get()
        .get_or_insert_if(&key, || decide(gold, pred, s, opts), |d| !d.capped))
}

/// Decides whether `gold` and `pred` are equivalent on databases generated for both plans.
pub fn decide(gold: &str, pred: &str, schema: Arc<Schema>, opts: &Options) -> Decision {
    let start = Instant::now();
    let work = Work::new(opts.work, opts.timeout_ms);
    let mut d = Decision {
        verdict: Verdict::Unknown(String::new()),
        schema: schema.clone(),
        databases: 0,
        covered: 0,
        branches: 0,
        tie_databases: 0,
        work: 0,
        capped: false,
        elapsed: Duration::ZERO,
    };
    let finish = |mut d: Decision, v: Verdict| {
        d.verdict = match v {
            // what came before the cap is what an uncapped call computes first: its first
            // ordinary counterexample is the same; any other verdict might not be
            Verdict::Different(c) if c.evidence == Evidence::Ordinary => Verdict::Different(c),
            _ if work.capped() => Verdict::Unknown(work.cap_reason()),
            v => v,
        };
        d.work = work.spent();
        d.capped = work.capped();
        d.elapsed = start.elapsed();
        d
    };
    let gold_plan = match crate::plan::plan_sql(gold, &schema) {
        Ok(p) => p,
        Err(e) => {
            return finish(
                d,
                Verdict::Unknown(format!("the gold query cannot be planned: {e}")),
            )
        }
    };
    let base_order = row_order(&gold_plan);
    let hidden_keys = orders_by_hidden_keys(&gold_plan);
    let width = gold_plan.root.output().len();
    let mut suites: Vec<Generated> = Vec::new();
    let pred_plan = crate::plan::plan_sql(pred, &schema).ok();
    // each query's speculative texts include the other's literals
    let gold_texts = query_texts(&gold_plan);
    let pred_texts = pred_plan.as_ref().map(query_texts).unwrap_or_default();
    let literals: Vec<String> = gold_texts.iter().chain(&pred_texts).cloned().collect();
    let mut tried = 0;
    let mut gold_failure: Option<String> = None;
    let mut any_rows = false;
    let mut invalid = 0;
    let mut ties = 0;
    // the strongest counterexample so far; the search stops at the first ordinary one
    let mut best: Option<Counterexample> = None;
    let mut check = |suite: &Generated, tried: &mut usize| -> Option<Verdict> {
        // each generated database, then its value variants (see variants.rs), made only when
        // the search gets that far
        let candidates = suite.instances.iter().flat_map(|inst| {
            let made = std::iter::once_with(|| variants(&schema, &inst.db, &literals)).flatten();
            std::iter::once((true, Cow::Borrowed(&inst.db)))
                .chain(made.map(|v| (false, Cow::Owned(v))))
        });
        for (generated, db) in candidates {
            let Ok(conn) = open_database(&schema, &db) else {
                invalid += usize::from(generated);
                continue;
            };
            if !generated && !foreign_keys_hold(&conn, &schema) {
                continue;
            }
            // ORDER BY keys the gold does not output: its rows compare as a list where both
            // queries' orders are determined (no two rows share their keys), else as above
            let order = match &pred_plan {
                Some(pp)
                    if hidden_keys
                        && order_determined(&conn, &gold_plan)
                        && order_determined(&conn, pp) =>
                {
                    RowOrder::Sorted((0..width).collect())
                }
                _ => base_order.clone(),
            };
            let listed = order != base_order;
            let c = compare_on(&conn, gold, pred, &order);
            *tried += usize::from(generated);
            if c.gold_failed {
                if let (true, Outcome::Error(e) | Outcome::Bound(e)) = (generated, &c.gold) {
                    gold_failure.get_or_insert_with(|| e.clone());
                }
                continue;
            }
            for o in [&c.gold, &c.pred] {
                if let (true, Outcome::Rows(r)) = (generated, o) {
                    any_rows |= !r.is_empty();
                }
            }
            let cut = |q: Option<&QueryPlan>| q.map_or(Cutoff::Determined, |q| cutoff(&conn, q));
            if c.differ
                && !count_differs(&c)
                && [cut(Some(&gold_plan)), cut(pred_plan.as_ref())]
                    .iter()
                    .any(|x| *x != Cutoff::Determined)
            {
                // a tie at a LIMIT cut-off: either result depends on tie-breaking
                ties += 1;
                continue;
            }
            if c.differ
                && count_differs(&c)
                && [cut(Some(&gold_plan)), cut(pred_plan.as_ref())].contains(&Cutoff::Tie)
            {
                // an inner tie may change how many rows come back
                ties += 1;
                continue;
            }
            if c.differ {
                // re-check on a fresh copy before reporting
                let again =
                    open_database(&schema, &db).map(|conn| compare_on(&conn, gold, pred, &order));
                if let Ok(again) = again {
                    if again.differ {
                        let found = strongest(&schema, gold, pred, &order, listed, &db, again);
                        if best.as_ref().is_none_or(|b| found.evidence < b.evidence) {
                            best = Some(found);
                        }
                        if best.as_ref().map(|b| b.evidence) == Some(Evidence::Ordinary) {
                            return best.take().map(|c| Verdict::Different(Box::new(c)));
                        }
                    }
                }
            }
        }
        None
    };
    // the empty database first: it costs nothing and catches predictions SQLite rejects
    let empty = Generated {
        instances: vec![super::search::Instance {
            db: Database::default(),
            covered: vec![],
        }],
        ..Generated::default()
    };
    if let Some(v) = check(&empty, &mut tried) {
        d.databases = tried;
        return finish(d, v);
    }
    // the gold's search may spend half the budget, so the prediction's gets the other half at
    // least (a generation runs until its branches or its budget are exhausted)
    let mut g = generate(
        &gold_plan,
        &schema,
        opts,
        work.until(work.limit() / 2),
        &pred_texts,
    );
    g.instances.remove(0); // the empty database was run already
    if let Some(v) = check(&g, &mut tried) {
        d.databases = tried;
        return finish(d, v);
    }
    // keep the empty database in the count of generated ones
    g.instances.insert(0, empty.instances[0].clone());
    suites.push(g);
    if let Some(pp) = &pred_plan {
        if !work.all().exhausted() {
            let mut g = generate(pp, &schema, opts, work.all(), &gold_texts);
            g.instances.remove(0); // the empty database was run already
            if let Some(v) = check(&g, &mut tried) {
                d.databases = tried;
                return finish(d, v);
            }
            suites.push(g);
        }
    }
    if let Some(c) = best {
        d.databases = tried;
        return finish(d, Verdict::Different(Box::new(c)));
    }
    d.databases = tried;
    d.branches = suites.iter().map(|s| s.branches.len()).sum();
    d.covered = suites
        .iter()
        .map(|s| s.covered().len().saturating_sub(1))
        .sum();
    let gold_suite = &suites[0];
    if tried == 0 {
        return finish(
            d,
            Verdict::Unknown(format!(
                "no valid database was generated ({invalid} rejected)"
            )),
        );
    }
    if let Some(e) = gold_failure {
        if !any_rows {
            return finish(
                d,
                Verdict::Unknown(format!(
                    "the gold query fails on the generated databases: {e}"
                )),
            );
        }
    }
    if gold_suite.instances.len() <= 1 {
        let why = match (&gold_suite.stopped, gold_suite.exhausted) {
            (Some(r), _) => r.clone(),
            (None, true) => "work budget exhausted before a database was generated".into(),
            (None, false) => "no database besides the empty one was generated".into(),
        };
        return finish(d, Verdict::Unknown(why));
    }
    if !any_rows {
        return finish(
            d,
            Verdict::Unknown("both queries return no rows on every generated database".into()),
        );
    }
    // databases whose only differences come from tie-breaking at a LIMIT cut-off decide nothing
    d.tie_databases = ties;
    finish(d, Verdict::Equivalent)
}
