//! Equivalence verdicts: generate databases for both queries, run both on each, and return "equivalent", a re-checked counterexample, or why no verdict.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::evidence::{without_nulls, Evidence};
use super::gold_suite::{gold_suite, same_plan, GoldSuite};
use super::limit_ties::{cutoff, order_determined, orders_by_hidden_keys, Cutoff};
use super::random_databases::RandomDatabases;
use super::repeated_values::{replaceable_columns, without_repeated_values};
use super::sqlite_text::for_sqlite;
use super::value_variants::{foreign_keys_hold, variants};
use crate::cache::NamedCache;
use crate::error::Result;
use crate::exec::instance::{compare_with, open_database, Comparison, Database, Outcome, RowOrder};
use crate::parseval::options::{prediction_share, semantics_name, Databases, Options, Semantics};
use crate::parseval::search::generate::{generate, Generated};
use crate::parseval::search::work_budget::Work;
use crate::parseval::symbolic::speculative_text::query_texts;
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
    /// How the results were compared (option `semantics`).
    pub semantics: Semantics,
    /// Whose generated databases decided (option `databases`).
    pub databases_of: Databases,
    /// The counterexample is a random database (random_databases.rs), not a generated one.
    pub random: bool,
    /// Random databases both queries ran on after the rounds.
    pub random_tried: usize,
}

impl Decision {
    /// 1, 0 or None (NULL). Under `test-suite` semantics a difference that only databases with
    /// NULL values show is None: test-suite evaluation runs databases sampled from real data,
    /// where such NULLs (a NULL foreign key or join column the schema allows) are rare, and its
    /// labels call most such pairs equivalent (docs/semantics.md). A pair that differs there only
    /// by tie-breaking at a LIMIT cut-off is 0 ([`Evidence::TieBreaking`]).
    pub fn value(&self) -> Option<i64> {
        match &self.verdict {
            Verdict::Equivalent => Some(1),
            Verdict::Different(c) if self.null_dependent_under_test_suite(c) => None,
            Verdict::Different(_) => Some(0),
            Verdict::Unknown(_) => None,
        }
    }

    /// Under `test-suite` semantics, a counterexample that needs NULL values: no verdict, as
    /// test-suite evaluation's databases rarely hold the NULLs that tell such queries apart.
    pub fn null_dependent_under_test_suite(&self, c: &Counterexample) -> bool {
        self.semantics == Semantics::TestSuite && c.evidence == Evidence::NullDependent
    }

    /// Whose databases decided, for the reason: nothing for both queries'.
    fn databases_of_text(&self) -> &'static str {
        match self.databases_of {
            Databases::Both => "",
            Databases::Gold => " (the gold query's only)",
        }
    }

    /// One sentence saying why.
    pub fn reason(&self) -> String {
        match &self.verdict {
            Verdict::Equivalent => format!(
                "equivalent: same results under {} semantics on {} generated databases{} covering {} of {} plan branches{}{}",
                semantics_name(self.semantics),
                self.databases.saturating_sub(self.tie_databases),
                self.databases_of_text(),
                self.covered,
                self.branches,
                match self.tie_databases {
                    0 => String::new(),
                    n => format!(
                        " ({n} more set aside: they differ only by tie-breaking at a LIMIT cut-off)"
                    ),
                },
                match self.random_tried {
                    0 => String::new(),
                    n => format!(", and on {n} random databases"),
                }
            ),
            Verdict::Different(c) => {
                let why = match (&c.gold, &c.pred) {
                    (_, Outcome::Error(e)) => format!("the prediction fails: {e}"),
                    _ => format!(
                        "the results differ under {} semantics",
                        semantics_name(self.semantics)
                    ),
                };
                let how = match c.evidence {
                    Evidence::Ordinary => String::new(),
                    Evidence::RepeatedValues => {
                        " (only where a column that is no key repeats a value)".into()
                    }
                    Evidence::NullDependent => {
                        " (only databases with NULL values tell them apart)".into()
                    }
                    Evidence::Repeats => " (they differ only in how often rows repeat)".into(),
                    Evidence::EmptyInput => " (they differ only when nothing qualifies)".into(),
                    Evidence::TieBreaking => format!(
                        " (only by which tied rows a LIMIT keeps, on {} of {} generated \
                         databases{}: test-suite evaluation compares the rows SQLite returns)",
                        self.tie_databases.min(self.databases),
                        self.databases,
                        self.databases_of_text()
                    ),
                };
                let rows = c.db.tables.iter().map(|t| t.rows.len()).sum::<usize>();
                if self.null_dependent_under_test_suite(c) {
                    return format!(
                        "unknown: {why} only on databases with NULL values (a generated database \
                         with {rows} rows), which test-suite evaluation's databases rarely hold"
                    );
                }
                let made = if self.random { "random" } else { "generated" };
                format!("not equivalent: {why} on a {made} database with {rows} rows{how}")
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
/// replaced when the queries still differ there: evidence on ordinary data is the stronger. An
/// ordinary counterexample whose difference goes away once no `replaceable` column repeats a
/// value is [`Evidence::RepeatedValues`].
fn strongest(
    schema: &Schema,
    (gold, pred): (&str, &str),
    (order, semantics): (&RowOrder, Semantics),
    listed: bool,
    replaceable: &[bool],
    db: &Database,
    outcome: crate::exec::instance::Comparison,
) -> Counterexample {
    let run = |db: &Database| {
        open_database(schema, db)
            .ok()
            .map(|conn| compare_with(&conn, gold, pred, order, semantics))
            .filter(|c| !c.gold_failed)
    };
    let mut found = Counterexample {
        evidence: Evidence::of(db, (&outcome.gold, &outcome.pred), order, semantics),
        db: db.clone(),
        gold: outcome.gold,
        pred: outcome.pred,
    };
    // a list comparison holds only where both orders are determined, which replacing
    // values may change: such a counterexample is kept as found
    if listed {
        return found;
    }
    if found.evidence == Evidence::NullDependent {
        if let Some(plain) = without_nulls(schema, db) {
            let differs = || run(&plain).filter(|c| c.differ);
            // like every counterexample, it must differ twice, on fresh copies
            if let (Some(_), Some(c)) = (differs(), differs()) {
                found = Counterexample {
                    evidence: Evidence::of(&plain, (&c.gold, &c.pred), order, semantics),
                    db: plain,
                    gold: c.gold,
                    pred: c.pred,
                };
            }
        }
    }
    if found.evidence == Evidence::Ordinary
        && without_repeated_values(schema, &found.db, replaceable)
            .and_then(|distinct| run(&distinct))
            .is_some_and(|c| !c.differ)
    {
        found.evidence = Evidence::RepeatedValues;
    }
    found
}

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

static DECISIONS: NamedCache<Decision> = NamedCache::new("parseval_decisions", 1_024);

/// [`decide`], cached per (gold, pred, schema, options): `sql_equivalent`,
/// `sql_equivalent_reason` and `sql_counterexample` on one pair compute it once.
pub fn decide_cached(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    opts: &Options,
) -> Result<Arc<Decision>> {
    let (gold, pred) = texts_to_run(gold, pred, opts);
    let (gold, pred) = (gold.as_ref(), pred.as_ref());
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
    Ok(DECISIONS.get().get_or_insert_if(
        &key,
        || decide_with(gold, pred, s, schema, opts),
        |d| !d.capped,
    ))
}

/// Decides whether `gold` and `pred` are equivalent on databases generated for both plans.
#[cfg(test)]
pub fn decide(gold: &str, pred: &str, schema: Arc<Schema>, opts: &Options) -> Decision {
    decide_with(gold, pred, schema, None, opts)
}

/// [`decide`], with the schema argument's text when there is one (it keys the gold's suite;
/// None keys it by the schema model, as when the schema is inferred from both queries).
fn decide_with(
    gold: &str,
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
    // a construct of another dialect without a faithful translation gives no verdict, even
    // where the prediction alone holds it (docs/dialects.md); the gold's fails to plan below
    if let Some(c) = crate::parse::translate::untranslated_construct(pred) {
        let reason = format!("the prediction's {c} has no faithful translation into SQLite");
        return finish(d, Verdict::Unknown(reason));
    }
    let gold_plan = match crate::plan::plan_sql(gold, &schema) {
        Ok(p) => p,
        Err(e) => {
            return finish(
                d,
                Verdict::Unknown(format!("the gold query cannot be planned: {e}")),
            )
        }
    };
    let pred_plan = crate::plan::plan_sql(pred, &schema).ok();
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
    let mut suites: Vec<Arc<Generated>> = Vec::new();
    let suite_for = |o: &Options| gold_suite(schema_text, &schema, gold, &gold_plan, o);
    let mut found = checker
        .empty()
        .or_else(|| checker.search(opts, &work, || suite_for(opts), &gold_texts, &mut suites));
    // later rounds search again with other seeds while nothing ordinary has been found (nor a
    // difference that needs a repeated value: another round for those costs a third more time on
    // BIRD dev for few changes, docs/similarity.md); their databases count as tried, their
    // branches are the first round's again and are not counted
    for round in 1..opts.rounds() {
        let repeated_values = checker
            .best
            .as_ref()
            .is_some_and(|b| b.evidence == Evidence::RepeatedValues);
        if found.is_some() || checker.pred_is_gold || repeated_values || work.all().exhausted() {
            break;
        }
        let again = Options {
            seed: opts.seed.wrapping_add(round),
            ..*opts
        };
        found = checker.search(
            &again,
            &work,
            || suite_for(&again),
            &gold_texts,
            &mut Vec::new(),
        );
    }
    // the last search: random databases, where nothing ordinary was found and the prediction
    // plans to something else
    if found.is_none() && !checker.pred_is_gold && !work.all().exhausted() && opts.random() > 0 {
        let plans: Vec<&QueryPlan> = std::iter::once(&gold_plan)
            .chain(pred_plan.as_ref())
            .collect();
        let mut random = RandomDatabases::new(&schema, &plans, &literals, opts.seed);
        found = (0..opts.random()).find_map(|_| {
            d.random_tried += 1;
            let db = random.next_database();
            checker.database(Source::Random, &db)
        });
    }
    d.databases = checker.tried;
    d.random = checker.best_is_random;
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
        None => finish(d, Verdict::Equivalent),
    }
}

/// Where a database a verdict runs comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Generated for a query's coverage branches.
    Generated,
    /// A value variant of a generated database (value_variants.rs).
    Variant,
    /// Filled at random (random_databases.rs), the last search.
    Random,
}

/// Runs both queries on candidate databases, keeping what the verdict needs: how many generated
/// databases were tried or rejected, the gold's first failure, whether any rows came back, the
/// databases set aside for ties, and the strongest counterexample so far.
struct Checker<'a> {
    gold: &'a str,
    pred: &'a str,
    schema: &'a Schema,
    gold_plan: &'a QueryPlan,
    pred_plan: Option<&'a QueryPlan>,
    /// Both queries' literals, for the value variants.
    literals: &'a [String],
    /// The columns whose repeated values the repeated-values check replaces.
    replaceable: Vec<bool>,
    /// How the gold's rows compare, and whether it orders by keys it does not output.
    base_order: RowOrder,
    hidden_keys: bool,
    width: usize,
    /// How the results are compared.
    semantics: Semantics,
    /// Generated databases (variants not counted) both queries ran on.
    tried: usize,
    /// Generated databases SQLite rejected.
    invalid: usize,
    ties: usize,
    /// The prediction plans to the gold's plan.
    pred_is_gold: bool,
    /// Under `test-suite` semantics, the first database set aside for ties, with its row order.
    first_tie: Option<(Database, RowOrder)>,
    any_rows: bool,
    gold_failure: Option<String>,
    /// The strongest counterexample so far; the search stops at the first ordinary one.
    best: Option<Counterexample>,
    /// `best` comes from a random database.
    best_is_random: bool,
}

impl<'a> Checker<'a> {
    fn new(
        gold: &'a str,
        pred: &'a str,
        schema: &'a Schema,
        gold_plan: &'a QueryPlan,
        pred_plan: Option<&'a QueryPlan>,
        literals: &'a [String],
    ) -> Self {
        Checker {
            gold,
            pred,
            schema,
            gold_plan,
            pred_plan,
            literals,
            replaceable: replaceable_columns(
                schema,
                [Some(gold_plan), pred_plan].into_iter().flatten(),
            ),
            base_order: row_order(gold_plan),
            hidden_keys: orders_by_hidden_keys(gold_plan),
            width: gold_plan.root.output().len(),
            semantics: Semantics::Bag,
            tried: 0,
            invalid: 0,
            ties: 0,
            pred_is_gold: pred_plan.is_some_and(|pp| same_plan(gold_plan, pp)),
            first_tie: None,
            any_rows: false,
            gold_failure: None,
            best: None,
            best_is_random: false,
        }
    }

    /// The empty database: it costs nothing and catches predictions SQLite rejects. Every
    /// generated suite starts with it, so [`Checker::search`] skips each suite's first.
    fn empty(&mut self) -> Option<Verdict> {
        let empty = Generated {
            instances: vec![crate::parseval::search::generate::Instance {
                db: Database::default(),
                covered: vec![],
            }],
            ..Generated::default()
        };
        self.suite(&empty, 0)
    }

    /// The gold's generated databases (`gold_suite`: generated from the gold alone, shared by its
    /// predictions), then the prediction's (each suite kept in `suites`); Some when a database
    /// decides before the budget runs out. The prediction's search is skipped when its plan is
    /// the gold's (it would generate the gold's databases) and under option `databases: gold`.
    fn search(
        &mut self,
        opts: &Options,
        work: &Work,
        gold_suite: impl FnOnce() -> Arc<GoldSuite>,
        gold_texts: &[String],
        suites: &mut Vec<Arc<Generated>>,
    ) -> Option<Verdict> {
        // the gold's search may spend half the budget, so the prediction's gets the other half
        // at least (a generation runs until its branches or its budget are exhausted)
        let gold = gold_suite();
        work.charge(gold.spent, gold.capped);
        // the empty database (the suite's first) was run already
        if let Some(v) = self.suite(&gold.generated, 1) {
            return Some(v);
        }
        suites.push(Arc::clone(&gold.generated));
        if opts.databases == Databases::Gold {
            return None;
        }
        if let Some(pp) = self.pred_plan {
            let same = self.pred_is_gold && !gold.generated.exhausted;
            if !same && !work.all().exhausted() {
                // the prediction's own search: its mode, and at most its share of the budget
                let own = Options {
                    mode: opts.prediction_mode,
                    ..*opts
                };
                let share = work.until(work.spent().saturating_add(prediction_share(opts.work)));
                let g = generate(pp, self.schema, &own, share, gold_texts);
                // the empty database was run already
                if let Some(v) = self.suite(&g, 1) {
                    return Some(v);
                }
                suites.push(Arc::new(g));
            }
        }
        None
    }

    /// Each generated database of `suite` from the `skip`-th on, then its value variants (see
    /// value_variants.rs), made only when the search gets that far.
    fn suite(&mut self, suite: &Generated, skip: usize) -> Option<Verdict> {
        let (schema, literals) = (self.schema, self.literals);
        let candidates = suite.instances.iter().skip(skip).flat_map(|inst| {
            let made = std::iter::once_with(|| variants(schema, &inst.db, literals)).flatten();
            std::iter::once((Source::Generated, Cow::Borrowed(&inst.db)))
                .chain(made.map(|v| (Source::Variant, Cow::Owned(v))))
        });
        for (source, db) in candidates {
            if let Some(v) = self.database(source, &db) {
                return Some(v);
            }
        }
        None
    }

    /// Runs both queries on `db` and records what it shows; Some when it holds an ordinary
    /// counterexample. A generated database counts as tried (and its failures and rows are
    /// kept); a variant or a random database must keep every foreign key. A random database
    /// records nothing else: only an ordinary difference on it counts.
    fn database(&mut self, source: Source, db: &Database) -> Option<Verdict> {
        let generated = source == Source::Generated;
        let Ok(conn) = open_database(self.schema, db) else {
            self.invalid += usize::from(generated);
            return None;
        };
        if !generated && !foreign_keys_hold(&conn, self.schema) {
            return None;
        }
        let order = self.order(&conn);
        let listed = order != self.base_order;
        let c = compare_with(&conn, self.gold, self.pred, &order, self.semantics);
        self.tried += usize::from(generated);
        if c.gold_failed {
            if let (true, Outcome::Error(e) | Outcome::Bound(e)) = (generated, &c.gold) {
                self.gold_failure.get_or_insert_with(|| e.clone());
            }
            return None;
        }
        for o in [&c.gold, &c.pred] {
            if let (true, Outcome::Rows(r)) = (generated, o) {
                self.any_rows |= !r.is_empty();
            }
        }
        if !c.differ {
            return None;
        }
        if self.tie_at_cutoff(&conn, &c) {
            if source == Source::Random {
                return None;
            }
            self.ties += 1;
            if self.semantics == Semantics::TestSuite && self.first_tie.is_none() {
                self.first_tie = Some((db.clone(), order));
            }
            return None;
        }
        let again = self.differ_again(db, &order)?;
        let found = strongest(
            self.schema,
            (self.gold, self.pred),
            (&order, self.semantics),
            listed,
            &self.replaceable,
            db,
            again,
        );
        let found = match source {
            Source::Random => self.random_evidence(found, &order)?,
            _ => found,
        };
        if self
            .best
            .as_ref()
            .is_none_or(|b| found.evidence < b.evidence)
        {
            self.best_is_random = source == Source::Random;
            self.best = Some(found);
        }
        if self.best.as_ref().map(|b| b.evidence) == Some(Evidence::Ordinary) {
            return self.best.take().map(|c| Verdict::Different(Box::new(c)));
        }
        None
    }

    /// What a difference found on a random database shows. It is ordinary only where it also
    /// holds once no plain column repeats a value, even where the rows compare as a list (which
    /// [`strongest`] keeps as found): a random database repeats values far more than the
    /// databases the labels come from. Otherwise it is a difference that needs a repeated value
    /// (or, as found, one in how often rows repeat): still a real difference, which beats a
    /// weaker one (NULL-only, ties, empty input) or none. Other evidence is dropped.
    fn random_evidence(
        &self,
        mut found: Counterexample,
        order: &RowOrder,
    ) -> Option<Counterexample> {
        match found.evidence {
            Evidence::Ordinary if !self.holds_without_repeats(&found, order) => {
                found.evidence = Evidence::RepeatedValues;
                Some(found)
            }
            Evidence::Ordinary | Evidence::RepeatedValues | Evidence::Repeats => Some(found),
            _ => None,
        }
    }

    /// True when the queries still differ, without a tie, once no plain column of `found`'s
    /// database repeats a value.
    fn holds_without_repeats(&self, found: &Counterexample, order: &RowOrder) -> bool {
        let Some(distinct) = without_repeated_values(self.schema, &found.db, &self.replaceable)
        else {
            return true;
        };
        open_database(self.schema, &distinct).is_ok_and(|conn| {
            let c = compare_with(&conn, self.gold, self.pred, order, self.semantics);
            !c.gold_failed && c.differ && !self.tie_at_cutoff(&conn, &c)
        })
    }

    /// ORDER BY keys the gold does not output: its rows compare as a list where both queries'
    /// orders are determined (no two rows share their keys), else as the base order.
    fn order(&self, conn: &rusqlite::Connection) -> RowOrder {
        match self.pred_plan {
            Some(pp)
                if self.hidden_keys
                    && order_determined(conn, self.gold_plan)
                    && order_determined(conn, pp) =>
            {
                RowOrder::Sorted((0..self.width).collect())
            }
            _ => self.base_order.clone(),
        }
    }

    /// Under `test-suite` semantics, the first database on which the results differ only by
    /// tie-breaking at a LIMIT cut-off, re-checked on a fresh copy: test-suite evaluation compares
    /// the rows SQLite returns, so it tells the queries apart there.
    fn tie_counterexample(&mut self) -> Option<Counterexample> {
        let (db, order) = self.first_tie.take()?;
        let again = self.differ_again(&db, &order)?;
        Some(Counterexample {
            db,
            gold: again.gold,
            pred: again.pred,
            evidence: Evidence::TieBreaking,
        })
    }

    /// Both queries run again on a fresh copy of `db` (a counterexample is re-checked before it
    /// is reported): the comparison when they still differ.
    fn differ_again(&self, db: &Database, order: &RowOrder) -> Option<Comparison> {
        let conn = open_database(self.schema, db).ok()?;
        let again = compare_with(&conn, self.gold, self.pred, order, self.semantics);
        again.differ.then_some(again)
    }

    /// A difference `c` that comes from tie-breaking: at a LIMIT cut-off either result depends
    /// on it (when the row counts agree), and an inner tie may change how many rows come back.
    fn tie_at_cutoff(&self, conn: &rusqlite::Connection, c: &Comparison) -> bool {
        let cut = |q: Option<&QueryPlan>| q.map_or(Cutoff::Determined, |q| cutoff(conn, q));
        let cuts = [cut(Some(self.gold_plan)), cut(self.pred_plan)];
        if count_differs(c) {
            cuts.contains(&Cutoff::Tie)
        } else {
            cuts.iter().any(|x| *x != Cutoff::Determined)
        }
    }

    /// Why no verdict after every database was run without a difference (None: equivalent).
    fn undecided(&self, gold_suite: &Generated) -> Option<String> {
        if self.tried == 0 {
            return Some(format!(
                "no valid database was generated ({} rejected)",
                self.invalid
            ));
        }
        if let Some(e) = &self.gold_failure {
            if !self.any_rows {
                return Some(format!(
                    "the gold query fails on the generated databases: {e}"
                ));
            }
        }
        if gold_suite.instances.len() <= 1 {
            return Some(match (&gold_suite.stopped, gold_suite.exhausted) {
                (Some(r), _) => r.clone(),
                (None, true) => "work budget exhausted before a database was generated".into(),
                (None, false) => "no database besides the empty one was generated".into(),
            });
        }
        if !self.any_rows {
            return Some("both queries return no rows on every generated database".into());
        }
        None
    }
}
