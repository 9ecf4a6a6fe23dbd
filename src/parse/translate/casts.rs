//! Rule `casts`: every dialect's casts as SQLite casts or functions with the same result.
//!
//! ```sql
//! -- before (postgres)
//! SELECT x::FLOAT, CAST(d AS DATE), CAST(p AS NUMERIC(10, 2)), CAST(n AS BIGINT) FROM t
//! -- after
//! SELECT CAST(x AS REAL), date(d), ROUND(CAST(p AS REAL), 2), CAST(n AS INTEGER) FROM t
//! ```
//!
//! Target types map onto SQLite's by family: integers (`INT`, `BIGINT`, `INT64`, MySQL's
//! `SIGNED`) to `INTEGER`; floating-point types to `REAL`; a `NUMERIC(p, s)` rounds to `s`
//! places, as every engine does (`NUMERIC(p)` to 0), and an unscaled `NUMERIC`/`DECIMAL` to the
//! dialect's default scale: none in PostgreSQL and standard SQL (`REAL`: SQLite's own NUMERIC
//! would turn `2.0` into the integer 2), 0 in MySQL (`DECIMAL(10, 0)`) and Snowflake
//! (`NUMBER(38, 0)`), 3 in DuckDB (`DECIMAL(18, 3)`), 9 for BigQuery's `NUMERIC` and 38 for its
//! `BIGNUMERIC`; character types to `TEXT`; `DATE`, `TIMESTAMP`/`DATETIME` and
//! `TIME` to SQLite's `date()`, `datetime()` and `time()`, which read the same ISO text. The `::`
//! spelling is `CAST`. `TRY_CAST`/`SAFE_CAST` give NULL where a cast would fail: to text they
//! never fail, so they are casts; to any other type, and a cast to a type outside these families
//! (BOOLEAN, JSON, arrays), or with a FORMAT, have no faithful translation.

use std::ops::ControlFlow;

use sqlparser::ast::{CastKind, DataType, Expr, Statement, Value, VisitMut, VisitorMut};

use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Casts;

/// What a target type means in SQLite.
enum Target {
    Integer,
    Real,
    /// A decimal rounded to this many places.
    Rounded(u64),
    Text,
    /// A date or time, produced by this SQLite function.
    Temporal(&'static str),
    Unknown,
}

/// The scale of an unscaled decimal type `name` in `dialect` (None: unlimited).
fn default_scale(name: &str, dialect: Dialect) -> Option<u64> {
    match dialect {
        Dialect::Mysql | Dialect::Snowflake => Some(0),
        Dialect::Duckdb => Some(3),
        Dialect::Bigquery if name.starts_with("BIG") => Some(38),
        Dialect::Bigquery => Some(9),
        _ => None,
    }
}

/// The family of `data_type` in `dialect`, read from its printed name.
fn target(data_type: &DataType, dialect: Dialect) -> Target {
    let printed = data_type.to_string().to_ascii_uppercase();
    let (name, params) = match printed.split_once('(') {
        Some((n, p)) => (
            n.trim().to_string(),
            Some(p.trim_end_matches(')').to_string()),
        ),
        None => (printed.trim().to_string(), None),
    };
    let first = name.split_whitespace().next().unwrap_or("");
    let scale = || match params.as_deref() {
        Some(p) => match p.split_once(',') {
            Some((_, s)) => s.trim().parse::<u64>().ok(),
            None => Some(0),
        },
        None => default_scale(first, dialect),
    };
    match first {
        "INT" | "INTEGER" | "BIGINT" | "SMALLINT" | "TINYINT" | "MEDIUMINT" | "INT2" | "INT4"
        | "INT8" | "INT16" | "INT32" | "INT64" | "INT128" | "HUGEINT" | "SIGNED" | "UNSIGNED"
        | "BYTEINT" => Target::Integer,
        "FLOAT" | "FLOAT4" | "FLOAT8" | "FLOAT32" | "FLOAT64" | "DOUBLE" | "REAL" => Target::Real,
        "NUMERIC" | "DECIMAL" | "DEC" | "NUMBER" | "BIGNUMERIC" | "BIGDECIMAL" => match scale() {
            Some(s) => Target::Rounded(s),
            None => Target::Real,
        },
        "TEXT" | "VARCHAR" | "CHAR" | "CHARACTER" | "NVARCHAR" | "NCHAR" | "STRING" | "CLOB"
        | "TINYTEXT" | "MEDIUMTEXT" | "LONGTEXT" => Target::Text,
        "DATE" => Target::Temporal("date"),
        "TIMESTAMP" | "DATETIME" | "TIMESTAMP_NTZ" | "TIMESTAMPTZ" => Target::Temporal("datetime"),
        "TIME" => Target::Temporal("time"),
        _ => Target::Unknown,
    }
}

fn cast(expr: Expr, data_type: DataType) -> Expr {
    Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(expr),
        data_type,
        format: None,
    }
}

/// The SQLite expression for a cast of `expr` to `data_type`, of the given kind.
fn translate(kind: &CastKind, expr: Expr, data_type: &DataType, dialect: Dialect) -> Expr {
    let lenient = matches!(kind, CastKind::TryCast | CastKind::SafeCast);
    match target(data_type, dialect) {
        Target::Text => cast(expr, DataType::Text),
        _ if lenient => untranslated(&format!("TRY_CAST to {data_type}"), dialect, vec![expr]),
        Target::Integer => cast(expr, DataType::Integer(None)),
        Target::Real => cast(expr, DataType::Real),
        Target::Rounded(places) => call(
            "ROUND",
            vec![
                cast(expr, DataType::Real),
                Expr::value(Value::Number(places.to_string(), false)),
            ],
        ),
        Target::Temporal(function) => call(function, vec![expr]),
        Target::Unknown => untranslated(&format!("CAST to {data_type}"), dialect, vec![expr]),
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        if let Expr::Cast {
            kind,
            expr,
            data_type,
            format,
        } = e
        {
            let inner = std::mem::replace(expr.as_mut(), Expr::value(Value::Null));
            *e = match format {
                Some(_) => untranslated("CAST with FORMAT", self.0, vec![inner]),
                None => translate(kind, inner, data_type, self.0),
            };
        }
        ControlFlow::Continue(())
    }
}

impl Rule for Casts {
    fn name(&self) -> &'static str {
        "casts"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
