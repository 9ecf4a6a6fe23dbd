//! SQLite's math functions (`sqrt`, `pow`, `ln`, `floor`, ...): built into SQLite with
//! `SQLITE_ENABLE_MATH_FUNCTIONS`, which the Python sqlite3 of current distributions has and the
//! engine (libsqlite3-sys's bundled SQLite, compiled without it) lacks. Same results as SQLite's
//! `func.c`: NULL for NULL or non-numeric input and for results that are not a number;
//! `ceil`/`floor`/`trunc` keep an INTEGER argument as it is.

use std::f64::consts::PI;

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;

/// An argument as SQLite's `sqlite3_value_numeric_type` sees it.
enum Num {
    Int(i64),
    Real(f64),
}

impl Num {
    fn f(&self) -> f64 {
        match self {
            Num::Int(i) => *i as f64,
            Num::Real(r) => *r,
        }
    }
}

/// The numeric value of an argument; TEXT that is a whole number literal (spaces around allowed)
/// counts, other TEXT, BLOB and NULL do not.
fn numeric(v: ValueRef<'_>) -> Option<Num> {
    match v {
        ValueRef::Integer(i) => Some(Num::Int(i)),
        ValueRef::Real(r) => Some(Num::Real(r)),
        ValueRef::Text(t) => {
            let s = std::str::from_utf8(t)
                .ok()?
                .trim_matches([' ', '\t', '\n', '\r', '\x0c']);
            let body = s.strip_prefix(['+', '-']).unwrap_or(s);
            if body.is_empty()
                || !body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
                || !body
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            {
                return None;
            }
            if let Ok(i) = s.parse::<i64>() {
                return Some(Num::Int(i));
            }
            s.parse::<f64>().ok().map(Num::Real)
        }
        ValueRef::Null | ValueRef::Blob(_) => None,
    }
}

/// A REAL result; NaN is NULL, as `sqlite3_result_double` stores it.
fn real(x: f64) -> Value {
    if x.is_nan() {
        Value::Null
    } else {
        Value::Real(x)
    }
}

fn arg(ctx: &Context<'_>, i: usize) -> Option<Num> {
    numeric(ctx.get_raw(i))
}

type Unary = fn(f64) -> f64;
type Binary = fn(f64, f64) -> f64;

/// Registers the math functions of SQLite 3.35+ on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    let one: [(&str, Unary); 18] = [
        ("sqrt", f64::sqrt),
        ("exp", f64::exp),
        ("sin", f64::sin),
        ("cos", f64::cos),
        ("tan", f64::tan),
        ("asin", f64::asin),
        ("acos", f64::acos),
        ("atan", f64::atan),
        ("sinh", f64::sinh),
        ("cosh", f64::cosh),
        ("tanh", f64::tanh),
        ("asinh", f64::asinh),
        ("acosh", f64::acosh),
        ("atanh", f64::atanh),
        ("radians", f64::to_radians),
        ("degrees", f64::to_degrees),
        ("log10", f64::log10),
        ("log2", f64::log2),
    ];
    for (name, f) in one {
        let positive_only = name.starts_with("log");
        conn.create_scalar_function(name, 1, flags, move |ctx| {
            Ok(match arg(ctx, 0) {
                Some(x) if positive_only && x.f() <= 0.0 => Value::Null,
                Some(x) => real(f(x.f())),
                None => Value::Null,
            })
        })?;
    }
    // ln(X); log(X) is the base-10 logarithm; log(B, X) the base-B one
    conn.create_scalar_function("ln", 1, flags, |ctx| {
        Ok(arg(ctx, 0).map_or(Value::Null, |x| log_of(x.f(), f64::ln)))
    })?;
    conn.create_scalar_function("log", 1, flags, |ctx| {
        Ok(arg(ctx, 0).map_or(Value::Null, |x| log_of(x.f(), f64::log10)))
    })?;
    conn.create_scalar_function("log", 2, flags, |ctx| {
        Ok(match (arg(ctx, 0), arg(ctx, 1)) {
            (Some(b), Some(x)) if b.f() > 0.0 && b.f().ln() > 0.0 && x.f() > 0.0 => {
                real(x.f().ln() / b.f().ln())
            }
            _ => Value::Null,
        })
    })?;
    let two: [(&str, Binary); 4] = [
        ("pow", f64::powf),
        ("power", f64::powf),
        ("mod", |a, b| a % b),
        ("atan2", f64::atan2),
    ];
    for (name, f) in two {
        conn.create_scalar_function(name, 2, flags, move |ctx| {
            Ok(match (arg(ctx, 0), arg(ctx, 1)) {
                (Some(a), Some(b)) => real(f(a.f(), b.f())),
                _ => Value::Null,
            })
        })?;
    }
    let rounding: [(&str, Unary); 4] = [
        ("ceil", f64::ceil),
        ("ceiling", f64::ceil),
        ("floor", f64::floor),
        ("trunc", f64::trunc),
    ];
    for (name, f) in rounding {
        conn.create_scalar_function(name, 1, flags, move |ctx| {
            Ok(match arg(ctx, 0) {
                Some(Num::Int(i)) => Value::Integer(i),
                Some(Num::Real(r)) => real(f(r)),
                None => Value::Null,
            })
        })?;
    }
    conn.create_scalar_function("pi", 0, flags, |_| Ok(Value::Real(PI)))
}

fn log_of(x: f64, f: Unary) -> Value {
    if x <= 0.0 {
        Value::Null
    } else {
        real(f(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(sql: &str) -> Value {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.query_row(sql, [], |row| row.get(0)).unwrap()
    }

    #[test]
    fn as_sqlite_math_functions() {
        assert_eq!(eval("SELECT sqrt(4)"), Value::Real(2.0));
        assert_eq!(eval("SELECT sqrt(-1)"), Value::Null);
        assert_eq!(eval("SELECT sqrt('9')"), Value::Real(3.0));
        assert_eq!(eval("SELECT sqrt('x')"), Value::Null);
        assert_eq!(eval("SELECT power(2, 3)"), Value::Real(8.0));
        assert_eq!(eval("SELECT floor(2.5)"), Value::Real(2.0));
        assert_eq!(eval("SELECT floor(7)"), Value::Integer(7));
        assert_eq!(eval("SELECT ceil(-2.5)"), Value::Real(-2.0));
        assert_eq!(eval("SELECT trunc(-2.5)"), Value::Real(-2.0));
        assert_eq!(eval("SELECT log(100)"), Value::Real(2.0));
        assert_eq!(eval("SELECT log(2, 8)"), Value::Real(3.0));
        assert_eq!(eval("SELECT ln(0)"), Value::Null);
        assert_eq!(eval("SELECT mod(7, 0)"), Value::Null);
        assert_eq!(eval("SELECT mod(7.5, 2)"), Value::Real(1.5));
        assert_eq!(eval("SELECT degrees(pi())"), Value::Real(180.0));
        assert_eq!(eval("SELECT exp(NULL)"), Value::Null);
    }
}
