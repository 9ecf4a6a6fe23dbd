//! The dialect entries (`postgres`, `mysql`, `duckdb`, `snowflake`, `bigquery`, `ansi`): each
//! input is a query written for that engine (the grammar with `fuzz/dialectgen.rs`'s constructs
//! mixed in, a corpus query read as that dialect, or a pathological shape), a partner, and calls
//! of the registry functions with the dialect options (`dialect`, `gold_dialect`/`pred_dialect`
//! pairs with SQLite or another dialect, a name in other letter case), malformed options, and
//! the translation check (`core:translate`, `fuzz/dialect_checks.rs`).

use crate::dialectgen::{self, DIALECTS};
use crate::entries::{
    partner, query, schema_and_vocabulary, text, weight, Arg, Call, Context, Expect,
};
use crate::mutate::mutate_many;
use crate::sqlgen::{SqlGen, Style, Vocabulary};
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// Options that every function must refuse with an error naming it and its `options` argument.
const MALFORMED: &[&str] = &[
    r#"{"dialect": "oracle"}"#,
    r#"{"dialect": 3}"#,
    r#"{"dialect": ["postgres"]}"#,
    r#"{"gold_dialect": "tsql", "pred_dialect": "mysql"}"#,
    r#"{"pred_dialect": ""}"#,
    r#"{"dialect": "\u0001postgres\u0001"}"#,
    r#"{"dialect": "postgres\u0000"}"#,
    r#"{"dialect": "postgres""#,
    "postgres",
    "[]",
    "",
    "null",
];

/// Functions of one query: `gold_dialect`/`pred_dialect` is an error for them.
const ONE_QUERY: &[&str] = &["sql_ast", "sql_parse_error", "sql_plan", "sql_plan_error"];

/// The `dialect` value naming `dialect`: usually its name, sometimes in other letter case.
fn spelled(rng: &mut TestRng, dialect: &str) -> String {
    match rng.random_range(0..12) {
        0 if dialect == "postgres" => "PostgreSQL".into(),
        1 => dialect.to_uppercase(),
        _ => dialect.into(),
    }
}

/// A query in `dialect` over `vocab`.
fn dialect_query(
    rng: &mut TestRng,
    ctx: &Context,
    vocab: &Vocabulary,
    dialect: &'static str,
) -> String {
    let style = Style {
        oddity: 0.05,
        ..Style::WILD
    };
    match rng.random_range(0..20) {
        0..=12 => SqlGen::new(rng, vocab, style)
            .in_dialect(dialect)
            .query_text(),
        13 | 14 => {
            let a = SqlGen::new(rng, vocab, style).in_dialect(dialect).query();
            let other = ctx.corpus.random_query(rng).to_string();
            mutate_many(rng, &a, &other, 2)
        }
        15 => dialectgen::pathological(rng),
        _ => query(rng, ctx, vocab, style),
    }
}

/// The calls of one input of the entry of `dialect`.
pub fn dialect_input(entry: &str, rng: &mut TestRng, ctx: &Context) -> Vec<Call> {
    let Some(&dialect) = DIALECTS.iter().find(|d| **d == entry) else {
        return Vec::new();
    };
    let (schema, vocab) = schema_and_vocabulary(rng, ctx, 0.4);
    let s = schema.map_or(Arg::Null, Arg::Text);
    let a = dialect_query(rng, ctx, &vocab, dialect);
    let one = format!(r#"{{"dialect": "{}"}}"#, spelled(rng, dialect));
    // the pair's options, and the predicted query in the dialect they give it
    let (pair, b) = match rng.random_range(0..10) {
        0..=5 => {
            let b = match rng.random_bool(0.5) {
                true => dialect_query(rng, ctx, &vocab, dialect),
                false => partner(rng, ctx, &vocab, Style::WILD, &a),
            };
            (one.clone(), b)
        }
        6 | 7 => {
            let b = partner(rng, ctx, &vocab, Style::WILD, &a);
            let pair = format!(r#"{{"gold_dialect": "{dialect}", "pred_dialect": "sqlite"}}"#);
            (pair, b)
        }
        _ => {
            let other = DIALECTS[rng.random_range(0..DIALECTS.len())];
            let b = dialect_query(rng, ctx, &vocab, other);
            let pair = match rng.random_bool(0.5) {
                true => format!(r#"{{"gold_dialect": "{dialect}", "pred_dialect": "{other}"}}"#),
                false => format!(r#"{{"dialect": "{other}", "gold_dialect": "{dialect}"}}"#),
            };
            (pair, b)
        }
    };
    let (o1, op) = (text(&one), text(&pair));
    let mut calls = vec![
        Call::new("core:translate", vec![text(&a), text(dialect)]),
        Call::new("ast_ted", vec![text(&a), text(&b), op.clone()]),
        Call::new("ast_ted_distance", vec![text(&a), text(&b), op.clone()]),
        Call::new(
            "astpm",
            vec![text(&a), text(&b), weight(rng), weight(rng), op.clone()],
        ),
        Call::new("sql_ast", vec![text(&a), o1.clone()]),
        Call::new("sql_parse_error", vec![text(&b), o1.clone()]),
        Call::new("sql_plan", vec![text(&a), s.clone(), o1.clone()]),
        Call::new("sql_plan_error", vec![text(&b), s.clone(), o1.clone()]),
        Call::new(
            "relpm",
            vec![
                text(&a),
                text(&b),
                s.clone(),
                weight(rng),
                weight(rng),
                op.clone(),
            ],
        ),
    ];
    if rng.random_bool(0.3) {
        let model = [Arg::Null, text("hybrid"), text("funceval")][rng.random_range(0..3)].clone();
        calls.push(Call::new(
            "sql_graph",
            vec![text(&a), text(&b), s.clone(), model, op.clone()],
        ));
    }
    if rng.random_bool(0.1) {
        calls.push(Call::new("sql_ast_nodes", vec![text(&b), o1.clone()]));
    }
    if rng.random_bool(0.1) {
        calls.push(Call::identity(
            "ast_ted",
            vec![text(&a), text(&a), o1.clone()],
        ));
        calls.push(Call::identity(
            "relpm",
            vec![
                text(&a),
                text(&a),
                s.clone(),
                Arg::Null,
                Arg::Null,
                o1.clone(),
            ],
        ));
    }
    if rng.random_bool(0.02) {
        // ParSEval with the dialect beside the fuzzer's small budget
        let mut opts: serde_json::Value =
            serde_json::from_str(&ctx.parseval_options).unwrap_or_default();
        let pair_json: serde_json::Value = serde_json::from_str(&pair).unwrap_or_default();
        if let (Some(o), Some(p)) = (opts.as_object_mut(), pair_json.as_object()) {
            o.extend(p.clone());
        }
        let function = ["sql_equivalent_reason", "sql_counterexample"][rng.random_range(0..2)];
        calls.push(Call::new(
            function,
            vec![text(&a), text(&b), s.clone(), text(opts.to_string())],
        ));
    }
    if rng.random_bool(0.05) {
        // Spider's evaluator reads SQLite only: another dialect is an error naming the function
        let function = ["spider_hardness", "spider_exact_match"][rng.random_range(0..2)];
        let args = match function {
            "spider_hardness" => vec![text(&a), s.clone(), o1.clone()],
            _ => vec![text(&a), text(&b), s.clone(), op.clone()],
        };
        calls.push(Call {
            function,
            args,
            expect: Expect::Error,
        });
    }
    if rng.random_bool(0.08) {
        calls.push(malformed(rng, &a, &b, &s, dialect));
    }
    if rng.random_bool(0.03) {
        // `"dialect": "sqlite"` is the default: the same result as no options
        let q = ctx.corpus.random_query(rng).to_string();
        let sqlite = text(r#"{"dialect": "sqlite"}"#);
        calls.push(Call {
            function: "ast_ted",
            args: vec![text(&q), text(&b), sqlite.clone()],
            expect: Expect::SameWithoutOptions,
        });
        calls.push(Call {
            function: "sql_plan",
            args: vec![text(&q), s.clone(), sqlite],
            expect: Expect::SameWithoutOptions,
        });
    }
    calls
}

/// A call with options no function accepts (or that the called function cannot take).
fn malformed(rng: &mut TestRng, a: &str, b: &str, s: &Arg, dialect: &str) -> Call {
    let function = [
        "ast_ted",
        "sql_ast",
        "sql_plan",
        "relpm",
        "sql_graph",
        "sql_equivalent",
    ][rng.random_range(0..6)];
    let options = match rng.random_range(0..4) {
        0 if ONE_QUERY.contains(&function) => {
            format!(r#"{{"gold_dialect": "{dialect}"}}"#)
        }
        1 if function != "sql_equivalent" => format!(r#"{{"dialect": "{dialect}", "work": 5}}"#),
        _ => MALFORMED[rng.random_range(0..MALFORMED.len())].to_string(),
    };
    let o = text(options);
    let args = match function {
        "sql_ast" => vec![text(a), o],
        "sql_plan" => vec![text(a), s.clone(), o],
        "relpm" => vec![text(a), text(b), s.clone(), Arg::Null, Arg::Null, o],
        "sql_graph" => vec![text(a), text(b), s.clone(), Arg::Null, o],
        "sql_equivalent" => vec![text(a), text(b), s.clone(), o],
        _ => vec![text(a), text(b), o],
    };
    Call {
        function,
        args,
        expect: Expect::Error,
    }
}
