//! The first few random databases, tried before the prediction's own search: a difference they
//! show on ordinary data is the verdict the call reaches anyway, found without solver work.
//!
//! The prediction's coverage-guided search (search/generate.rs) costs Z3 work; the random
//! databases of the last search (random_databases.rs) cost none. Where the gold's databases
//! show no difference, the verdict tries the first [`RANDOM_FIRST`] random databases, the very
//! ones its last search would start with, and keeps what they show only when it is an ordinary
//! difference: the verdict is then "not equivalent" on ordinary evidence, as it is when the
//! prediction's databases or the last search find one (the band depends on the evidence only).
//! Anything weaker is forgotten, so a call records exactly what it records without this step.
//! Only where the budget would run out before the last search does the verdict change: an
//! ordinary difference replaces "unknown: work budget" or a weaker difference.

use super::checker::{Checker, Source};
use super::decision::Verdict;
use super::random_databases::RandomDatabases;
use crate::parseval::options::Options;
use crate::plan::QueryPlan;

/// Random databases tried before the prediction's own search (of the last search's 128). On the
/// Spider-DK pairs, `sql_similarity` spends 11-13% less CPU with 16 to 128 of them (load-noisy
/// measurements, docs/SCALE.md); a random database without a difference costs two queries.
pub const RANDOM_FIRST: u32 = 32;

impl Checker<'_> {
    /// An ordinary difference on one of the first [`RANDOM_FIRST`] random databases of `opts`'
    /// last search (none where it tries no random database), or None with the checker as it
    /// was, keeping the generator and what each database showed for that search
    /// (`first_random`). Each is examined without being recorded; where one decides, those
    /// before it and it are recorded in order, as the last search would.
    pub(super) fn random_first(&mut self, opts: &Options, plans: &[&QueryPlan]) -> Option<Verdict> {
        let tries = opts.random().min(RANDOM_FIRST);
        if tries == 0 || self.pred_is_gold {
            return None;
        }
        let mut random = RandomDatabases::new(self.schema, plans, self.literals, opts.seed);
        let mut shown = Vec::new();
        for _ in 0..tries {
            let db = {
                let _timer = crate::profile::time(crate::profile::Stage::Databases);
                random.next_database()
            };
            let seen = self.examine(Source::Random, &db);
            let decides = Self::decides(&seen);
            shown.push(seen);
            if decides {
                return shown
                    .into_iter()
                    .find_map(|seen| self.record(Source::Random, seen));
            }
        }
        self.first_random = Some((random, shown));
        None
    }
}
