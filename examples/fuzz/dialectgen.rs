//! Other engines' SQL for the dialect entries: the constructs `src/parse/translate` rewrites
//! (casts `::`, EXTRACT, INTERVAL arithmetic, DATE_FORMAT and its kin, STRING_AGG, FILTER,
//! QUALIFY, `LIMIT o, n`, TOP, FETCH, each dialect's quoting, ILIKE, `<=>`, `||`, ...) and the
//! ones it leaves untranslated, as templates whose holes `SqlGen` fills. Every dialect draws on
//! the whole list (a construct another engine's parser rejects is a parse error to survive), its
//! own constructs more often; pathological shapes stress the translation's recursion and output
//! size (wide GREATEST, long `::` and DECODE chains, nested date functions).

use crate::sqlgen::SqlGen;
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// The dialect entries, named as the `dialect` option names them.
pub const DIALECTS: &[&str] = &[
    "postgres",
    "mysql",
    "duckdb",
    "snowflake",
    "bigquery",
    "ansi",
];

/// Expression templates every dialect draws on. Holes: `{e}` an expression, `{c}` a column,
/// `{l}` a literal, `{s}` a string, `{n}` a small integer, `{d}` a date or timestamp, `{u}` a
/// date part, `{f}` a date format, `{t}` a type, `{b}` a condition.
const COMMON: &[&str] = &[
    "CAST({e} AS {t})",
    "{e}::{t}",
    "EXTRACT({u} FROM {d})",
    "DATE_PART('{u}', {d})",
    "DATE_TRUNC('{u}', {d})",
    "{d} + INTERVAL '{n} {u}'",
    "{d} - INTERVAL '{n}' {u}",
    "{d} + INTERVAL {n} {u}",
    "GREATEST({e}, {e}, {e})",
    "LEAST({e}, {e})",
    "{e} || {e}",
    "CONCAT({e}, {e}, {s})",
    "CONCAT_WS({s}, {e}, {e})",
    "SUBSTRING({e} FROM {n} FOR {n})",
    "SUBSTRING({e}, {n}, {n})",
    "SUBSTR({e}, -{n})",
    "POSITION({s} IN {e})",
    "LEFT({e}, {n})",
    "RIGHT({e}, -{n})",
    "TRIM(BOTH {s} FROM {e})",
    "TRIM(LEADING FROM {e})",
    "LENGTH({e})",
    "CHAR_LENGTH({e})",
    "MOD({e}, {n})",
    "{e} / {e}",
    "COUNT(*) FILTER (WHERE {b})",
    "SUM({c}) FILTER (WHERE {b})",
    "STRING_AGG({c}, {s})",
    "STRING_AGG(DISTINCT {c}, {s} ORDER BY {c})",
    "LISTAGG({c}, {s}) WITHIN GROUP (ORDER BY {c})",
    "GROUP_CONCAT({c} SEPARATOR {s})",
    "GROUP_CONCAT(DISTINCT {c} ORDER BY {c} DESC SEPARATOR {s})",
    "ANY_VALUE({c})",
    "BOOL_AND({b})",
    "TRY_CAST({e} AS {t})",
    "IF({b}, {e}, {e})",
    "IFNULL({e}, {e})",
    "COALESCE({e}, {e})",
    "NULLIF({e}, {n})",
    "SPLIT_PART({e}, {s}, {n})",
    "LPAD({e}, {n}, {s})",
    "REPEAT({s}, {n})",
    "POWER({e}, 2)",
    "ROUND({e}, {n})",
    "TRUNC({e}, {n})",
    "LOG({e})",
    "LOG({n}, {e})",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "NOW()",
    "TRUE",
    "FALSE",
    "ROW_NUMBER() OVER (PARTITION BY {c} ORDER BY {c} DESC NULLS FIRST)",
    "{e} COLLATE {s}",
];

/// Each dialect's own constructs (drawn as often as all of [`COMMON`]).
fn own(dialect: &str) -> &'static [&'static str] {
    match dialect {
        "postgres" => &[
            "{e}::{t}::{t}",
            "DATE_PART({s}, {d})",
            "TO_CHAR({d}, {f})",
            "TO_DATE({s}, {f})",
            "TO_TIMESTAMP({n})",
            "AGE({d}, {d})",
            "EXTRACT(YEAR FROM AGE({d}, {d}))",
            "{d} - {d}",
            "DIV({e}, {n})",
            "STRPOS({e}, {s})",
            "BTRIM({e}, {s})",
            "INITCAP({e})",
            "MAKE_DATE({n}, {n}, {n})",
            "E'a\\nb'",
            "$$dollar$$",
            "CAST({e} AS NUMERIC({n}, {n}))",
            "{e} IS DISTINCT FROM {e}",
            "ARRAY_AGG({c})",
            "GENERATE_SERIES(1, {n})",
        ],
        "mysql" => &[
            "{e} DIV {e}",
            "{e} <=> {e}",
            "{b} XOR {b}",
            "{b} || {b}",
            "YEAR({d})",
            "MONTH({d})",
            "DAYOFWEEK({d})",
            "DATE_FORMAT({d}, {f})",
            "DATE_ADD({d}, INTERVAL {n} {u})",
            "DATE_SUB({d}, INTERVAL {n} {u})",
            "DATEDIFF({d}, {d})",
            "TIMESTAMPDIFF({u}, {d}, {d})",
            "STR_TO_DATE({s}, {f})",
            "UNIX_TIMESTAMP({d})",
            "FROM_UNIXTIME({n}, {f})",
            "LOCATE({s}, {e}, {n})",
            "INSTR({e}, {s})",
            "MID({e}, {n}, {n})",
            "SUBSTRING_INDEX({e}, {s}, {n})",
            "CAST({e} AS SIGNED)",
            "CAST({e} AS DECIMAL(10, 2))",
            "TRUNCATE({e}, {n})",
            "GROUP_CONCAT({c}, {c})",
            "CURDATE()",
            "LAST_DAY({d})",
            "\"double quoted\"",
        ],
        "duckdb" => &[
            "{e} // {e}",
            "STRFTIME({d}, {f})",
            "STRPTIME({s}, {f})",
            "DATE_DIFF('{u}', {d}, {d})",
            "DATEDIFF('{u}', {d}, {d})",
            "EPOCH({d})",
            "MAKE_DATE({n}, {n}, {n})",
            "TODAY()",
            "COUNT_IF({b})",
            "STRLEN({e})",
            "{e}::HUGEINT",
            "TRY_CAST({e} AS INTEGER)",
            "LIST_AGG({c})",
            "{e} ILIKE {s}",
        ],
        "snowflake" => &[
            "IFF({b}, {e}, {e})",
            "NVL({e}, {e})",
            "NVL2({e}, {e}, {e})",
            "DECODE({c}, {l}, {e}, NULL, {e}, {e})",
            "ZEROIFNULL({e})",
            "NULLIFZERO({e})",
            "DIV0({e}, {e})",
            "DIV0NULL({e}, {e})",
            "DATEADD({u}, {n}, {d})",
            "DATEDIFF({u}, {d}, {d})",
            "TO_VARCHAR({d}, {f})",
            "TO_DATE({s}, {f})",
            "DATE_FROM_PARTS({n}, {n}, {n})",
            "CHARINDEX({s}, {e}, {n})",
            "POSITION({s}, {e}, {n})",
            "COUNT_IF({b})",
            "BOOLAND_AGG({b})",
            "SQUARE({e})",
            "CONCAT_WS({s}, {e}, NULL)",
            "LISTAGG(DISTINCT {c}, {s})",
            "SYSDATE()",
        ],
        "bigquery" => &[
            "SAFE_CAST({e} AS {t})",
            "SAFE_DIVIDE({e}, {e})",
            "COUNTIF({b})",
            "LOGICAL_AND({b})",
            "FORMAT_DATE({f}, {d})",
            "PARSE_DATE({f}, {s})",
            "DATE_ADD({d}, INTERVAL {n} {u})",
            "DATE_DIFF({d}, {d}, {u})",
            "TIMESTAMP_DIFF({d}, {d}, {u})",
            "DATETIME_TRUNC({d}, {u})",
            "TIMESTAMP_SECONDS({n})",
            "UNIX_DATE({d})",
            "INSTR({e}, {s}, {n}, {n})",
            "BYTE_LENGTH({e})",
            "LOG({e}, {n})",
            "DIV({e}, {n})",
            "r'raw\\d'",
            "'''triple'''",
            "\"double quoted\"",
            "CAST({e} AS STRING FORMAT 'YYYY')",
        ],
        _ => &[
            "{e} IS NOT DISTINCT FROM {e}",
            "CAST({e} AS DOUBLE PRECISION)",
            "CAST({e} AS CHARACTER VARYING(20))",
            "`EXPR$0`",
            "$f9",
            "CHARACTER_LENGTH({e})",
            "CASE {c} WHEN {l} THEN {e} ELSE {e} END",
            "SUBSTRING({e} FROM -{n})",
        ],
    }
}

/// Condition templates (holes as in [`COMMON`]).
const CONDITIONS: &[&str] = &[
    "{e} ILIKE {s}",
    "{e} NOT ILIKE '%A_'",
    "{c} LIKE 'Ab%'",
    "{c} LIKE 'a\\_%'",
    "{c} LIKE {e}",
    "{c} LIKE '%x!%' ESCAPE '!'",
    "{c} = 'France'",
    "{c} <> 'Text'",
    "{c} IN ('A', 'b')",
    "{c} BETWEEN 'A' AND 'm'",
    "{e} <=> {e}",
    "{b} XOR {b}",
    "{e} IS DISTINCT FROM {e}",
    "{e} SIMILAR TO {s}",
    "{e} ~ {s}",
    "{e} RLIKE {s}",
    "{c} = ANY (ARRAY[1, 2])",
    "{e} IS TRUE",
    "{b} || {b}",
    "EXTRACT({u} FROM {d}) = {n}",
    "{d} > CURRENT_DATE - INTERVAL '{n} days'",
    "YEAR({d}) = 2020",
    "INSTR({c}, {s}) > 0",
];

/// Date parts, with dialect spellings and a few no engine knows.
const UNITS: &[&str] = &[
    "YEAR",
    "MONTH",
    "DAY",
    "HOUR",
    "MINUTE",
    "SECOND",
    "WEEK",
    "QUARTER",
    "DOW",
    "DOY",
    "EPOCH",
    "ISODOW",
    "ISOYEAR",
    "MILLENNIUM",
    "DECADE",
    "MICROSECOND",
    "DAYOFWEEK",
    "yrs",
    "FORTNIGHT",
];

/// Date format strings of every family (MySQL `%`, PostgreSQL/Snowflake words, odd ones).
const FORMATS: &[&str] = &[
    "'%Y-%m-%d'",
    "'%W %M %e'",
    "'%Y%m'",
    "'%H:%i:%s'",
    "'%a %b %j %U'",
    "'YYYY-MM-DD'",
    "'HH24:MI:SS'",
    "'Mon DD, YYYY'",
    "'DDD IYYY WW'",
    "'YYYY\"Q\"Q'",
    "'%%'",
    "''",
    "'%'",
    "'%Q %q'",
    "'ünï'",
];

/// Types of every dialect, and a few SQLite has no counterpart for.
const TYPES: &[&str] = &[
    "INT",
    "INTEGER",
    "BIGINT",
    "INT64",
    "SIGNED",
    "FLOAT",
    "DOUBLE",
    "REAL",
    "FLOAT64",
    "NUMERIC",
    "DECIMAL(10, 2)",
    "NUMERIC(5)",
    "NUMERIC(38, 40)",
    "VARCHAR",
    "VARCHAR(20)",
    "CHAR(3)",
    "TEXT",
    "STRING",
    "DATE",
    "TIMESTAMP",
    "DATETIME",
    "TIME",
    "TIMESTAMPTZ",
    "BOOLEAN",
    "JSON",
    "INT[]",
];

/// Date and timestamp values.
const DATES: &[&str] = &[
    "DATE '2020-01-31'",
    "'2020-02-29'",
    "TIMESTAMP '2020-01-31 23:59:59'",
    "CAST('2021-12-31' AS DATE)",
    "'2020-01-31'::DATE",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "'not a date'",
    "NULL",
];

fn pick<'s>(g: &mut SqlGen, items: &'s [&'s str]) -> &'s str {
    items[g.below(items.len())]
}

/// `template` with each hole filled in turn.
fn fill(g: &mut SqlGen, template: &str) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let hole = rest.get(start..start + 3).unwrap_or("");
        let piece = match hole {
            "{e}" => g.expr(),
            "{c}" => g.column(),
            "{l}" => g.literal(),
            "{s}" => pick(g, &["'a'", "'A'", "', '", "''", "'%a_'", "'x\\y'", "'ü'"]).into(),
            "{n}" => (g.below(14) as i64 - 3).to_string(),
            "{d}" if g.chance(0.4) => g.column(),
            "{d}" => pick(g, DATES).into(),
            "{u}" => pick(g, UNITS).into(),
            "{f}" => pick(g, FORMATS).into(),
            "{t}" => pick(g, TYPES).into(),
            "{b}" => g.condition(),
            _ => {
                out.push('{');
                rest = &rest[start + 1..];
                continue;
            }
        };
        out.push_str(&piece);
        rest = &rest[start + 3..];
    }
    out.push_str(rest);
    out
}

/// An expression in `dialect`'s spelling.
pub fn expr(g: &mut SqlGen, dialect: &str) -> String {
    let template = if g.chance(0.5) {
        pick(g, own(dialect))
    } else {
        pick(g, COMMON)
    };
    fill(g, template)
}

/// A condition in `dialect`'s spelling.
pub fn condition(g: &mut SqlGen) -> String {
    let template = pick(g, CONDITIONS);
    fill(g, template)
}

/// A row limit in one of the dialects' spellings (after ORDER BY).
pub fn limit(g: &mut SqlGen) -> String {
    let (a, b) = (g.below(20), g.below(20));
    match g.below(8) {
        0 => format!(" LIMIT {a}, {b}"),
        1 => format!(" OFFSET {a} ROWS FETCH FIRST {b} ROWS ONLY"),
        2 => format!(" FETCH NEXT {b} ROWS ONLY"),
        3 => format!(" OFFSET {a} ROWS"),
        4 => format!(" FETCH FIRST {b} ROWS WITH TIES"),
        5 => format!(" FETCH FIRST {b} PERCENT ROWS ONLY"),
        6 => format!(" LIMIT ALL OFFSET {a}"),
        _ => format!(" LIMIT {b} OFFSET {a}"),
    }
}

/// What may follow SELECT [DISTINCT]: Snowflake's TOP.
pub fn select_modifier(g: &mut SqlGen) -> String {
    match g.below(3) {
        0 => format!(" TOP {}", g.below(20)),
        1 => format!(" TOP {} PERCENT", g.below(20)),
        _ => format!(" TOP ({})", g.below(20)),
    }
}

/// A QUALIFY clause (Snowflake, BigQuery, DuckDB).
pub fn qualify(g: &mut SqlGen) -> String {
    let (p, o) = (g.column(), g.column());
    let f = pick(g, &["ROW_NUMBER()", "RANK()", "COUNT(*)", "SUM(1)"]);
    format!(" QUALIFY {f} OVER (PARTITION BY {p} ORDER BY {o}) = 1")
}

/// `name` quoted as one of the dialects quotes names (or strings), sometimes qualified.
pub fn quote(g: &mut SqlGen, name: &str) -> String {
    match g.below(7) {
        0 => format!("\"{name}\""),
        1 => format!("`{name}`"),
        2 => format!("[{name}]"),
        3 => format!("public.{name}"),
        4 => format!("`proj.dataset.{name}`"),
        5 => format!("db.schema.\"{name}\""),
        _ => format!("\"{}\"", name.to_uppercase()),
    }
}

/// A set operation with DISTINCT or ALL spelled out.
pub fn set_operation(g: &mut SqlGen) -> &'static str {
    [
        "UNION DISTINCT",
        "EXCEPT DISTINCT",
        "INTERSECT DISTINCT",
        "EXCEPT ALL",
    ][g.below(4)]
}

/// A query in a shape that stresses the translation: wide calls whose translation grows with
/// the square of their arity, long cast chains, deep nesting of the constructs rules rewrite.
pub fn pathological(rng: &mut TestRng) -> String {
    let n = match rng.random_range(0..3) {
        0 => rng.random_range(2..60),
        1 => rng.random_range(60..400),
        _ => rng.random_range(400..5000),
    };
    let list = |piece: &str| vec![piece; n].join(", ");
    let nest = |open: &str, close: &str| format!("{}a{}", open.repeat(n), close.repeat(n));
    match rng.random_range(0..12) {
        0 => format!("SELECT GREATEST({}) FROM t", list("a")),
        1 => format!("SELECT LEAST({}) FROM t", list("NULL")),
        2 => format!("SELECT a{} FROM t", "::INT".repeat(n)),
        3 => format!("SELECT DECODE(a, {}, 0) FROM t", list("1, 2")),
        4 => format!("SELECT CONCAT({}) FROM t", list("a")),
        5 => format!("SELECT {} FROM t", nest("IFNULL(", ", 1)")),
        6 => format!("SELECT {} FROM t", nest("GREATEST(a, ", ")")),
        7 => format!(
            "SELECT {} FROM t",
            nest("EXTRACT(YEAR FROM DATE_TRUNC('month', ", "))")
        ),
        8 => format!(
            "SELECT a FROM t WHERE {}",
            vec!["a ILIKE 'x'"; n].join(" OR ")
        ),
        9 => format!("SELECT a FROM t WHERE {}", vec!["a <=> 1"; n].join(" XOR ")),
        10 => format!("SELECT {} FROM t", nest("SUBSTRING(", " FROM 1 FOR 2)")),
        _ => format!(
            "SELECT a FROM t WHERE d > {}",
            vec!["INTERVAL '1 day'"; n].join(" + ")
        ),
    }
}
