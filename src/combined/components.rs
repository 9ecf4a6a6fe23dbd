//! The options argument of `sql_similarity`: ParSEval's settings for its verdict, `components`, the structural scores it averages (the two GMN scores by default, AST-TE and RelPM where neither model is installed), `require_gmn`, which makes a GMN that cannot run an error instead of a fallback, and `agreement`, which places a pair found different by how often the two queries agree too.
//!
//! ```sql
//! -- the fastest setting: the gold's databases only, no neural component
//! SELECT sql_similarity(gold, pred, schema, '{"databases": "gold", "components": ["ast_ted", "relpm"]}')
//! -- fail, naming the function and what is missing, where ONNX Runtime or a model is not installed
//! SELECT sql_similarity(gold, pred, schema, '{"require_gmn": true}')
//! ```

use serde_json::Value as Json;

use crate::error::Result;
use crate::options::OptionsArg;
use crate::parseval::options::{named_benchmark, Databases, Semantics};
use crate::parseval::Options;

/// Every structural component, in the order of `sql_similarity_components`' JSON.
pub const NAMES: [&str; 4] = [
    "ast_ted",
    "relpm",
    "gmn_similarity",
    "hybrid_gmn_similarity",
];

/// The key of the option naming the components.
const KEY: &str = "components";

/// The key of the option that makes a chosen GMN that cannot run an error.
const REQUIRE_KEY: &str = "require_gmn";

/// The key of the option that places a pair found different by its agreement share too.
const AGREEMENT_KEY: &str = "agreement";

/// The default components: the two GMN scores. On the WikiSQL half no model was trained on
/// (573 pairs) their mean places pairs within their bands better than the mean of all four (ROC
/// AUC 0.9900 against 0.9877, higher in 100 of 100 bootstrap resamples); AST-TE and RelPM are the
/// weakest scores on every public and held-out set (docs/similarity.md).
pub const DEFAULT: [&str; 2] = ["gmn_similarity", "hybrid_gmn_similarity"];

/// `sql_similarity`'s solver budget where its options set no `work` (and neither `databases:
/// gold`, whose single suite per gold keeps the verdict functions' budget, nor `agreement`, whose
/// share is measured on the gold's suite at that budget): 2 million Z3 resource units
/// (`sql_equivalent`'s default is 10 million), with `sql_equivalent`'s two rounds. On the five
/// labelled Spider and WikiSQL sets it gives the ROC AUC of 10 million units to four decimals
/// (1 million units and one round lost 0.005 on GPT-4's pairs and 0.003 on GPT-3.5's) at 1.25
/// to 1.5 times the pairs per CPU-second (docs/SCALE.md).
pub const DEFAULT_WORK: u64 = 2_000_000;

/// The components of the default where neither GMN model is installed.
pub const FALLBACK: [&str; 2] = ["ast_ted", "relpm"];

/// Which structural components enter the mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Components {
    /// Bit `i` set: `NAMES[i]` is chosen.
    chosen: u8,
    /// Named in the options: a chosen GMN whose model is missing is an error, not left out.
    named: bool,
    /// `require_gmn`: a chosen GMN that cannot run is an error, and there is no fallback.
    required: bool,
}

impl Default for Components {
    /// [`DEFAULT`]; a GMN whose model is not installed is left out, and with neither installed the
    /// mean is [`FALLBACK`]'s.
    fn default() -> Self {
        Components::of(&DEFAULT, false)
    }
}

impl Components {
    /// The components `names` (each one of [`NAMES`]).
    fn of(names: &[&str], named: bool) -> Components {
        let chosen = NAMES
            .iter()
            .enumerate()
            .filter(|(_, n)| names.contains(n))
            .fold(0u8, |bits, (i, _)| bits | 1 << i);
        Components {
            chosen,
            named,
            required: false,
        }
    }

    /// What the default falls back to where no GMN model is installed: [`FALLBACK`]; None for
    /// components the options named or required (a missing model is then an error).
    pub fn fallback(self) -> Option<Components> {
        (!self.strict()).then(|| Components::of(&FALLBACK, false))
    }

    /// Whether `name` (one of [`NAMES`]) is chosen.
    pub fn has(self, name: &str) -> bool {
        NAMES
            .iter()
            .position(|n| *n == name)
            .is_some_and(|i| self.chosen & (1 << i) != 0)
    }

    /// True when the options named the components (a missing model is then an error).
    pub fn named(self) -> bool {
        self.named
    }

    /// True when a chosen GMN that cannot run fails the call: the options named the components
    /// or set `require_gmn`.
    pub fn strict(self) -> bool {
        self.named || self.required
    }

    /// The components of the option's value: a non-empty JSON array of names from [`NAMES`].
    fn parse(arg: OptionsArg, value: &Json) -> Result<Components> {
        let expected = || {
            arg.error(format!(
                "'{KEY}' must be a non-empty array of names from {}, got {value}",
                NAMES.join(", ")
            ))
        };
        let items = value
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or_else(expected)?;
        let mut chosen = 0u8;
        for item in items {
            let i = item
                .as_str()
                .and_then(|s| NAMES.iter().position(|n| *n == s))
                .ok_or_else(expected)?;
            chosen |= 1 << i;
        }
        Ok(Components {
            chosen,
            named: true,
            required: false,
        })
    }
}

/// `sql_similarity`'s options: the verdict's (ParSEval's) and the components.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimilarityOptions {
    pub verdict: Options,
    pub components: Components,
    /// `agreement`: a pair found different is placed in its band by the mean of its structural
    /// score and the share of the gold's databases on which both queries agree
    /// ([`crate::parseval::agreement_share`]); on under the `bird` preset, off by default.
    pub agreement: bool,
}

/// Parses the options argument of `function` (`sql_similarity` or its `_components` form):
/// ParSEval's keys with `semantics` defaulting to `semantics`, `components` and `require_gmn`.
pub fn parse(
    function: &'static str,
    text: Option<&str>,
    semantics: Semantics,
) -> Result<SimilarityOptions> {
    let arg = OptionsArg { function };
    let map = arg.object(text)?.unwrap_or_default();
    let mut verdict = Options::from_object(
        function,
        &map,
        semantics,
        &[KEY, REQUIRE_KEY, AGREEMENT_KEY],
    )?;
    let mut components = match map.get(KEY) {
        Some(value) => Components::parse(arg, value)?,
        None => Components::default(),
    };
    if let Some(value) = map.get(REQUIRE_KEY) {
        components.required = value.as_bool().ok_or_else(|| {
            arg.error(format!(
                "'{REQUIRE_KEY}' must be true or false, got {value}"
            ))
        })?;
    }
    let agreement = match map.get(AGREEMENT_KEY) {
        Some(value) => value.as_bool().ok_or_else(|| {
            arg.error(format!(
                "'{AGREEMENT_KEY}' must be true or false, got {value}"
            ))
        })?,
        None => named_benchmark(arg, &map)?.is_some_and(|b| b.ranks_by_agreement()),
    };
    // the scale setting (`databases: gold`) keeps the verdict functions' budget, and
    // so does `agreement`: its share is measured on the gold's suite, which a smaller budget
    // makes smaller (BIRD NL2SQL-Bugs under the bird preset: 87 of 874 scores moved)
    if verdict.databases == Databases::Both && !agreement && !map.contains_key("work") {
        verdict.work = DEFAULT_WORK;
    }
    Ok(SimilarityOptions {
        verdict,
        components,
        agreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gmns_by_default_or_the_named_ones() {
        let o = parse("f", None, Semantics::TestSuite).unwrap();
        let chosen: Vec<_> = NAMES.into_iter().filter(|n| o.components.has(n)).collect();
        assert_eq!(chosen, DEFAULT);
        assert!(!o.components.named());
        let fallback = o.components.fallback().unwrap();
        let chosen: Vec<_> = NAMES.into_iter().filter(|n| fallback.has(n)).collect();
        assert_eq!(chosen, FALLBACK);
        assert_eq!(o.verdict.semantics, Semantics::TestSuite);
        let o = parse(
            "f",
            Some(r#"{"components": ["relpm", "ast_ted"], "databases": "gold"}"#),
            Semantics::TestSuite,
        )
        .unwrap();
        assert!(o.components.has("relpm") && o.components.has("ast_ted"));
        assert!(!o.components.has("gmn_similarity") && o.components.named());
        assert_eq!(o.components.fallback(), None);
        assert_eq!(o.verdict.databases.name(), "gold");
    }

    #[test]
    fn the_verdict_has_its_own_budget_unless_the_options_set_it() {
        let o = parse("sql_similarity", None, Semantics::TestSuite).unwrap();
        assert_eq!((o.verdict.work, o.verdict.rounds()), (DEFAULT_WORK, 2));
        let o = parse(
            "sql_similarity",
            Some(r#"{"work": 7000000, "rounds": 1}"#),
            Semantics::TestSuite,
        )
        .unwrap();
        assert_eq!((o.verdict.work, o.verdict.rounds()), (7_000_000, 1));
        // the scale setting, and sql_equivalent, keep ParSEval's defaults
        let o = parse(
            "sql_similarity",
            Some(r#"{"databases": "gold"}"#),
            Semantics::TestSuite,
        )
        .unwrap();
        let defaults = Options::default();
        assert_eq!(o.verdict.work, defaults.work);
        assert_eq!(o.verdict.rounds, defaults.rounds);
        // as does `agreement`, also where the bird preset turns it on
        for text in [r#"{"agreement": true}"#, r#"{"benchmark": "bird"}"#] {
            let o = parse("sql_similarity", Some(text), Semantics::TestSuite).unwrap();
            assert!(o.agreement, "{text}");
            assert_eq!((o.verdict.work, o.verdict.rounds), (defaults.work, None));
        }
        let o = parse(
            "sql_similarity",
            Some(r#"{"benchmark": "bird", "agreement": false}"#),
            Semantics::TestSuite,
        )
        .unwrap();
        assert_eq!((o.verdict.work, o.verdict.rounds()), (DEFAULT_WORK, 2));
        assert_eq!(
            Options::parse("sql_equivalent", None).unwrap().work,
            defaults.work
        );
    }

    #[test]
    fn bad_values_name_the_option() {
        for bad in [r#"[]"#, r#""relpm""#, r#"["relpm", "bleu"]"#, r#"[1]"#] {
            let text = format!(r#"{{"components": {bad}}}"#);
            let e = parse("sql_similarity", Some(&text), Semantics::TestSuite)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("sql_similarity")
                    && e.contains("'components' must be a non-empty array"),
                "{e}"
            );
        }
        let e = parse(
            "sql_similarity",
            Some(r#"{"bleu": 1}"#),
            Semantics::TestSuite,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("forgive_ties, plausible_dates, components, require_gmn, agreement)"),
            "{e}"
        );
        let agreement = |text: &str| parse("f", Some(text), Semantics::TestSuite).unwrap();
        assert!(!agreement("{}").agreement && agreement(r#"{"benchmark": "bird"}"#).agreement);
        assert!(!agreement(r#"{"benchmark": "bird", "agreement": false}"#).agreement);
        assert!(!agreement(r#"{"benchmark": "spider"}"#).agreement);
        // the verdict functions do not take it
        let e = Options::parse("sql_equivalent", Some(r#"{"components": ["relpm"]}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown option 'components'"), "{e}");
        let e = parse(
            "sql_similarity",
            Some(r#"{"require_gmn": "yes"}"#),
            Semantics::TestSuite,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("sql_similarity(): argument 'options' 'require_gmn' must be true or false"),
            "{e}"
        );
    }

    #[test]
    fn the_spider_preset_is_the_default_of_sql_similarity() {
        // test-suite semantics and no leniency: the same options, so the same scores (and verdict
        // cache entries) as a call without options
        let none = parse("sql_similarity", None, Semantics::TestSuite).unwrap();
        let spider = r#"{"benchmark": "spider"}"#;
        let spider = parse("sql_similarity", Some(spider), Semantics::TestSuite).unwrap();
        assert_eq!(spider, none);
        let bird = r#"{"benchmark": "bird"}"#;
        let bird = parse("sql_similarity", Some(bird), Semantics::TestSuite).unwrap();
        assert_eq!(bird.verdict.semantics, Semantics::Bird);
        assert!(!bird.verdict.leniency.none());
    }

    #[test]
    fn require_gmn_keeps_the_default_components_and_drops_the_fallback() {
        let o = parse("f", Some(r#"{"require_gmn": true}"#), Semantics::TestSuite).unwrap();
        let chosen: Vec<_> = NAMES.into_iter().filter(|n| o.components.has(n)).collect();
        assert_eq!(chosen, DEFAULT);
        assert!(o.components.strict() && !o.components.named());
        assert_eq!(o.components.fallback(), None);
        let o = parse("f", Some(r#"{"require_gmn": false}"#), Semantics::TestSuite).unwrap();
        assert!(!o.components.strict());
        assert!(o.components.fallback().is_some());
    }
}
