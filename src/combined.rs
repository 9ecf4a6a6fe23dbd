//! sql_similarity: the recommended score, the equivalence verdict placing a pair in a band and the structural similarity placing it within the band.
//!
//! It lives above the parts it combines (the metrics, the GMN models and ParSEval's verdict), which
//! know nothing of it.
//!
//! The verdict comes from ParSEval ([`crate::parseval::decide_cached`]) and [`band`] maps it to
//! a band of scores (docs/similarity.md#the-bands describes each with the public sets' label
//! counts). Within its band the score rises linearly with the structural similarity, the mean of
//! the two GMN scores (AST-TE and RelPM where neither model is installed; the option `components`
//! picks others, see [`components`]). A default GMN that cannot run is listed, with why, under
//! `missing` in `sql_similarity_components`; the option `require_gmn` makes it an error instead.
//! With the option `agreement` (on under the `bird` preset), a pair found different is placed by
//! the mean of its structural score and the share of the gold's databases on which both queries
//! agree ([`crate::parseval::agreement_share`]).
//! The verdict compares results under `test-suite` semantics unless the options name another.

use serde_json::{json, Value as Json};

pub mod components;

use crate::error::{Error, Result};
use crate::gmn::{pair_graph, runtime, Model};
use crate::metrics::{ast_ted, relpm, DEFAULT_ALPHA, DEFAULT_BETA};
use crate::parse::dialect::untag_lenient;
use crate::parseval::options::Semantics;
use crate::parseval::{agreement_share, decide_cached, Decision, Evidence, Verdict};
use crate::schema::{schema_argument, ParsedSchema};
use components::{Components, SimilarityOptions};

/// Where a verdict places a pair: the score is `low + (high - low) * structural`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    pub low: f64,
    pub high: f64,
}

/// Band of a pair no generated database tells apart.
pub const EQUIVALENT: Band = Band {
    low: 0.5,
    high: 1.0,
};
/// Band of a pair without a verdict (unsupported construct, budget, empty results).
pub const UNDECIDED: Band = Band {
    low: 0.05,
    high: 0.95,
};
/// Band of a pair found different on weak evidence (which evidence: [`band`]).
pub const WEAK_COUNTEREXAMPLE: Band = Band {
    low: 0.1,
    high: 0.45,
};
/// Band of a pair that, under `test-suite` semantics, differs only on databases with NULL values
/// (no verdict): above every counterexample, below "no difference found" (why:
/// docs/similarity.md#the-bands).
pub const NULL_ONLY_UNDER_TEST_SUITE: Band = Band {
    low: 0.25,
    high: 0.45,
};
/// Band of a pair that differs on ordinary data, or whose prediction fails.
pub const COUNTEREXAMPLE: Band = Band {
    low: 0.0,
    high: 0.25,
};

/// One structural score that enters the mean.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub name: &'static str,
    pub score: f64,
}

/// A default component left out of the mean because it cannot run here, and why (ONNX Runtime
/// or its model not installed, or failing).
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    pub name: &'static str,
    pub reason: String,
}

/// The structural scores that enter the mean, and the default ones left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Structural {
    pub components: Vec<Component>,
    pub missing: Vec<Missing>,
}

/// The score and everything it was made from.
#[derive(Debug, Clone)]
pub struct Similarity {
    pub score: f64,
    /// 1, 0 or None, as `sql_equivalent` with the same options.
    pub verdict: Option<i64>,
    /// Strength of the counterexample when the verdict is 0.
    pub evidence: Option<Evidence>,
    pub reason: String,
    pub structural: f64,
    /// Under the option `agreement`, for a pair found different: the share of the gold's
    /// generated databases on which both queries agree; the pair's position in its band is then
    /// the mean of it and `structural` (None: the position is `structural`).
    pub agreement: Option<f64>,
    pub components: Vec<Component>,
    /// Default components left out because they cannot run (empty on a full installation).
    pub missing: Vec<Missing>,
    pub band: Band,
    /// Solver work the verdict spent, in Z3 resource units (option `work` bounds it).
    pub work: u64,
    /// The leniencies that decided an equivalent verdict (empty: none did).
    pub leniency: Vec<&'static str>,
}

impl Similarity {
    /// The JSON object `sql_similarity_components` returns; `missing` ({component: why}) only
    /// when a default component was left out, `leniency` (the options that decided the verdict)
    /// only when one did.
    pub fn to_json(&self) -> Json {
        let mut components = serde_json::Map::new();
        for c in &self.components {
            components.insert(c.name.into(), json!(c.score));
        }
        let mut out = json!({
            "score": self.score,
            "verdict": self.verdict,
            "evidence": self.evidence.map(Evidence::name),
            "reason": self.reason,
            "band": [self.band.low, self.band.high],
            "work": self.work,
            "structural": self.structural,
            "components": components,
        });
        if !self.missing.is_empty() {
            let missing: serde_json::Map<String, Json> = self
                .missing
                .iter()
                .map(|m| (m.name.to_string(), json!(m.reason)))
                .collect();
            out["missing"] = Json::Object(missing);
        }
        if !self.leniency.is_empty() {
            out["leniency"] = json!(self.leniency);
        }
        if let Some(share) = self.agreement {
            out["agreement"] = json!(share);
        }
        out
    }
}

/// The band a decision places a pair in: the one place that maps verdicts and evidence to bands.
pub fn band(decision: &Decision) -> Band {
    match &decision.verdict {
        Verdict::Equivalent => EQUIVALENT,
        Verdict::Unknown(_) => UNDECIDED,
        Verdict::Different(c) if decision.null_dependent_under_test_suite(c) => {
            NULL_ONLY_UNDER_TEST_SUITE
        }
        Verdict::Different(c) => match c.evidence {
            Evidence::Ordinary => COUNTEREXAMPLE,
            Evidence::RepeatedValues
            | Evidence::Repeats
            | Evidence::NullDependent
            | Evidence::EmptyInput
            | Evidence::TieBreaking => WEAK_COUNTEREXAMPLE,
        },
    }
}

/// A GMN model's score of the pair: Err when ONNX Runtime or the model is not installed or
/// fails, 0.0 when either query has no graph, as for the other scores, and 1.0 when the two
/// graphs are identical (the models' outputs there are within 0.01 of 1).
fn gmn_score(
    gold: &str,
    pred: &str,
    schema: Option<&ParsedSchema>,
    model: Model,
) -> std::result::Result<f64, runtime::RuntimeError> {
    runtime::check(model)?;
    let Some(pair) = pair_graph(gold, pred, schema, model) else {
        return Ok(0.0);
    };
    if pair.gold == pair.pred {
        return Ok(1.0);
    }
    let scores = runtime::score_batch(model, &[&pair])?;
    Ok(scores.first().map_or(0.0, |s| s.clamp(0.0, 1.0)))
}

/// The structural scores of a pair that `chosen` names, each in [0, 1]; SQL that does not parse
/// or plan scores 0. A GMN that cannot run (ONNX Runtime or its model missing) is left out and
/// listed in `missing`, unless the options named it or set `require_gmn` (then the call fails,
/// saying what is missing); where the default's GMNs are both missing, the mean is its
/// fallback's (AST-TE and RelPM); with no component left, the call fails too.
pub fn structural_components(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    chosen: Components,
) -> Result<Structural> {
    let parsed = schema.map(schema_argument).transpose()?;
    let (mut components, missing) = scores(gold, pred, parsed.as_deref(), chosen)?;
    if let (true, Some(fallback)) = (components.is_empty(), chosen.fallback()) {
        components = scores(gold, pred, parsed.as_deref(), fallback)?.0;
    }
    if components.is_empty() {
        return Err(Error::Unavailable(
            "no structural component is available (the GMN models are not installed)".into(),
        ));
    }
    Ok(Structural {
        components,
        missing,
    })
}

/// The scores `chosen` names, and the GMNs left out because they cannot run (an error instead
/// when `chosen` is strict: named in the options, or `require_gmn`).
fn scores(
    gold: &str,
    pred: &str,
    schema: Option<&ParsedSchema>,
    chosen: Components,
) -> Result<(Vec<Component>, Vec<Missing>)> {
    let (mut components, mut missing) = (Vec::new(), Vec::new());
    if chosen.has("ast_ted") {
        let score = ast_ted::ast_ted(gold, pred).unwrap_or(0.0);
        components.push(Component {
            name: "ast_ted",
            score,
        });
    }
    if chosen.has("relpm") {
        let score =
            relpm::relpm(gold, pred, schema, DEFAULT_ALPHA, DEFAULT_BETA).map_or(0.0, |s| s.f_beta);
        components.push(Component {
            name: "relpm",
            score,
        });
    }
    for (name, model) in [
        ("gmn_similarity", Model::FuncEval),
        ("hybrid_gmn_similarity", Model::Hybrid),
    ] {
        if !chosen.has(name) {
            continue;
        }
        let timer = crate::profile::time(crate::profile::Stage::Gmn);
        let score = gmn_score(gold, pred, schema, model);
        drop(timer);
        match score {
            Ok(score) => components.push(Component { name, score }),
            Err(e) if chosen.named() => {
                return Err(Error::Unavailable(format!("component {name}: {e}")))
            }
            Err(e) if chosen.strict() => {
                return Err(Error::Unavailable(format!(
                    "component {name} cannot run and the options require the GMN scores \
                     (require_gmn): {e}"
                )))
            }
            Err(e) => missing.push(Missing {
                name,
                reason: e.to_string(),
            }),
        }
    }
    Ok((components, missing))
}

/// `sql_similarity` of a pair in [0, 1]; 1.0 for identical queries that ParSEval can run.
/// `options` are ParSEval's.
///
/// ```
/// use sqlsim::combined::{options, sql_similarity};
/// let ddl = "CREATE TABLE t (a INTEGER NOT NULL, b TEXT)";
/// let o = options("sql_similarity", None).unwrap();
/// let same = sql_similarity("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE 1 < a", Some(ddl), &o).unwrap();
/// let wrong = sql_similarity("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a < 1", Some(ddl), &o).unwrap();
/// assert!(same.score >= 0.5 && wrong.score < 0.25);
/// ```
pub fn sql_similarity(
    gold: &str,
    pred: &str,
    schema: Option<&str>,
    options: &SimilarityOptions,
) -> Result<Similarity> {
    let _timer = crate::profile::time(crate::profile::Stage::Calls);
    // the structural components read both texts as written, as the structural metrics do; only
    // the verdict reads a gold leniently (`parse::translate::read_leniently`)
    let Structural {
        components,
        missing,
    } = structural_components(
        as_written(gold),
        as_written(pred),
        schema,
        options.components,
    )?;
    let structural = components.iter().map(|c| c.score).sum::<f64>() / components.len() as f64;
    let decision = decide_cached(gold, pred, schema, &options.verdict)?;
    let band = band(&decision);
    let evidence = match &decision.verdict {
        Verdict::Different(c) => Some(c.evidence),
        _ => None,
    };
    let agreement = match evidence {
        Some(_) if options.agreement => agreement_share(gold, pred, schema, &options.verdict)?,
        _ => None,
    };
    let position = agreement.map_or(structural, |share| (structural + share) / 2.0);
    Ok(Similarity {
        score: (band.low + (band.high - band.low) * position).clamp(0.0, 1.0),
        agreement,
        verdict: decision.value(),
        evidence,
        reason: decision.reason(),
        structural,
        components,
        missing,
        band,
        work: decision.work,
        leniency: decision.leniency.iter().map(|l| l.key()).collect(),
    })
}

/// The SQLite text of a gold the registry tagged to be read leniently (`dialect::untag_lenient`),
/// any other text itself: what the structural components compare.
fn as_written(sql: &str) -> &str {
    untag_lenient(sql).unwrap_or(sql)
}

/// The semantics of `sql_similarity`'s verdict when its options name none: `test-suite`
/// (column permutations, row order only under the gold's ORDER BY), the rule of the labels it is
/// measured against; its ROC AUC is higher than under `bag` on four public sets and equal on
/// WikiSQL (docs/semantics.md). `sql_equivalent` keeps `bag`.
pub const DEFAULT_SEMANTICS: Semantics = Semantics::TestSuite;

/// Parses `sql_similarity`'s options argument: ParSEval's keys and defaults, except that the
/// semantics defaults to [`DEFAULT_SEMANTICS`]; `sql_equivalent` with the same semantics shares
/// the cached verdict.
pub fn options(function: &'static str, text: Option<&str>) -> Result<SimilarityOptions> {
    components::parse(function, text, DEFAULT_SEMANTICS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DDL: &str = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b TEXT)";

    fn score(gold: &str, pred: &str) -> Similarity {
        sql_similarity(
            gold,
            pred,
            Some(DDL),
            &options("sql_similarity", None).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn bands_follow_the_verdict() {
        let same = score("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE 1 < a");
        assert_eq!(same.verdict, Some(1));
        assert!(same.score >= 0.5, "{same:?}");
        let wrong = score("SELECT a FROM t WHERE a > 1", "SELECT a FROM t WHERE a < 1");
        assert_eq!(wrong.verdict, Some(0));
        assert_eq!(wrong.evidence, Some(Evidence::Ordinary));
        assert!(wrong.score <= 0.25, "{wrong:?}");
        let identical = score("SELECT a FROM t", "SELECT a FROM t");
        assert!((identical.score - 1.0).abs() < 1e-12);
    }

    #[test]
    fn differences_only_on_empty_input_are_weak() {
        let s = score(
            "SELECT MAX(a) FROM t WHERE b = 'x'",
            "SELECT a FROM t WHERE b = 'x' ORDER BY a DESC LIMIT 1",
        );
        assert_eq!(s.verdict, Some(0));
        assert_eq!(s.evidence, Some(Evidence::EmptyInput), "{}", s.reason);
        assert!(s.score > COUNTEREXAMPLE.high && s.score < EQUIVALENT.low);
    }

    #[test]
    fn differences_through_nulls_are_weak() {
        let s = score("SELECT COUNT(b) FROM t", "SELECT COUNT(*) FROM t");
        // no verdict under test-suite semantics (the default here): above every counterexample
        assert_eq!(s.verdict, None, "{}", s.reason);
        assert_eq!(s.evidence, Some(Evidence::NullDependent), "{}", s.reason);
        assert_eq!(s.band, NULL_ONLY_UNDER_TEST_SUITE);
        assert!(s.score >= COUNTEREXAMPLE.high && s.score < EQUIVALENT.low);
        // under bag semantics it is a counterexample, in the weak band
        let bag = options("sql_similarity", Some(r#"{"semantics":"bag"}"#)).unwrap();
        let s = sql_similarity(
            "SELECT COUNT(b) FROM t",
            "SELECT COUNT(*) FROM t",
            Some(DDL),
            &bag,
        );
        let s = s.unwrap();
        assert_eq!(
            (s.verdict, s.band),
            (Some(0), WEAK_COUNTEREXAMPLE),
            "{}",
            s.reason
        );
    }

    #[test]
    fn the_verdict_defaults_to_test_suite_semantics() {
        // columns in another order: equal under test-suite, different under bag
        let s = score("SELECT a, b FROM t", "SELECT b, a FROM t");
        assert_eq!(s.verdict, Some(1), "{}", s.reason);
        assert!(
            s.reason.contains("under test-suite semantics"),
            "{}",
            s.reason
        );
        let bag = options("sql_similarity", Some(r#"{"semantics":"bag"}"#)).unwrap();
        let s =
            sql_similarity("SELECT a, b FROM t", "SELECT b, a FROM t", Some(DDL), &bag).unwrap();
        assert_eq!(s.verdict, Some(0), "{}", s.reason);
    }

    #[test]
    fn the_components_option_picks_the_mean_and_a_named_missing_model_fails() {
        let (gold, pred) = (
            "SELECT a FROM t WHERE a > 1",
            "SELECT a FROM t WHERE a >= 1",
        );
        let only = |names: &str| {
            let text = format!(r#"{{"components": {names}}}"#);
            let o = options("sql_similarity", Some(&text)).unwrap();
            sql_similarity(gold, pred, Some(DDL), &o)
        };
        let s = only(r#"["ast_ted"]"#).unwrap();
        assert_eq!(s.components.len(), 1);
        assert_eq!(s.structural, s.components[0].score);
        assert_eq!(Some(s.structural), ast_ted::ast_ted(gold, pred));
        let default = score(gold, pred);
        let names: Vec<_> = default.components.iter().map(|c| c.name).collect();
        match runtime::check(Model::FuncEval) {
            // the unit tests run without ONNX Runtime unless ORT_DYLIB_PATH names it: the default
            // falls back to AST-TE and RelPM, and a named GMN is an error
            Err(_) => {
                let e = only(r#"["relpm", "gmn_similarity"]"#)
                    .unwrap_err()
                    .to_string();
                assert!(e.starts_with("component gmn_similarity: "), "{e}");
                assert_eq!(names, components::FALLBACK);
                let pair = only(r#"["ast_ted", "relpm"]"#).unwrap();
                assert_eq!(default.structural, pair.structural);
            }
            Ok(()) => {
                assert_eq!(only(r#"["gmn_similarity"]"#).unwrap().components.len(), 1);
                assert_eq!(names, components::DEFAULT);
            }
        }
    }

    #[test]
    fn a_default_gmn_that_cannot_run_is_reported_or_required() {
        let (gold, pred) = ("SELECT a FROM t WHERE a > 1", "SELECT b FROM t");
        let default = score(gold, pred);
        let json = default.to_json();
        let required = options("sql_similarity", Some(r#"{"require_gmn": true}"#)).unwrap();
        let strict = sql_similarity(gold, pred, Some(DDL), &required);
        match runtime::check(Model::FuncEval) {
            Err(why) => {
                // both GMNs are listed with why; the JSON says so; require_gmn fails instead
                let names: Vec<_> = default.missing.iter().map(|m| m.name).collect();
                assert_eq!(names, components::DEFAULT);
                assert_eq!(default.missing[0].reason, why.to_string());
                assert_eq!(json["missing"]["gmn_similarity"], json!(why.to_string()));
                let e = strict.unwrap_err();
                assert!(matches!(e, Error::Unavailable(_)), "{e:?}");
                let e = e.to_string();
                assert!(
                    e.starts_with("component gmn_similarity cannot run and the options require")
                        && e.contains(&why.to_string()),
                    "{e}"
                );
            }
            Ok(()) => {
                assert!(default.missing.is_empty() && json.get("missing").is_none());
                assert_eq!(strict.unwrap().score, default.score);
            }
        }
    }

    #[test]
    fn a_failing_prediction_is_ordinary_evidence() {
        let s = score("SELECT a FROM t", "SELECT nope FROM t");
        assert_eq!(s.evidence, Some(Evidence::Ordinary));
        assert!(s.score <= COUNTEREXAMPLE.high);
    }
}
