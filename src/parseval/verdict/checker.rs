//! Running both queries on each candidate database of a verdict (generated, value variant or
//! random), keeping what the verdict needs: how many databases were tried or rejected, the
//! gold's failures, the databases set aside for ties at a LIMIT cut-off, and the strongest
//! re-checked counterexample so far.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

use super::decision::{Counterexample, Verdict};
use super::evidence::{without_nulls, Evidence};
use super::examine::Seen;
use super::gold_suite::{same_plan, GoldSuite};
use super::limit_ties::{cutoff, order_determined, orders_by_hidden_keys, Cutoff};
use super::null_tests::{holds_tested_null, null_tested_columns};
use super::prediction_suite::prediction_suite;
use super::random_databases::RandomDatabases;
use super::repeated_values::{replaceable_columns, without_repeated_values};
use super::uninterpreted::{seed_of, FunctionValue, Uninterpreted};
use super::value_variants::variants;
use crate::exec::instance::{compare_lenient, open_database, Comparison, Database, Outcome};
use crate::exec::leniency::{Leniencies, Leniency};
use crate::exec::same_result::RowOrder;
use crate::parseval::options::{prediction_share, Databases, Options, Semantics};
use crate::parseval::search::generate::{Generated, Instance};
use crate::parseval::search::work_budget::Work;
use crate::plan::{Expr, Plan, QueryPlan};
use crate::schema::Schema;

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
/// `run` runs both queries on a database (None where it does not load or the gold fails).
fn strongest(
    schema: &Schema,
    run: &dyn Fn(&Database) -> Option<Comparison>,
    (order, semantics): (&RowOrder, Semantics),
    listed: bool,
    replaceable: &[bool],
    db: &Database,
    outcome: crate::exec::instance::Comparison,
) -> Counterexample {
    let mut found = Counterexample {
        evidence: Evidence::of(db, (&outcome.gold, &outcome.pred), order, semantics),
        db: db.clone(),
        gold: outcome.gold,
        pred: outcome.pred,
        functions: Vec::new(),
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
                    functions: Vec::new(),
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

/// Where a database a verdict runs comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
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
pub(super) struct Checker<'a> {
    gold: &'a str,
    pred: &'a str,
    pub(super) schema: &'a Schema,
    gold_plan: &'a QueryPlan,
    pred_plan: Option<&'a QueryPlan>,
    /// Both queries' literals, for the value variants and the random databases.
    pub(super) literals: &'a [String],
    /// The functions the queries call that the engine does not know (uninterpreted.rs).
    pub(super) functions: Uninterpreted,
    /// Those of them a query called on some database.
    pub(super) called: BTreeSet<String>,
    /// The columns whose repeated values the repeated-values check replaces.
    pub(super) replaceable: Vec<bool>,
    /// The columns either query tests for NULL (`forgive_untested_nulls`).
    null_tested: Vec<bool>,
    /// How the gold's rows compare, and whether it orders by keys it does not output.
    pub(super) base_order: RowOrder,
    hidden_keys: bool,
    width: usize,
    /// How the results are compared.
    pub(super) semantics: Semantics,
    /// How leniently they are compared, and which weak differences are forgiven.
    pub(super) leniency: Leniencies,
    /// The leniencies that made results match or forgave a difference so far.
    pub(super) lenient: BTreeSet<Leniency>,
    /// Generated databases (variants not counted) both queries ran on.
    pub(super) tried: usize,
    /// Generated databases SQLite rejected.
    pub(super) invalid: usize,
    pub(super) ties: usize,
    /// The prediction plans to the gold's plan.
    pub(super) pred_is_gold: bool,
    /// Under `test-suite` semantics, the first database set aside for ties, with its row order
    /// and its interpretation of the uninterpreted functions.
    pub(super) first_tie: Option<(Database, RowOrder, u64)>,
    pub(super) any_rows: bool,
    pub(super) gold_failure: Option<String>,
    /// The strongest counterexample so far; the search stops at the first ordinary one.
    pub(super) best: Option<Counterexample>,
    /// `best` comes from a random database.
    pub(super) best_is_random: bool,
    /// Where the first random databases decided nothing (random_first.rs): their generator, and
    /// what each showed, which the last search takes instead of making and running them again.
    pub(super) first_random: Option<(RandomDatabases<'a>, Vec<Seen>)>,
}

impl<'a> Checker<'a> {
    pub(super) fn new(
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
            functions: Uninterpreted::of_pair((gold_plan, pred_plan), [gold, pred], literals),
            called: BTreeSet::new(),
            replaceable: replaceable_columns(
                schema,
                [Some(gold_plan), pred_plan].into_iter().flatten(),
            ),
            null_tested: null_tested_columns(
                schema,
                [Some(gold_plan), pred_plan].into_iter().flatten(),
            ),
            base_order: row_order(gold_plan),
            hidden_keys: orders_by_hidden_keys(gold_plan),
            width: gold_plan.root.output().len(),
            semantics: Semantics::Bag,
            leniency: Leniencies::default(),
            lenient: BTreeSet::new(),
            tried: 0,
            invalid: 0,
            ties: 0,
            pred_is_gold: pred_plan.is_some_and(|pp| same_plan(gold_plan, pp)),
            first_tie: None,
            any_rows: false,
            gold_failure: None,
            best: None,
            best_is_random: false,
            first_random: None,
        }
    }

    /// The empty database: it costs nothing and catches predictions SQLite rejects. Every
    /// generated suite starts with it, so [`Checker::search`] skips each suite's first.
    pub(super) fn empty(&mut self) -> Option<Verdict> {
        let empty = Generated {
            instances: vec![Instance {
                db: Database::default(),
                covered: vec![],
            }],
            ..Generated::default()
        };
        self.suite(&empty, 0)
    }

    /// The first round: the gold's generated databases ([`Checker::gold_search`]), then the
    /// prediction's (each suite kept in `suites`); Some when a database decides before the
    /// budget runs out. The prediction's search is skipped when its plan is the gold's (it would
    /// generate the gold's databases) and under option `databases: gold`; the first random
    /// databases go before it (random_first.rs). `schema_text` keys the prediction's search in
    /// its cache as it keys the gold's suite (prediction_suite.rs).
    pub(super) fn search(
        &mut self,
        schema_text: Option<&str>,
        opts: &Options,
        work: &Work,
        gold: &GoldSuite,
        gold_texts: &[String],
        suites: &mut Vec<Arc<Generated>>,
    ) -> Option<Verdict> {
        if let Some(v) = self.gold_search(work, gold) {
            return Some(v);
        }
        suites.push(Arc::clone(&gold.generated));
        if opts.databases == Databases::Gold {
            return None;
        }
        let pp = self.pred_plan?;
        let same = self.pred_is_gold && !gold.generated.exhausted;
        if same || work.all().exhausted() {
            return None;
        }
        if let Some(v) = self.random_first(opts, &[self.gold_plan, pp]) {
            return Some(v);
        }
        // the prediction's own search: its mode, and at most its share of the budget (shared
        // by predictions that plan alike, prediction_suite.rs)
        let own = Options {
            mode: opts.prediction_mode,
            ..*opts
        };
        let share = work.until(work.spent().saturating_add(prediction_share(opts.work)));
        let g = prediction_suite((schema_text, self.schema), pp, &own, share, gold_texts);
        // the empty database was run already
        if let Some(v) = self.suite(&g, 1) {
            return Some(v);
        }
        suites.push(g);
        None
    }

    /// True when the gold failed on the empty database because SQLite does not compile it
    /// against the schema (an ambiguous or missing column, a write): it fails alike on every
    /// database, so none is generated for it.
    pub(super) fn gold_never_compiles(&self) -> bool {
        if self.gold_failure.is_none() {
            return false;
        }
        let empty = Database::default();
        let Ok(conn) = open_database(self.schema, &empty) else {
            return false;
        };
        let _functions = self.functions.install(&conn, seed_of(&empty));
        let compiles = conn.prepare(self.gold).is_ok();
        !compiles
    }

    /// The gold's generated databases (`gold_suite`: generated from the gold alone, once per
    /// gold and seed, shared by its predictions): what a later round searches; Some when one
    /// decides.
    pub(super) fn gold_search(&mut self, work: &Work, gold: &GoldSuite) -> Option<Verdict> {
        // the gold's search may spend half the budget, so the prediction's gets the other half
        // at least (a generation runs until its branches or its budget are exhausted)
        work.charge(gold.spent, gold.capped);
        // the empty database (the suite's first) was run already
        self.suite(&gold.generated, 1)
    }

    /// Each generated database of `suite` from the `skip`-th on, then its value variants (see
    /// value_variants.rs), made only when the search gets that far.
    fn suite(&mut self, suite: &Generated, skip: usize) -> Option<Verdict> {
        let (schema, literals) = (self.schema, self.literals);
        let candidates = suite.instances.iter().skip(skip).flat_map(|inst| {
            let made = std::iter::once_with(|| {
                let _timer = crate::profile::time(crate::profile::Stage::Databases);
                variants(schema, &inst.db, literals)
            })
            .flatten();
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

    /// Runs both queries on `db` and records what it shows (examine.rs); Some when it holds an
    /// ordinary counterexample.
    pub(super) fn database(&mut self, source: Source, db: &Database) -> Option<Verdict> {
        let seen = self.examine(source, db);
        self.record(source, seen)
    }

    /// The counterexample on `db`, where both queries differed twice (`again`: the second
    /// time), at its strongest, with the values of the uninterpreted functions.
    pub(super) fn counterexample(
        &self,
        db: &Database,
        again: Comparison,
        order: &RowOrder,
        seed: u64,
        listed: bool,
    ) -> Counterexample {
        let run = |db: &Database| self.run(db, order, seed).filter(|c| !c.gold_failed);
        let mut found = strongest(
            self.schema,
            &run,
            (order, self.semantics),
            listed,
            &self.replaceable,
            db,
            again,
        );
        found.functions = self.table(&found.db, order, seed);
        found
    }

    /// Keeps `found` (from a database of `source`) where no leniency forgives it and it is
    /// stronger than the best so far; Some when its kind decides ([`Evidence::decides`]).
    pub(super) fn keep(&mut self, found: Counterexample, source: Source) -> Option<Verdict> {
        if let Some(l) = self.forgiven(found.evidence, &found.db) {
            self.lenient.insert(l);
            return None;
        }
        if self
            .best
            .as_ref()
            .is_none_or(|b| found.evidence < b.evidence)
        {
            self.best_is_random = source == Source::Random;
            self.best = Some(found);
        }
        if self.best.as_ref().is_some_and(|b| b.evidence.decides()) {
            return self.best.take().map(|c| Verdict::Different(Box::new(c)));
        }
        None
    }

    /// ORDER BY keys the gold does not output: its rows compare as a list where both queries'
    /// orders are determined (no two rows share their keys), else as the base order.
    pub(super) fn order(&self, conn: &rusqlite::Connection) -> RowOrder {
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
    pub(super) fn tie_counterexample(&mut self) -> Option<Counterexample> {
        let (db, order, seed) = self.first_tie.take()?;
        let again = self.differ_again(&db, &order, seed)?;
        if let Some(l) = self.forgiven(Evidence::TieBreaking, &db) {
            self.lenient.insert(l);
            return None;
        }
        Some(Counterexample {
            functions: self.table(&db, &order, seed),
            db,
            gold: again.gold,
            pred: again.pred,
            evidence: Evidence::TieBreaking,
        })
    }

    /// Both queries run again on a fresh copy of `db` (a counterexample is re-checked before it
    /// is reported), under the interpretation `seed`: the comparison when they still differ.
    pub(super) fn differ_again(
        &self,
        db: &Database,
        order: &RowOrder,
        seed: u64,
    ) -> Option<Comparison> {
        self.run(db, order, seed).filter(|c| c.differ)
    }

    /// Both queries' results on a fresh copy of `db`, the uninterpreted functions read under
    /// `seed`; None where `db` does not load.
    fn run(&self, db: &Database, order: &RowOrder, seed: u64) -> Option<Comparison> {
        let conn = open_database(self.schema, db).ok()?;
        let _functions = self.functions.install(&conn, seed);
        Some(self.compare(&conn, order))
    }

    /// The values of the uninterpreted functions both queries used on `db` under `seed` (none
    /// where they call none).
    fn table(&self, db: &Database, order: &RowOrder, seed: u64) -> Vec<FunctionValue> {
        if self.functions.is_empty() {
            return Vec::new();
        }
        let Ok(conn) = open_database(self.schema, db) else {
            return Vec::new();
        };
        let functions = self.functions.install(&conn, seed);
        self.compare(&conn, order);
        functions.table()
    }

    /// Both queries' results on `conn`, compared under the semantics and the shape leniencies.
    pub(super) fn compare(&self, conn: &rusqlite::Connection, order: &RowOrder) -> Comparison {
        let how = (order, self.semantics);
        compare_lenient(conn, self.gold, self.pred, how, &self.leniency)
    }

    /// The `forgive_*` leniency that forgives a difference of kind `evidence` on `db`, when it
    /// is on: `forgive_untested_nulls` only where no NULL of `db` sits in a column either query
    /// tests for NULL.
    pub(super) fn forgiven(&self, evidence: Evidence, db: &Database) -> Option<Leniency> {
        if let Some(l) = evidence.leniency().filter(|&l| self.leniency.forgives(l)) {
            return Some(l);
        }
        let untested = Leniency::ForgiveUntestedNulls;
        (evidence == Evidence::NullDependent
            && self.leniency.forgives(untested)
            && !holds_tested_null(self.schema, db, &self.null_tested))
        .then_some(untested)
    }

    /// A difference `c` that comes from tie-breaking: at a LIMIT cut-off either result depends
    /// on it (when the row counts agree), and an inner tie may change how many rows come back.
    pub(super) fn tie_at_cutoff(&self, conn: &rusqlite::Connection, c: &Comparison) -> bool {
        let cut = |q: Option<&QueryPlan>| q.map_or(Cutoff::Determined, |q| cutoff(conn, q));
        let cuts = [cut(Some(self.gold_plan)), cut(self.pred_plan)];
        if count_differs(c) {
            cuts.contains(&Cutoff::Tie)
        } else {
            cuts.iter().any(|x| *x != Cutoff::Determined)
        }
    }

    /// Why no verdict after every database was run without a difference (None: equivalent).
    pub(super) fn undecided(&self, gold_suite: &Generated) -> Option<String> {
        if self.tried == 0 {
            let none = format!(
                "no valid database was generated ({} rejected)",
                self.invalid
            );
            // why the gold's search stopped (the solver failing, say) is the better part
            return Some(match &gold_suite.stopped {
                Some(why) => format!("{none}: {why}"),
                None => none,
            });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parseval::verdict::decide::schema_for;

    #[test]
    fn without_a_valid_database_the_reason_says_why_the_search_stopped() {
        let gold = "SELECT name FROM singer";
        let schema = schema_for(Some("CREATE TABLE singer(name TEXT)"), &[gold]).unwrap();
        let plan = crate::plan::plan_sql(gold, &schema).unwrap();
        let checker = Checker::new(gold, gold, &schema, &plan, Some(&plan), &[]);
        let stopped = Generated {
            stopped: Some("the solver failed (a null result)".into()),
            ..Generated::default()
        };
        assert_eq!(
            checker.undecided(&stopped).as_deref(),
            Some("no valid database was generated (0 rejected): the solver failed (a null result)")
        );
        assert_eq!(
            checker.undecided(&Generated::default()).as_deref(),
            Some("no valid database was generated (0 rejected)")
        );
    }
}
