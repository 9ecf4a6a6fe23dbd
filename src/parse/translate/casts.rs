//! Rule `casts`: every dialect's casts as SQLite casts or functions with the same result.
//!
//! ```sql
//! -- before (postgres)
//! SELECT x::FLOAT, CAST(d AS DATE), CAST(p AS NUMERIC(10, 2)), CAST(n AS BIGINT) FROM t
//! -- after
//! SELECT CAST(x AS REAL), date(d), ROUND(CAST(p AS REAL), 2),
//!   CAST(IIF(typeof(CAST(n AS NUMERIC)) = 'real', ROUND(n), n) AS INTEGER) FROM t
//! -- before (mysql)
//! SELECT CAST(n AS SIGNED) FROM t
//! -- after
//! SELECT CAST(IIF(typeof(n) = 'real', ROUND(n), n) AS INTEGER) FROM t
//! ```
//!
//! An integer literal or a truth value (`CAST(x = 2 AS INT)`) casts as it is. A floating-point tie rounds away from zero, as decimals
//! do; PostgreSQL and DuckDB round a `DOUBLE` tie to even (`CAST(2.5::FLOAT8 AS INT)` is 2),
//! which SQLite's one kind of real cannot tell apart from a decimal.
//!
//! Target types map onto SQLite's by family: integers (`INT`, `BIGINT`, `INT64`, MySQL's
//! `SIGNED`) to `INTEGER`, rounding a fraction to the nearest integer (halves away from zero)
//! where the engine rounds: PostgreSQL, MySQL, DuckDB, Snowflake and BigQuery round a number
//! (`CAST(2.7 AS INT)` is 3), where SQLite and Calcite's standard SQL cut its fraction off; a
//! text rounds as the number it reads as, except in MySQL, which reads its integer prefix as
//! SQLite does (`CAST('2.7' AS SIGNED)` is 2); floating-point types to `REAL`; a `NUMERIC(p, s)` rounds to `s`
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

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, ExactNumberInfo, Expr, Statement, Value, VisitMut,
    VisitorMut,
};

use super::calls::{binary, int_literal, text};
use super::copies::copy;
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

/// Whether `e` is an integer whatever its operands: an integer literal or a truth value.
fn integral(e: &Expr) -> bool {
    use BinaryOperator as B;
    match e {
        Expr::Nested(inner) => integral(inner),
        Expr::BinaryOp { op, .. } => matches!(
            op,
            B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::And | B::Or
        ),
        Expr::IsNull(_) | Expr::IsNotNull(_) => true,
        _ => int_literal(e).is_some(),
    }
}

/// A cast of `expr` to an integer in `dialect`: SQLite's, which cuts a fraction off, where
/// the dialect does too (standard SQL as Calcite prints it) or `expr` is [`integral`];
/// otherwise the nearest integer to a real value (a text that reads as a real one, outside
/// MySQL), and SQLite's cast of any other value, exact for integers of any size.
fn integer(expr: Expr, dialect: Dialect) -> Expr {
    let cast_int = |e: Expr| cast(e, DataType::Integer(None));
    if dialect == Dialect::Ansi || integral(&expr) {
        return cast_int(expr);
    }
    let read = match dialect {
        Dialect::Mysql => copy(&expr),
        _ => cast(copy(&expr), DataType::Numeric(ExactNumberInfo::None)),
    };
    let real = binary(call("typeof", vec![read]), BinaryOperator::Eq, text("real"));
    let rounded = call("ROUND", vec![copy(&expr)]);
    cast_int(call("IIF", vec![real, rounded, expr]))
}

/// The SQLite expression for a cast of `expr` to `data_type`, of the given kind.
fn translate(kind: &CastKind, expr: Expr, data_type: &DataType, dialect: Dialect) -> Expr {
    let lenient = matches!(kind, CastKind::TryCast | CastKind::SafeCast);
    match target(data_type, dialect) {
        Target::Text => cast(expr, DataType::Text),
        _ if lenient => untranslated(&format!("TRY_CAST to {data_type}"), dialect, vec![expr]),
        Target::Integer => integer(expr, dialect),
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
