//! Deciding a pair: plan both queries, run them on the gold's generated databases, the
//! prediction's, later rounds' and random databases (`checker`), and give the verdict, cached per
//! (gold, prediction, schema, options).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::checker::{Checker, Source};
use super::decision::{Decision, Verdict};
use super::evidence::Evidence;
use super::gold_suite::gold_suite;
use super::plausible_dates;
use super::random_databases::RandomDatabases;
use super::same_query::same_query;
use super::sqlite_text::for_sqlite;
use crate::cache::NamedCache;
use crate::error::Result;
use crate::exec::instance::Outcome;
use crate::exec::leniency::Leniency;
use crate::parse::dialect::{untag, untag_lenient, Dialect};
use crate::parseval::options::{Options, Semantics};
use crate::parseval::search::generate::Generated;
use crate::parseval::search::text_domains::query_texts;
use crate::parseval::search::work_budget::Work;
use crate::plan::{PlanError, QueryPlan};
use crate::schema::Schema;

/// The schema of a call: parsed from the argument, or inferred from all its queries together
/// (the inference policy of `schema::infer`).
pub fn schema_for(schema: Option<&str>, queries: &[&str]) -> Result<Arc<Schema>> {
    match schema {
        Some(text) => Ok(crate::schema::schema_argument(text)?.schema.clone()),
        None => Ok(Arc::new(Schema::infer_for_queries(queries))),
    }
}

/// The texts the verdict plans and runs: runnable on SQLite ([`for_sqlite`]: Calcite's FETCH
/// and database-qualified names rewritten), then, under `test-suite`, rewritten as
/// test-suite-sql-eval does (DISTINCT removed unless `keep_distinct`, ...).
fn texts_to_run<'a>(gold: &'a str, pred: &'a str, opts: &Options) -> (Cow<'a, str>, Cow<'a, str>) {
    let (gold, pred) = (for_sqlite(gold), for_sqlite(pred));
    if opts.semantics != Semantics::TestSuite {
        return (gold, pred);
    }
    let (g, p) = crate::exec::verdict::test_suite_texts(&gold, &pred, opts.keep_distinct);
    (Cow::Owned(g), Cow::Owned(p))
}

/// What every entry to a verdict starts from: the texts it runs ([`texts_to_run`]) and the
/// call's schema ([`schema_for`] over those texts).
pub(super) fn prepared<'a>(
    gold: &'a str,
    pred: &'a str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<(Cow<'a, str>, Cow<'a, str>, Arc<Schema>)> {
    let (gold, pred) = texts_to_run(gold, pred, opts);
    let s = schema_for(schema, &[gold.as_ref(), pred.as_ref()])?;
    Ok((gold, pred, s))
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
    // a gold read leniently (`parse::translate::read_leniently`) is also compared as written
    let written = untag_lenient(gold);
    let (gold, pred, s) = prepared(gold, pred, schema, opts)?;
    let (gold, pred) = (gold.as_ref(), pred.as_ref());
    let key = format!(
        "{}\u{1}{}\u{1}{}\u{1}{}\u{1}{}\u{1}{:?}\u{1}{}",
        gold.len(),
        gold,
        pred,
        schema.map_or(0, |s| s.len()),
        schema.unwrap_or("\u{2}"),
        opts,
        written.unwrap_or("\u{2}")
    );
    let texts = [gold, written.unwrap_or(gold)];
    let decide = |s: Arc<Schema>, schema: Option<&str>| decide_with(texts, pred, s, schema, opts);
    let fresh = || {
        if !opts.leniency.forgives(Leniency::PlausibleDates) {
            return decide(s.clone(), schema);
        }
        // the queries are planned for their date columns only where a difference needs them
        let plans = || {
            [gold, pred]
                .iter()
                .filter_map(|q| crate::plan::plan_sql(q, &s).ok())
                .collect()
        };
        plausible_dates::decide_plausibly(s.clone(), schema, plans, decide)
    };
    Ok(DECISIONS.get().get_or_insert_if(&key, fresh, |d| !d.capped))
}

/// Decides whether `gold` and `pred` are equivalent on databases generated for both plans.
#[cfg(test)]
pub fn decide(gold: &str, pred: &str, schema: Arc<Schema>, opts: &Options) -> Decision {
    decide_with([gold, gold], pred, schema, None, opts)
}

/// [`decide`], with the schema argument's text when there is one (it keys the gold's suite;
/// None keys it by the schema model, as when the schema is inferred from both queries), and the
/// gold as written beside the text run (they differ for a gold read leniently).
fn decide_with(
    [gold, written]: [&str; 2],
    pred: &str,
    schema: Arc<Schema>,
    schema_text: Option<&str>,
    opts: &Options,
) -> Decision {
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
        semantics: opts.semantics,
        databases_of: opts.databases,
        random: false,
        random_tried: 0,
        leniency: Vec::new(),
        uninterpreted: Vec::new(),
        identical: None,
    };
    // a prediction of another dialect that SQLite rejects although it plans (or is refused by
    // the planner only as unsupported) may run in its own dialect: its failure is the
    // translation's, and disproves nothing (docs/dialects.md)
    let pred_planned = crate::plan::plan_sql(pred, &schema);
    let translation_fails = untag(pred).0 != Dialect::Sqlite
        && !matches!(
            pred_planned,
            Err(PlanError::Invalid(_) | PlanError::Parse(_))
        );
    let gold_planned = crate::plan::plan_sql(gold, &schema);
    let gold_over_limit = matches!(gold_planned, Err(PlanError::Limit(_) | PlanError::Parse(_)));
    let finish = |mut d: Decision, v: Verdict| {
        let v = match v {
            Verdict::Different(c) if translation_fails => match &c.pred {
                Outcome::Error(e) => Verdict::Unknown(format!(
                    "the prediction's SQLite translation fails, which its dialect may run: {e}"
                )),
                _ => Verdict::Different(c),
            },
            v => v,
        };
        d.verdict = match v {
            // what came before the cap is what an uncapped call computes first: its first
            // ordinary counterexample is the same; any other verdict might not be
            Verdict::Different(c) if c.evidence == Evidence::Ordinary => Verdict::Different(c),
            _ if work.capped() => Verdict::Unknown(work.cap_reason()),
            v => v,
        };
        // a pair left undecided whose prediction is the gold query itself is equivalent by
        // identity (both fail alike, or no database could be made): what was undecided is why;
        // a query over a planning limit stays refused, as the limit says. A gold read leniently
        // is the prediction itself also where the prediction is the gold as written, which
        // SQLite fails as it fails the prediction: a query is equivalent to itself, whatever
        // the reading made of the gold
        let as_written = || written != gold && !gold_over_limit && same_query(written, pred);
        match &d.verdict {
            Verdict::Unknown(why)
                if !gold_over_limit && (as_written() || same_query(gold, pred)) =>
            {
                d.identical = Some(why.clone());
                d.verdict = Verdict::Equivalent;
            }
            Verdict::Different(_) if as_written() => {
                d.identical = Some(
                    "the gold query as written calls what SQLite lacks, as the prediction \
                     does; read leniently, it runs"
                        .into(),
                );
                d.verdict = Verdict::Equivalent;
            }
            _ => {}
        }
        d.work = work.spent();
        d.capped = work.capped();
        d.elapsed = start.elapsed();
        d
    };
    // a construct of another dialect without a faithful translation gives no verdict, even
    // where the prediction alone holds it (docs/dialects.md); the gold's fails to plan below
    if let Some(c) = crate::parse::translate::untranslated_construct(pred) {
        let reason = format!("the prediction's {c} has no faithful translation into SQLite");
        return finish(d, Verdict::Unknown(reason));
    }
    let gold_plan = match gold_planned {
        Ok(p) => p,
        Err(e) => {
            return finish(
                d,
                Verdict::Unknown(format!("the gold query cannot be planned: {e}")),
            )
        }
    };
    let pred_plan = pred_planned.ok();
    // each query's speculative texts include the other's literals
    let gold_texts = query_texts(&gold_plan);
    let pred_texts = pred_plan.as_ref().map(query_texts).unwrap_or_default();
    let literals: Vec<String> = gold_texts.iter().chain(&pred_texts).cloned().collect();
    let mut checker = Checker::new(
        gold,
        pred,
        &schema,
        &gold_plan,
        pred_plan.as_ref(),
        &literals,
    );
    checker.semantics = opts.semantics;
    checker.leniency = opts.leniency;
    let mut suites: Vec<Arc<Generated>> = Vec::new();
    let suite_for = |o: &Options| gold_suite(schema_text, &schema, gold, &gold_plan, o);
    let mut found = checker.empty();
    // a gold SQLite does not compile fails on every database as on the empty one: no search
    // (`undecided` says the gold fails)
    let never_runs = checker.gold_never_compiles();
    if let Some(why) = never_runs
        .then(|| checker.undecided(&Generated::default()))
        .flatten()
    {
        d.databases = checker.tried;
        d.uninterpreted = checker.called.iter().cloned().collect();
        return finish(d, Verdict::Unknown(why));
    }
    found = found.or_else(|| {
        let gold_suite = suite_for(opts);
        checker.search(
            schema_text,
            opts,
            &work,
            &gold_suite,
            &gold_texts,
            &mut suites,
        )
    });
    // later rounds search the gold's databases of other seeds while no difference has been
    // found (the prediction's own search runs in the first round only; the gold's databases of
    // a seed are generated once per gold and shared by its predictions): a weak one
    // (`checker.best`; an ordinary one ends the search) starts no other round, which would only
    // look for stronger evidence of a difference already shown (docs/parseval.md); their
    // databases count as tried, their branches are the first round's again and are not counted
    for round in 1..opts.rounds() {
        let weak = checker.best.is_some();
        if found.is_some() || checker.pred_is_gold || weak || work.all().exhausted() {
            break;
        }
        let again = Options {
            seed: opts.seed.wrapping_add(round),
            ..*opts
        };
        found = checker.gold_search(&work, &suite_for(&again));
    }
    // the last search: random databases, where nothing ordinary was found and the prediction
    // plans to something else
    if found.is_none() && !checker.pred_is_gold && !work.all().exhausted() && opts.random() > 0 {
        // the first databases were examined before the prediction's search: what they showed
        // is taken in order, and the generator goes on from there
        let (mut random, shown) = checker.first_random.take().unwrap_or_else(|| {
            let plans: Vec<&QueryPlan> = std::iter::once(&gold_plan)
                .chain(pred_plan.as_ref())
                .collect();
            let random = RandomDatabases::new(&schema, &plans, &literals, opts.seed);
            (random, Vec::new())
        });
        let mut shown = shown.into_iter();
        found = (0..opts.random()).find_map(|_| {
            d.random_tried += 1;
            if let Some(seen) = shown.next() {
                return checker.record(Source::Random, seen);
            }
            let db = {
                let _timer = crate::profile::time(crate::profile::Stage::Databases);
                random.next_database()
            };
            checker.database(Source::Random, &db)
        });
    }
    d.databases = checker.tried;
    d.random = checker.best_is_random;
    d.uninterpreted = checker.called.iter().cloned().collect();
    if let Some(v) = found {
        return finish(d, v);
    }
    if let Some(c) = checker.best.take() {
        return finish(d, Verdict::Different(Box::new(c)));
    }
    d.branches = suites.iter().map(|s| s.branches.len()).sum();
    d.covered = suites
        .iter()
        .map(|s| s.covered().len().saturating_sub(1))
        .sum();
    if let Some(why) = checker.undecided(&suites[0]) {
        return finish(d, Verdict::Unknown(why));
    }
    // databases whose only differences come from tie-breaking at a LIMIT cut-off decide nothing,
    // except under test-suite semantics, which compares the rows SQLite returns
    d.tie_databases = checker.ties;
    match checker.tie_counterexample() {
        Some(c) => finish(d, Verdict::Different(Box::new(c))),
        None => {
            // the leniencies decided: without them some database told the queries apart
            d.leniency = checker.lenient.iter().copied().collect();
            finish(d, Verdict::Equivalent)
        }
    }
}
