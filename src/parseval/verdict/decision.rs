//! The verdict on a pair of queries and the facts behind it: equivalent, a re-checked
//! counterexample with how strong its evidence is, or why no verdict; `Decision::reason` is the
//! sentence `sql_equivalent_reason` reports.

use std::sync::Arc;
use std::time::Duration;

use super::evidence::Evidence;
use super::uninterpreted::FunctionValue;
use crate::exec::instance::{Database, Outcome};
use crate::exec::leniency::Leniency;
use crate::parseval::options::{semantics_name, Databases, Semantics};
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
    /// The values the functions the engine does not know took on `db` (uninterpreted.rs): the
    /// interpretation under which the queries differ there. Empty when they call none.
    pub functions: Vec<FunctionValue>,
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
    /// The leniencies an equivalent verdict needed (options `any_column_order`, ...,
    /// `forgive_*`): without them a database told the queries apart. Empty otherwise.
    pub leniency: Vec<Leniency>,
    /// The functions the engine does not know that a query called, read as uninterpreted
    /// (uninterpreted.rs): lower case, sorted.
    pub uninterpreted: Vec<String>,
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

    /// ` (with the leniency a, b)` when leniencies decided an equivalent verdict, else nothing.
    fn leniency_text(&self) -> String {
        if self.leniency.is_empty() {
            return String::new();
        }
        let keys: Vec<&str> = self.leniency.iter().map(|l| l.key()).collect();
        format!(" (with the leniency {})", keys.join(", "))
    }

    /// `, reading F and G as uninterpreted functions (...)` when a query called a function the
    /// engine does not know, else nothing.
    fn uninterpreted_text(&self) -> String {
        if self.uninterpreted.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self
            .uninterpreted
            .iter()
            .map(|n| n.to_uppercase())
            .collect();
        format!(
            ", reading {} as uninterpreted (each database chose a table of values: a proof for \
             those tables only)",
            names.join(", ")
        )
    }

    /// One sentence saying why.
    pub fn reason(&self) -> String {
        match &self.verdict {
            Verdict::Equivalent => format!(
                "equivalent: same results under {} semantics on {} generated databases{} covering {} of {} plan branches{}{}{}{}",
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
                },
                self.leniency_text(),
                self.uninterpreted_text()
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
                let functions = functions_text(&c.functions);
                format!(
                    "not equivalent: {why} on a {made} database with {rows} rows{how}{functions}"
                )
            }
            Verdict::Unknown(r) => format!("unknown: {r}"),
        }
    }
}

/// The most values of an uninterpreted function a reason lists (`sql_counterexample` lists all).
const LISTED_VALUES: usize = 12;

/// `, where the unknown function B1 is B1(1) = 1, ...` for a counterexample's table of values.
fn functions_text(table: &[FunctionValue]) -> String {
    if table.is_empty() {
        return String::new();
    }
    let mut names: Vec<String> = table.iter().map(|f| f.name.to_uppercase()).collect();
    names.dedup();
    names.sort();
    names.dedup();
    let mut values: Vec<String> = table.iter().take(LISTED_VALUES).map(|f| f.text()).collect();
    if table.len() > LISTED_VALUES {
        values.push(format!("{} more", table.len() - LISTED_VALUES));
    }
    format!(
        ", where the function{} the engine does not know, read as uninterpreted, take{} the \
         values {} (a real difference for any {} with these values)",
        if names.len() > 1 { "s" } else { "" },
        if names.len() > 1 { "" } else { "s" },
        values.join(", "),
        names.join(", ")
    )
}
