//! Leniencies: how far two results may differ and still match (columns in another order, columns the prediction adds, a numeric tolerance: `shape.rs`) and which weak differences ParSEval's verdict forgives, each an option of its own; and the `benchmark` presets, each a bundle of those options and a `semantics`.
//!
//! ```sql
//! -- BIRD as its evaluator compares (rows as a set) with the leniencies people apply to it
//! SELECT sql_similarity(gold, pred, schema, '{"benchmark": "bird"}');
//! -- the same bundle, one leniency turned off
//! SELECT sql_equivalent(gold, pred, schema, '{"benchmark": "bird", "forgive_empty_input": false}');
//! -- Spider 2.0's rule: the gold's columns among the prediction's, numbers within 0.01
//! SELECT exec_match(db, gold, pred, '{"benchmark": "spider2"}');
//! ```
//!
//! A preset only fills in the options the call does not give: `{"benchmark": "bird", "semantics":
//! "bag"}` is BIRD's leniencies under bag semantics. docs/semantics.md#benchmark-presets lists
//! each preset and why each of its leniencies is there.

mod shape;

use serde_json::{Map, Value as Json};

use crate::error::Result;
use crate::options::OptionsArg;
pub use shape::RowRule;

/// The option naming a preset.
pub const BENCHMARK_KEY: &str = "benchmark";

/// The options that loosen how two results compare (every function that compares results).
pub const SHAPE_KEYS: [&str; 3] = ["any_column_order", "extra_columns", "tolerance"];

/// The options that forgive a weak difference, one per kind of weak evidence, and
/// `plausible_dates`, which forgives a difference that needs a date column holding text that is
/// no date (ParSEval's verdict functions only: they judge generated databases, whose NULLs,
/// repeated values, ties, empty tables and malformed dates a real database may not hold).
pub const FORGIVE_KEYS: [&str; 7] = [
    "forgive_nulls",
    "forgive_untested_nulls",
    "forgive_repeated_values",
    "forgive_repeats",
    "forgive_empty_input",
    "forgive_ties",
    "plausible_dates",
];

/// Largest accepted `tolerance`.
pub const MAX_TOLERANCE: f64 = 1e6;

/// Which functions read the options: their semantics names differ (BIRD's rule is `set` for the
/// ParSEval functions, `bird` for `exec_match`), and only the verdict functions forgive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `sql_equivalent`, `sql_equivalent_reason`, `sql_counterexample`, `sql_similarity`,
    /// `sql_similarity_components`.
    Verdict,
    /// `exec_match`, `exec_match_reason`.
    Exec,
}

/// A benchmark whose evaluator and judges a preset follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Benchmark {
    /// BIRD: execution accuracy compares rows as a set; NL2SQL-Bugs' experts accept a
    /// prediction whose difference needs data the real databases do not hold.
    Bird,
    /// Spider (and Spider-DK, -Syn, -Realistic): test-suite-sql-eval.
    Spider,
    /// Spider 2.0 (-lite, -snow): the gold's columns among the prediction's, any order, numbers
    /// within 0.01, row order ignored.
    Spider2,
}

impl Benchmark {
    pub const ALL: [Benchmark; 3] = [Benchmark::Bird, Benchmark::Spider, Benchmark::Spider2];

    /// The option value that names it.
    pub fn name(self) -> &'static str {
        match self {
            Benchmark::Bird => "bird",
            Benchmark::Spider => "spider",
            Benchmark::Spider2 => "spider2",
        }
    }

    /// The explicit options the preset stands for in `family`'s functions (why each is there:
    /// docs/semantics.md#benchmark-presets, with its effect on the BIRD expert set).
    pub fn options(self, family: Family) -> Vec<(&'static str, Json)> {
        let verdict = family == Family::Verdict;
        match self {
            Benchmark::Bird => {
                let semantics = if verdict { "set" } else { "bird" };
                let mut o = vec![("semantics", Json::from(semantics))];
                if verdict {
                    o.extend(BIRD_FORGIVES.map(|k| (k, Json::Bool(true))));
                }
                o
            }
            Benchmark::Spider => vec![("semantics", Json::from("test-suite"))],
            Benchmark::Spider2 => vec![
                ("semantics", Json::from("bag")),
                ("any_column_order", Json::Bool(true)),
                ("extra_columns", Json::Bool(true)),
                ("tolerance", Json::from(0.01)),
            ],
        }
    }
}

impl Benchmark {
    /// Whether `sql_similarity` under the preset places a pair found different by its agreement
    /// share as well as its structural score (option `agreement`; measured on the BIRD expert
    /// set: docs/similarity.md#agreement).
    pub fn ranks_by_agreement(self) -> bool {
        self == Benchmark::Bird
    }
}

/// The preset `map` names under `benchmark`, left in place (None: no preset); an unknown name is
/// the error [`expand_benchmark`] gives.
pub fn named_benchmark(arg: OptionsArg, map: &Map<String, Json>) -> Result<Option<Benchmark>> {
    map.get(BENCHMARK_KEY)
        .map(|v| arg.one_of(BENCHMARK_KEY, v, &Benchmark::ALL, Benchmark::name))
        .transpose()
}

/// The weak differences the `bird` preset forgives (measured on the BIRD expert set:
/// docs/semantics.md#benchmark-presets).
const BIRD_FORGIVES: [&str; 3] = [
    "forgive_untested_nulls",
    "forgive_empty_input",
    "plausible_dates",
];

/// Replaces `benchmark` in `map` by the options of its preset that `map` does not give; the
/// preset, if any. An unknown name is an error listing the known ones.
pub fn expand_benchmark(
    arg: OptionsArg,
    map: &mut Map<String, Json>,
    family: Family,
) -> Result<Option<Benchmark>> {
    let Some(value) = map.remove(BENCHMARK_KEY) else {
        return Ok(None);
    };
    let benchmark = arg.one_of(BENCHMARK_KEY, &value, &Benchmark::ALL, Benchmark::name)?;
    for (key, v) in benchmark.options(family) {
        map.entry(key).or_insert(v);
    }
    Ok(Some(benchmark))
}

/// One leniency, by the option that turns it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Leniency {
    AnyColumnOrder,
    ExtraColumns,
    Tolerance,
    ForgiveNulls,
    ForgiveUntestedNulls,
    ForgiveRepeatedValues,
    ForgiveRepeats,
    ForgiveEmptyInput,
    ForgiveTies,
    PlausibleDates,
}

impl Leniency {
    /// The option's key, as `sql_similarity_components` and the reasons name it.
    pub fn key(self) -> &'static str {
        match self {
            Leniency::AnyColumnOrder => "any_column_order",
            Leniency::ExtraColumns => "extra_columns",
            Leniency::Tolerance => "tolerance",
            Leniency::ForgiveNulls => "forgive_nulls",
            Leniency::ForgiveUntestedNulls => "forgive_untested_nulls",
            Leniency::ForgiveRepeatedValues => "forgive_repeated_values",
            Leniency::ForgiveRepeats => "forgive_repeats",
            Leniency::ForgiveEmptyInput => "forgive_empty_input",
            Leniency::ForgiveTies => "forgive_ties",
            Leniency::PlausibleDates => "plausible_dates",
        }
    }

    const FORGIVING: [Leniency; 7] = [
        Leniency::ForgiveNulls,
        Leniency::ForgiveUntestedNulls,
        Leniency::ForgiveRepeatedValues,
        Leniency::ForgiveRepeats,
        Leniency::ForgiveEmptyInput,
        Leniency::ForgiveTies,
        Leniency::PlausibleDates,
    ];
}

/// The leniencies of one call (all off by default: today's strict comparisons).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Leniencies {
    /// `any_column_order`: the prediction's columns may come in any order.
    pub any_column_order: bool,
    /// `extra_columns`: the prediction may return columns the gold does not; each of the gold's
    /// columns must be one of them.
    pub extra_columns: bool,
    /// `tolerance`: numbers within this absolute difference are equal (bits of the f64, so the
    /// options stay hashable).
    tolerance_bits: Option<u64>,
    /// The forgiving leniencies that are on: bit `i` for `Leniency::FORGIVING[i]` (the options
    /// `forgive_nulls`, `forgive_untested_nulls`, `forgive_repeated_values`, `forgive_repeats`,
    /// `forgive_empty_input`, `forgive_ties`, `plausible_dates`; what each forgives: parseval's
    /// checker and verdict/plausible_dates.rs).
    forgive: u8,
}

impl Leniencies {
    /// The absolute numeric tolerance, if any.
    pub fn tolerance(&self) -> Option<f64> {
        self.tolerance_bits.map(f64::from_bits)
    }

    /// True when no leniency loosens how results compare (the forgiving ones aside).
    pub fn strict_shape(&self) -> bool {
        !self.any_column_order && !self.extra_columns && self.tolerance_bits.is_none()
    }

    /// True when `forgiving` (one of the `forgive_*` leniencies) is on.
    pub fn forgives(&self, forgiving: Leniency) -> bool {
        Leniency::FORGIVING
            .iter()
            .position(|&l| l == forgiving)
            .is_some_and(|i| self.forgive & (1 << i) != 0)
    }

    /// These leniencies with `forgiving` (one of the `forgive_*` ones) on or off.
    pub fn with_forgiving(mut self, forgiving: Leniency, on: bool) -> Self {
        if let Some(i) = Leniency::FORGIVING.iter().position(|&l| l == forgiving) {
            if on {
                self.forgive |= 1 << i;
            } else {
                self.forgive &= !(1 << i);
            }
        }
        self
    }

    /// True when no leniency is on.
    pub fn none(&self) -> bool {
        self.strict_shape() && self.forgive == 0
    }

    /// The leniencies that are on, in option order.
    pub fn on(&self) -> Vec<Leniency> {
        let shape = [
            (self.any_column_order, Leniency::AnyColumnOrder),
            (self.extra_columns, Leniency::ExtraColumns),
            (self.tolerance_bits.is_some(), Leniency::Tolerance),
        ];
        let forgiving = Leniency::FORGIVING.map(|l| (self.forgives(l), l));
        shape
            .into_iter()
            .chain(forgiving)
            .filter_map(|(on, l)| on.then_some(l))
            .collect()
    }

    /// Removes the leniency options from `map` and reads them. The forgiving ones are an error
    /// outside the verdict functions (they judge generated databases only).
    pub fn take(arg: OptionsArg, map: &mut Map<String, Json>, family: Family) -> Result<Self> {
        let mut out = Leniencies::default();
        for key in SHAPE_KEYS.into_iter().chain(FORGIVE_KEYS) {
            let Some(value) = map.remove(key) else {
                continue;
            };
            if key == "tolerance" {
                let t = value
                    .as_f64()
                    .filter(|t| (0.0..=MAX_TOLERANCE).contains(t))
                    .ok_or_else(|| {
                        arg.error(format!(
                            "'tolerance' must be a number in [0, {MAX_TOLERANCE}], got {value}"
                        ))
                    })?;
                out.tolerance_bits = Some(t.to_bits());
                continue;
            }
            let on = value
                .as_bool()
                .ok_or_else(|| arg.error(format!("'{key}' must be true or false, got {value}")))?;
            if family == Family::Exec && FORGIVE_KEYS.contains(&key) {
                return Err(arg.error(format!(
                    "'{key}' is an option of the ParSEval verdict functions only: it forgives a \
                     difference that needs data a generated database holds and a real one may \
                     not, and this function runs real databases"
                )));
            }
            match key {
                "any_column_order" => out.any_column_order = on,
                "extra_columns" => out.extra_columns = on,
                _ => {
                    if let Some(&l) = Leniency::FORGIVING.iter().find(|l| l.key() == key) {
                        out = out.with_forgiving(l, on);
                    }
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn parse(text: &str, family: Family) -> Result<(Option<Benchmark>, Leniencies, Json)> {
        let arg = OptionsArg { function: "f" };
        let mut map = arg.object(Some(text))?.unwrap_or_default();
        let b = expand_benchmark(arg, &mut map, family)?;
        let l = Leniencies::take(arg, &mut map, family)?;
        Ok((b, l, Json::Object(map)))
    }

    #[test]
    fn presets_fill_in_only_what_the_call_does_not_give() {
        let (b, l, rest) = parse(r#"{"benchmark": "bird"}"#, Family::Verdict).unwrap();
        assert_eq!(b, Some(Benchmark::Bird));
        assert_eq!(rest, serde_json::json!({"semantics": "set"}));
        let keys: Vec<&str> = l.on().iter().map(|l| l.key()).collect();
        assert_eq!(keys, BIRD_FORGIVES);
        assert!(l.strict_shape());
        let (_, l, rest) = parse(r#"{"benchmark": "bird"}"#, Family::Exec).unwrap();
        assert_eq!(rest, serde_json::json!({"semantics": "bird"}));
        assert_eq!(l, Leniencies::default());
        let (_, l, rest) = parse(
            r#"{"benchmark": "bird", "semantics": "bag", "forgive_untested_nulls": false}"#,
            Family::Verdict,
        )
        .unwrap();
        assert_eq!(rest, serde_json::json!({"semantics": "bag"}));
        assert!(!l.forgives(Leniency::ForgiveUntestedNulls));
        assert!(l.forgives(Leniency::ForgiveEmptyInput) && !l.forgives(Leniency::ForgiveNulls));
        let (_, l, rest) = parse(r#"{"benchmark": "spider2"}"#, Family::Exec).unwrap();
        assert_eq!(rest, serde_json::json!({"semantics": "bag"}));
        assert!(l.any_column_order && l.extra_columns);
        assert_eq!(l.tolerance(), Some(0.01));
        let (_, l, rest) = parse(r#"{"benchmark": "spider"}"#, Family::Verdict).unwrap();
        assert_eq!(rest, serde_json::json!({"semantics": "test-suite"}));
        assert!(l.none() && l.on().is_empty());
        let (_, l, _) = parse(
            r#"{"forgive_ties": true, "extra_columns": true}"#,
            Family::Verdict,
        )
        .unwrap();
        assert_eq!(l.on(), [Leniency::ExtraColumns, Leniency::ForgiveTies]);
    }

    #[test]
    fn bad_values_name_the_function_and_the_option() {
        for (text, family, message) in [
            (
                r#"{"benchmark": "wikisql"}"#,
                Family::Verdict,
                r#"'benchmark' must be 'bird', 'spider' or 'spider2', got "wikisql""#,
            ),
            (
                r#"{"tolerance": -1}"#,
                Family::Exec,
                "'tolerance' must be a number in [0, 1000000], got -1",
            ),
            (
                r#"{"extra_columns": 1}"#,
                Family::Exec,
                "'extra_columns' must be true or false, got 1",
            ),
            (
                r#"{"forgive_ties": true}"#,
                Family::Exec,
                "'forgive_ties' is an option of the ParSEval verdict functions only",
            ),
        ] {
            match parse(text, family) {
                Err(Error::Argument {
                    function,
                    argument,
                    message: m,
                }) => {
                    assert_eq!((function, argument), ("f", "options"));
                    assert!(m.starts_with(message), "{m}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
