//! What a random database shows, computed apart from the checker's state: it depends on the database alone, so the first random databases' outcomes serve the last search again.

use std::collections::BTreeSet;

use super::checker::{Checker, Source};
use super::decision::{Counterexample, Verdict};
use super::evidence::Evidence;
use super::repeated_values::without_repeated_values;
use super::uninterpreted::seed_of;
use super::value_variants::foreign_keys_hold;
use crate::exec::instance::{open_database, Database};
use crate::exec::leniency::Leniency;
use crate::exec::same_result::RowOrder;

/// What one random database showed, before it is recorded: the uninterpreted functions the
/// queries called, the leniencies that made their results match, and the difference kept.
#[derive(Debug, Clone, Default)]
pub(super) struct RandomOutcome {
    pub(super) called: BTreeSet<String>,
    pub(super) lenient: Vec<Leniency>,
    pub(super) found: Option<Counterexample>,
}

impl Checker<'_> {
    /// What a random database shows, without touching the checker: it depends on the database
    /// alone, so the first random databases' outcomes serve the last search again
    /// (random_first.rs). A difference on it is kept only as [`Checker::random_evidence`] says.
    pub(super) fn random_outcome(&self, db: &Database) -> RandomOutcome {
        let mut seen = RandomOutcome::default();
        let Ok(conn) = open_database(self.schema, db) else {
            return seen;
        };
        if !foreign_keys_hold(&conn, self.schema) {
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
        if c.gold_failed {
            return seen;
        }
        if !c.differ {
            seen.lenient = c.lenient;
            return seen;
        }
        if self.tie_at_cutoff(&conn, &c) {
            return seen;
        }
        let Some(again) = self.differ_again(db, &order, seed) else {
            return seen;
        };
        let found = self.counterexample(db, again, &order, seed, listed);
        seen.found = self.random_evidence(found, &order, seed);
        seen
    }

    /// Records what a random database showed; Some when it holds an ordinary counterexample.
    pub(super) fn take_random(&mut self, seen: RandomOutcome) -> Option<Verdict> {
        self.called.extend(seen.called);
        self.lenient.extend(seen.lenient);
        self.keep(seen.found?, Source::Random)
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
