//! What one database shows, computed apart from the checker's state (`examine`), and how the checker records it (`record`): the first random databases are examined once and serve the last search again.

use std::collections::BTreeSet;

use super::checker::{Checker, Source};
use super::decision::{Counterexample, Verdict};
use super::evidence::Evidence;
use super::repeated_values::without_repeated_values;
use super::uninterpreted::seed_of;
use super::value_variants::foreign_keys_hold;
use crate::exec::instance::{open_database, Database, Outcome};
use crate::exec::leniency::Leniency;
use crate::exec::same_result::RowOrder;
use crate::parseval::options::Semantics;

/// What both queries showed on one database, before the checker records it: exactly what
/// [`Checker::record`] adds to its counts, its leniencies and its best counterexample.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// A generated database SQLite rejected.
    invalid: bool,
    /// A generated database both queries ran on.
    tried: bool,
    /// The gold's error (or bound) on a generated database.
    gold_failure: Option<String>,
    /// A query returned rows on a generated database.
    any_rows: bool,
    /// The uninterpreted functions a query called.
    called: BTreeSet<String>,
    /// The leniencies that made the results match.
    lenient: Vec<Leniency>,
    /// The results differed only by tie-breaking at a LIMIT cut-off (a random database's tie
    /// counts for nothing).
    tied: bool,
    /// Under `test-suite` semantics, that database with its row order and its interpretation
    /// of the uninterpreted functions.
    tie: Option<(Database, RowOrder, u64)>,
    /// The re-checked difference, at its strongest (on a random database, only as
    /// [`Checker::random_evidence`] keeps it).
    found: Option<Counterexample>,
}

impl Checker<'_> {
    /// Runs both queries on `db` (from `source`) and says what it shows, without touching the
    /// checker: what a database shows depends on it alone. A variant or a random database must
    /// keep every foreign key.
    pub(super) fn examine(&self, source: Source, db: &Database) -> Seen {
        let generated = source == Source::Generated;
        let mut seen = Seen::default();
        let Ok(conn) = open_database(self.schema, db) else {
            seen.invalid = generated;
            return seen;
        };
        if !generated && !foreign_keys_hold(&conn, self.schema) {
            return seen;
        }
        let seed = seed_of(db);
        let functions = self.functions.install(&conn, seed);
        let order = self.order(&conn);
        let listed = order != self.base_order;
        let c = self.compare(&conn, &order);
        if !self.functions.is_empty() {
            seen.called = functions.table().into_iter().map(|f| f.name).collect();
        }
        seen.tried = generated;
        if c.gold_failed {
            if let (true, Outcome::Error(e) | Outcome::Bound(e)) = (generated, &c.gold) {
                seen.gold_failure = Some(e.clone());
            }
            return seen;
        }
        seen.any_rows = generated
            && [&c.gold, &c.pred]
                .iter()
                .any(|o| matches!(o, Outcome::Rows(r) if !r.is_empty()));
        if !c.differ {
            seen.lenient = c.lenient;
            return seen;
        }
        if self.tie_at_cutoff(&conn, &c) {
            seen.tied = source != Source::Random;
            // only the first tie is kept (`record`): no copy of a later one
            if seen.tied && self.semantics == Semantics::TestSuite && self.first_tie.is_none() {
                seen.tie = Some((db.clone(), order, seed));
            }
            return seen;
        }
        let Some(again) = self.differ_again(db, &order, seed) else {
            return seen;
        };
        let found = self.counterexample(db, again, &order, seed, listed);
        seen.found = match source {
            Source::Random => self.random_evidence(found, &order, seed),
            Source::Generated | Source::Variant => Some(found),
        };
        seen
    }

    /// Records what a database of `source` showed; Some when it holds an ordinary
    /// counterexample, which decides.
    pub(super) fn record(&mut self, source: Source, seen: Seen) -> Option<Verdict> {
        self.invalid += usize::from(seen.invalid);
        self.tried += usize::from(seen.tried);
        if let Some(e) = seen.gold_failure {
            self.gold_failure.get_or_insert(e);
        }
        self.any_rows |= seen.any_rows;
        self.called.extend(seen.called);
        self.lenient.extend(seen.lenient);
        if seen.tied {
            self.ties += 1;
            if self.first_tie.is_none() {
                self.first_tie = seen.tie;
            }
        }
        self.keep(seen.found?, source)
    }

    /// True when recording `seen` decides: it holds a difference of a kind that decides
    /// ([`Evidence::decides`], which [`Checker::keep`] returns Some for).
    pub(super) fn decides(seen: &Seen) -> bool {
        seen.found.as_ref().is_some_and(|f| f.evidence.decides())
    }

    /// What a difference found on a random database shows. It is ordinary only where it also
    /// holds once no plain column repeats a value, even where the rows compare as a list (which
    /// checker.rs's `strongest` keeps as found): a random database repeats values far more than the
    /// databases the labels come from. Otherwise it is a difference that needs a repeated value
    /// (or, as found, one in how often rows repeat): still a real difference, which beats a
    /// weaker one (NULL-only, ties, empty input) or none. Other evidence is dropped.
    fn random_evidence(
        &self,
        mut found: Counterexample,
        order: &RowOrder,
        seed: u64,
    ) -> Option<Counterexample> {
        match found.evidence {
            Evidence::Ordinary if !self.holds_without_repeats(&found, order, seed) => {
                found.evidence = Evidence::RepeatedValues;
                Some(found)
            }
            Evidence::Ordinary | Evidence::RepeatedValues | Evidence::Repeats => Some(found),
            _ => None,
        }
    }

    /// True when the queries still differ, without a tie, once no plain column of `found`'s
    /// database repeats a value (the uninterpreted functions read under `seed`).
    fn holds_without_repeats(&self, found: &Counterexample, order: &RowOrder, seed: u64) -> bool {
        let Some(distinct) = without_repeated_values(self.schema, &found.db, &self.replaceable)
        else {
            return true;
        };
        open_database(self.schema, &distinct).is_ok_and(|conn| {
            let _functions = self.functions.install(&conn, seed);
            let c = self.compare(&conn, order);
            !c.gold_failed && c.differ && !self.tie_at_cutoff(&conn, &c)
        })
    }
}
