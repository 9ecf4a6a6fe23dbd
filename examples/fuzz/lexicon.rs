//! Names, operators and literals of every kind, and pathological query shapes: nesting just under and far over the
//! parser's recursion limit, and the deep trees a parser builds without recursing (long operator
//! chains, set-operation and join chains) or very wide ones (huge IN lists, thousands of items).

use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// Words in other scripts and invisible characters, for identifiers and strings.
pub const UNICODE_WORDS: &[&str] = &[
    "ünïcödé",
    "表格",
    "名前",
    "κόσμος",
    "emoji😀",
    "zero\u{200b}width",
    "ﬁ",
];

/// Scalar functions, aggregates, types and operators the grammar draws on.
pub const FUNCTIONS: &[&str] = &[
    "abs",
    "lower",
    "upper",
    "length",
    "substr",
    "coalesce",
    "ifnull",
    "round",
    "trim",
    "replace",
    "instr",
    "nullif",
    "strftime",
    "date",
    "julianday",
    "typeof",
    "max",
    "min",
];
pub const AGGREGATES: &[&str] = &["count", "sum", "avg", "min", "max", "total", "group_concat"];
pub const TYPES: &[&str] = &[
    "INTEGER",
    "TEXT",
    "REAL",
    "NUMERIC",
    "VARCHAR(20)",
    "BLOB",
    "DATE",
];
pub const COMPARISONS: &[&str] = &["=", "<>", "!=", "<", "<=", ">", ">=", "==", "IS", "IS NOT"];
pub const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%", "||"];

fn pick<'s>(rng: &mut TestRng, items: &'s [&'s str]) -> &'s str {
    items[rng.random_range(0..items.len())]
}

/// A literal; `wild` admits the odd ones (extreme numbers, blobs, parameters, NUL, long text).
pub fn literal(rng: &mut TestRng, wild: bool) -> String {
    match rng.random_range(0..if wild { 24 } else { 8 }) {
        0..=2 => rng.random_range(-5i64..100).to_string(),
        3 => format!("{}.{}", rng.random_range(0..1000), rng.random_range(0..100)),
        4 => format!(
            "'{}'",
            pick(rng, &["a", "France", "x y", "2014", "", "O''Brien"])
        ),
        5 => format!("\"{}\"", pick(rng, &["a", "France", "2014", "dq"])),
        6 => "NULL".into(),
        7 => pick(rng, &["TRUE", "FALSE"]).into(),
        8 => "9223372036854775807".into(),
        9 => "-9223372036854775808".into(),
        10 => "99999999999999999999999999999".into(),
        11 => pick(
            rng,
            &["1e308", "1e-400", "1E+10", ".5", "5.", "0.0", "-0.0"],
        )
        .into(),
        12 => pick(rng, &["0x1F", "0xFFFFFFFFFFFFFFFFFF", "X'0a0B'", "x''"]).into(),
        13 => format!("'{}'", pick(rng, UNICODE_WORDS)),
        14 => format!("'{}'", "z".repeat(1 + rng.random_range(0..2000))),
        15 => pick(rng, &["CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_TIME"]).into(),
        16 => "'it''s'".into(),
        17 => "'back\\slash'".into(),
        18 => "?".into(),
        19 => format!(":p{}", rng.random_range(0..3)),
        20 => "'\u{0}nul'".into(),
        21 => "'line\nbreak'".into(),
        22 => "1_000".into(),
        _ => rng.random::<i64>().to_string(),
    }
}

/// A nesting depth: mostly around the parser's limit (48), sometimes far beyond it.
fn nesting_depth(rng: &mut TestRng) -> usize {
    match rng.random_range(0..4) {
        0 => rng.random_range(1..40),
        1 | 2 => rng.random_range(40..60),
        _ => rng.random_range(60..3000),
    }
}

/// A length for chains and lists: up to tens of thousands of elements.
fn chain_length(rng: &mut TestRng) -> usize {
    match rng.random_range(0..3) {
        0 => rng.random_range(10..300),
        1 => rng.random_range(300..3000),
        _ => rng.random_range(3000..30_000),
    }
}

/// `sql`, or a query around it, in a pathological shape: the inputs that overflow an unbounded
/// recursion or blow up a quadratic pass.
pub fn pathological(rng: &mut TestRng, sql: &str) -> String {
    if rng.random_bool(0.5) {
        nested(rng, sql)
    } else {
        chained(rng)
    }
}

/// One kind of nesting, `nesting_depth` levels deep.
fn nested(rng: &mut TestRng, sql: &str) -> String {
    let depth = nesting_depth(rng);
    match rng.random_range(0..8) {
        0 => format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth)),
        1 => format!("SELECT a FROM t WHERE {}a = 1", "NOT ".repeat(depth)),
        2 => format!(
            "{}{sql}{}",
            "SELECT * FROM (".repeat(depth),
            ") AS x".repeat(depth)
        ),
        3 => format!(
            "SELECT a FROM t WHERE a IN {}SELECT 1{}",
            "(SELECT a FROM t WHERE a IN ".repeat(depth),
            ")".repeat(depth + 1)
        ),
        4 => format!(
            "SELECT {}1{}",
            "CASE WHEN a THEN ".repeat(depth),
            " END".repeat(depth)
        ),
        5 => format!("SELECT {}1", "-".repeat(depth)),
        6 => format!(
            "SELECT a FROM t WHERE EXISTS {}SELECT 1{}",
            "(SELECT a FROM t WHERE t.a = a AND EXISTS ".repeat(depth),
            ")".repeat(depth + 1)
        ),
        _ => format!("SELECT {}1{}", "abs(".repeat(depth), ")".repeat(depth)),
    }
}

/// Long flat syntax that parses into a deep (left-deep) or very wide tree.
fn chained(rng: &mut TestRng) -> String {
    let n = chain_length(rng);
    let repeat = |piece: &str, sep: &str| vec![piece; n].join(sep);
    match rng.random_range(0..10) {
        0 => format!("SELECT {}", repeat("1", " + ")),
        1 => format!("SELECT a FROM t WHERE {}", repeat("a = 1", " AND ")),
        2 => format!("SELECT a FROM t WHERE {}", repeat("a = 1", " OR ")),
        3 => format!("SELECT {} FROM t", repeat("a", " || ")),
        4 => repeat("SELECT a FROM t", " UNION "),
        5 => format!("SELECT * FROM t{}", " JOIN t ON 1".repeat(n.min(3000))),
        6 => format!("SELECT a FROM t WHERE a IN ({})", repeat("1", ", ")),
        7 => format!("SELECT {} FROM t", repeat("a", ", ")),
        8 => format!(
            "SELECT CASE {} END FROM t",
            repeat("WHEN a = 1 THEN 2", " ")
        ),
        _ => format!(
            "SELECT a FROM t ORDER BY {}",
            (0..n)
                .map(|i| format!("c{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
