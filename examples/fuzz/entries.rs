//! The entry points: for each, how one input is generated (as a list of SQL-surface calls, plus a
//! few direct core calls) from a random stream. Calls are plain data so that a finding prints as
//! a row of tests/fixtures/fuzz_regressions.tsv and replays without this harness.

use crate::mutate::{mutate_many, semantic_edit, Corpus};
use crate::schemagen::{mutate_json, spider_vocabulary, GenSchema, SchemaForm};
use crate::sqlgen::{SqlGen, Style, Vocabulary};
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// The entry points, in the order `--entry all` runs them.
pub const ENTRIES: &[&str] = &[
    "parse",
    "plan",
    "spider",
    "schema",
    "parseval",
    "gmn",
    "postgres",
    "mysql",
    "duckdb",
    "snowflake",
    "bigquery",
    "ansi",
];

/// One argument of a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Null,
    Text(String),
    Real(f64),
}

/// What a call's result must satisfy beyond the generic checks (no internal error, scores in
/// range): `OneWhenClean` asks for exactly 1.0 when the first argument parses and plans (in the
/// dialect its options name), `Error` for an error naming the function and its `options`
/// argument, `SameWithoutOptions` for the result of the same call with NULL options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Any,
    OneWhenClean,
    Error,
    SameWithoutOptions,
}

/// One call of a registry function (or of a core function, named `core:...`).
#[derive(Debug, Clone)]
pub struct Call {
    pub function: &'static str,
    pub args: Vec<Arg>,
    pub expect: Expect,
}

impl Call {
    pub fn new(function: &'static str, args: Vec<Arg>) -> Call {
        Call {
            function,
            args,
            expect: Expect::Any,
        }
    }

    pub fn identity(function: &'static str, args: Vec<Arg>) -> Call {
        Call {
            function,
            args,
            expect: Expect::OneWhenClean,
        }
    }
}

/// Everything input generation reads: the seed corpus and the fixed options.
pub struct Context {
    pub corpus: Corpus,
    /// Options JSON passed to the ParSEval functions (a small work budget).
    pub parseval_options: String,
}

pub fn text(s: impl Into<String>) -> Arg {
    Arg::Text(s.into())
}

pub fn schema_arg(s: &Option<String>) -> Arg {
    s.as_ref().map_or(Arg::Null, |s| Arg::Text(s.clone()))
}

/// Weights (alpha, beta) of the partial-matching scores: usually absent, sometimes odd.
pub fn weight(rng: &mut TestRng) -> Arg {
    match rng.random_range(0..12) {
        0 => Arg::Real(0.0),
        1 => Arg::Real(1.0),
        2 => Arg::Real(rng.random_range(0.0..1.0)),
        3 => Arg::Real(f64::NAN),
        4 => Arg::Real(f64::INFINITY),
        5 => Arg::Real(-0.5),
        6 => Arg::Real(1e308),
        7 => Arg::Real(2.0),
        _ => Arg::Null,
    }
}

/// A query: generated over `vocab`, or a corpus query, possibly mutated.
pub fn query(rng: &mut TestRng, ctx: &Context, vocab: &Vocabulary, style: Style) -> String {
    match rng.random_range(0..10) {
        0..=4 => SqlGen::new(rng, vocab, style).query_text(),
        5..=7 => {
            let base = ctx.corpus.random_query(rng).to_string();
            let other = ctx.corpus.random_query(rng).to_string();
            mutate_many(rng, &base, &other, 3)
        }
        8 => {
            let base = SqlGen::new(rng, vocab, style).query_text();
            let other = ctx.corpus.random_query(rng).to_string();
            mutate_many(rng, &base, &other, 2)
        }
        _ => ctx.corpus.random_query(rng).to_string(),
    }
}

/// A second query related to `a`: itself, a mutation, a semantic edit, or an unrelated one.
pub fn partner(
    rng: &mut TestRng,
    ctx: &Context,
    vocab: &Vocabulary,
    style: Style,
    a: &str,
) -> String {
    match rng.random_range(0..10) {
        0 => a.to_string(),
        1..=3 => {
            let other = ctx.corpus.random_query(rng).to_string();
            mutate_many(rng, a, &other, 2)
        }
        4 | 5 => semantic_edit(rng, a),
        _ => query(rng, ctx, vocab, style),
    }
}

/// A random vocabulary: concert_singer's names, a generated schema's, or a corpus Spider entry's.
pub fn any_vocabulary(rng: &mut TestRng, ctx: &Context) -> Vocabulary {
    match rng.random_range(0..3) {
        0 => Vocabulary::concert_singer(),
        1 => GenSchema::generate(rng, 4, true).vocabulary(),
        _ => spider_entry(rng, ctx)
            .map_or_else(Vocabulary::concert_singer, |e| spider_vocabulary(&e)),
    }
}

fn spider_entry(rng: &mut TestRng, ctx: &Context) -> Option<String> {
    let entries = &ctx.corpus.spider_entries;
    (!entries.is_empty()).then(|| entries[rng.random_range(0..entries.len())].clone())
}

/// A schema argument and the vocabulary of queries over it: none, a fixture schema, or a
/// generated one in any of the three forms.
pub fn schema_and_vocabulary(
    rng: &mut TestRng,
    ctx: &Context,
    none_share: f64,
) -> (Option<String>, Vocabulary) {
    if rng.random_bool(none_share) {
        return (None, any_vocabulary(rng, ctx));
    }
    match rng.random_range(0..4) {
        0 if !ctx.corpus.ddl_schemas.is_empty() => {
            let ddl = &ctx.corpus.ddl_schemas[rng.random_range(0..ctx.corpus.ddl_schemas.len())];
            (Some(ddl.clone()), Vocabulary::concert_singer())
        }
        1 => match spider_entry(rng, ctx) {
            Some(e) => {
                let v = spider_vocabulary(&e);
                (Some(e), v)
            }
            None => (None, Vocabulary::concert_singer()),
        },
        _ => {
            let odd = rng.random_bool(0.2);
            let s = GenSchema::generate(rng, 4, odd);
            let form = [
                SchemaForm::Ddl,
                SchemaForm::SpiderJson,
                SchemaForm::BirdJson,
            ][rng.random_range(0..3)];
            (Some(s.render(form, rng)), s.vocabulary())
        }
    }
}

/// The calls of input number `index` of `entry` (its random stream is already seeded).
pub fn generate(entry: &str, rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    match entry {
        "parse" => parse_input(rng, ctx),
        "plan" => plan_input(rng, ctx),
        "spider" => spider_input(rng, ctx),
        "schema" => schema_input(rng, ctx),
        "parseval" => parseval_input(rng, ctx),
        "gmn" => gmn_input(rng, ctx),
        dialect => crate::dialect_entries::dialect_input(dialect, rng, ctx),
    }
}

/// AST-TE, ASTPM, sql_ast and the parser's error on a pair of (often broken) queries.
fn parse_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let vocab = any_vocabulary(rng, ctx);
    let a = query(rng, ctx, &vocab, Style::WILD);
    let b = partner(rng, ctx, &vocab, Style::WILD, &a);
    let mut calls = vec![
        Call::new("ast_ted", vec![text(&a), text(&b)]),
        Call::new("ast_ted_distance", vec![text(&a), text(&b)]),
        Call::new("astpm", vec![text(&a), text(&b), weight(rng), weight(rng)]),
        Call::new("sql_ast", vec![text(&a)]),
        Call::new("sql_parse_error", vec![text(&b)]),
        Call::new("sql_ast_nodes", vec![text(&b)]),
    ];
    if rng.random_bool(0.1) {
        calls.push(Call::identity("ast_ted", vec![text(&a), text(&a)]));
        calls.push(Call::identity("astpm", vec![text(&b), text(&b)]));
    }
    if rng.random_bool(0.05) {
        calls.push(Call::new("core:prepare", vec![text(&a)]));
    }
    calls
}

/// A schema argument (present with probability `schema_p`) and two related queries over its
/// names, in the wild style with a few odd tokens: the plan and GMN entries' inputs.
fn wild_pair(rng: &mut TestRng, ctx: &Context, schema_p: f64) -> (String, String, Arg) {
    let (schema, vocab) = schema_and_vocabulary(rng, ctx, schema_p);
    let style = Style {
        oddity: 0.05,
        ..Style::WILD
    };
    let a = query(rng, ctx, &vocab, style);
    let b = partner(rng, ctx, &vocab, style, &a);
    let s = schema_arg(&schema);
    (a, b, s)
}

/// sql_plan, sql_plan_error and RelPM with and without a schema.
fn plan_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let (a, b, s) = wild_pair(rng, ctx, 0.4);
    let mut calls = vec![
        Call::new("sql_plan", vec![text(&a), s.clone()]),
        Call::new("sql_plan_error", vec![text(&b), s.clone()]),
        Call::new(
            "relpm",
            vec![text(&a), text(&b), s.clone(), weight(rng), weight(rng)],
        ),
    ];
    if s != Arg::Null && rng.random_bool(0.3) {
        calls.push(Call::new("relpm", vec![text(&a), text(&b)]));
    }
    if rng.random_bool(0.1) {
        calls.push(Call::identity("relpm", vec![text(&a), text(&a), s.clone()]));
    }
    if rng.random_bool(0.05) {
        calls.push(Call::new("core:plan", vec![text(&a)]));
    }
    calls
}

const SPIDER_OPTIONS: &[Option<&str>] = &[
    None,
    None,
    Some("lenient"),
    Some("{\"lenient\": true}"),
    Some("keep_values, keep_distinct"),
    Some("{\"spider\": false}"),
    Some("testsuite lenient"),
];

/// Spider hardness, exact and partial match over Spider-style schemas.
fn spider_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let (schema, vocab) = match rng.random_range(0..5) {
        0..=2 => match spider_entry(rng, ctx) {
            Some(e) => {
                let v = spider_vocabulary(&e);
                (Some(e), v)
            }
            None => (None, Vocabulary::concert_singer()),
        },
        _ => schema_and_vocabulary(rng, ctx, 0.2),
    };
    let style = Style {
        oddity: 0.04,
        deep_share: 0.01,
        max_depth: 3,
        plain: false,
    };
    let gold = query(rng, ctx, &vocab, style);
    let pred = partner(rng, ctx, &vocab, style, &gold);
    let s = schema_arg(&schema);
    let opts = SPIDER_OPTIONS[rng.random_range(0..SPIDER_OPTIONS.len())].map_or(Arg::Null, text);
    let mut calls = vec![
        Call::new(
            "spider_hardness",
            vec![text(&gold), s.clone(), opts.clone()],
        ),
        Call::new(
            "spider_exact_match",
            vec![text(&gold), text(&pred), s.clone(), opts.clone()],
        ),
        Call::new(
            "spider_partial_match",
            vec![text(&gold), text(&pred), s.clone(), opts.clone()],
        ),
    ];
    if rng.random_bool(0.2) {
        calls.push(Call::new(
            "spider_partial",
            vec![text(&pred), text(&gold), s.clone(), opts.clone()],
        ));
    }
    if rng.random_bool(0.05) {
        calls.push(Call::new("core:spider_hardness", vec![text(&pred), s]));
    }
    calls
}

/// The three schema forms, generated and mutated, as the schema argument of several functions.
fn schema_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let generated = GenSchema::generate(rng, 5, true);
    let form = [
        SchemaForm::Ddl,
        SchemaForm::SpiderJson,
        SchemaForm::BirdJson,
    ][rng.random_range(0..3)];
    let mut schema = match rng.random_range(0..10) {
        0 if !ctx.corpus.ddl_schemas.is_empty() => {
            ctx.corpus.ddl_schemas[rng.random_range(0..ctx.corpus.ddl_schemas.len())].clone()
        }
        1 if !ctx.corpus.bird_schemas.is_empty() => {
            ctx.corpus.bird_schemas[rng.random_range(0..ctx.corpus.bird_schemas.len())].clone()
        }
        2 => spider_entry(rng, ctx).unwrap_or_default(),
        _ => generated.render(form, rng),
    };
    match rng.random_range(0..4) {
        0 => schema = mutate_json(rng, &schema),
        1 => {
            let other = generated.render(SchemaForm::Ddl, rng);
            schema = mutate_many(rng, &schema, &other, 3);
        }
        _ => {}
    }
    let vocab = generated.vocabulary();
    let style = Style {
        oddity: 0.03,
        ..Style::TAME
    };
    let a = SqlGen::new(rng, &vocab, style).query_text();
    let b = partner(rng, ctx, &vocab, style, &a);
    let s = text(&schema);
    let mut calls = vec![
        Call::new("core:schema", vec![s.clone()]),
        Call::new("relpm", vec![text(&a), text(&b), s.clone()]),
        Call::new("sql_plan", vec![text(&a), s.clone()]),
        Call::new("spider_exact_match", vec![text(&a), text(&b), s.clone()]),
    ];
    if rng.random_bool(0.3) {
        calls.push(Call::new("sql_graph", vec![text(&a), text(&b), s.clone()]));
    }
    if rng.random_bool(0.3) {
        calls.push(Call::new(
            "spider_hardness",
            vec![text(&b), s, text("lenient")],
        ));
    }
    calls
}

/// ParSEval on small generated pairs over a small generated schema, with a small budget.
fn parseval_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let generated = GenSchema::generate(rng, 3, false);
    let form = [
        SchemaForm::Ddl,
        SchemaForm::SpiderJson,
        SchemaForm::BirdJson,
    ][rng.random_range(0..3)];
    let schema = generated.render(form, rng);
    let vocab = generated.vocabulary();
    let gold = SqlGen::new(rng, &vocab, Style::TAME).query();
    let pred = match rng.random_range(0..10) {
        0 => gold.clone(),
        1..=6 => semantic_edit(rng, &gold),
        _ => SqlGen::new(rng, &vocab, Style::TAME).query(),
    };
    let opts = text(&ctx.parseval_options);
    let s = text(&schema);
    let mut calls = vec![
        Call::new(
            "sql_equivalent_reason",
            vec![text(&gold), text(&pred), s.clone(), opts.clone()],
        ),
        Call::new(
            "sql_equivalent",
            vec![text(&gold), text(&pred), s.clone(), opts.clone()],
        ),
        Call::new(
            "sql_counterexample",
            vec![text(&gold), text(&pred), s.clone(), opts.clone()],
        ),
    ];
    if rng.random_bool(0.1) {
        calls.push(Call::new("parseval_generate", vec![text(&gold), s, opts]));
    }
    calls
}

/// The GMN graph builder (`sql_graph`, both models), no ONNX inference.
fn gmn_input(rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let (a, b, s) = wild_pair(rng, ctx, 0.5);
    let model = match rng.random_range(0..8) {
        0..=2 => Arg::Null,
        3..=6 => text("hybrid"),
        _ => text("funceval"),
    };
    let mut calls = vec![Call::new(
        "sql_graph",
        vec![text(&a), text(&b), s.clone(), model],
    )];
    if rng.random_bool(0.05) {
        calls.push(Call::new("core:graph", vec![text(&b), s]));
    }
    calls
}
