//! Rule `date_values`: the current date and time, typed date and time literals, and the
//! functions between dates and numbers of seconds or days, as SQLite spells them.
//!
//! ```sql
//! -- before (postgres)
//! SELECT NOW(), CURRENT_DATE, DATE '2020-01-01', TIMESTAMP '2020-01-01 10:00:00', TO_TIMESTAMP(n) FROM t
//! -- after
//! SELECT CURRENT_TIMESTAMP, CURRENT_DATE, date('2020-01-01'), datetime('2020-01-01 10:00:00'), datetime(n, 'unixepoch') FROM t
//! -- before (mysql)
//! SELECT CURDATE(), UNIX_TIMESTAMP(d), FROM_UNIXTIME(n), TO_DAYS(d) FROM t
//! -- after
//! SELECT CURRENT_DATE, CAST(strftime('%s', d) AS INTEGER), datetime(n, 'unixepoch'),
//!        CAST(julianday(date(d)) - julianday('0000-01-01') AS INTEGER) FROM t
//! ```
//!
//! Every engine's "now" (`NOW()`, `CURDATE()`, `TODAY()`, `SYSDATE()`, `GETDATE()`,
//! `LOCALTIMESTAMP`, `CURRENT_DATETIME()`, ...) is SQLite's `CURRENT_DATE`, `CURRENT_TIME` or
//! `CURRENT_TIMESTAMP`, read in UTC (as sqlglot spells PostgreSQL's `NOW()`). A typed literal is
//! the SQLite function that reads the same text (sqlglot's `DATE('2020-01-01')`). Seconds since
//! 1970 are `strftime('%s', ..)` one way and the `'unixepoch'` modifier the other (MySQL's
//! `UNIX_TIMESTAMP`/`FROM_UNIXTIME`, PostgreSQL's and DuckDB's one-argument `TO_TIMESTAMP`,
//! BigQuery's `UNIX_SECONDS`/`TIMESTAMP_SECONDS`/`UNIX_DATE`/`DATE_FROM_UNIX_DATE`, DuckDB's
//! `EPOCH`, with its fraction of a second); MySQL's `TO_DAYS`/`FROM_DAYS` count days from the
//! year 0 (sqlglot adds one day too many). `EPOCH_MS` and `UNIX_MILLIS`, whose argument is
//! either a number or a timestamp, and `TIME_TO_SEC`/`SEC_TO_TIME`, whose MySQL times go past
//! 24 hours, have no faithful translation.

use std::ops::ControlFlow;

use sqlparser::ast::{
    DataType, Expr, Function, FunctionArguments, Statement, TimezoneInfo, VisitMut, VisitorMut,
};

use super::date_format::mysql_format;
use super::temporal::{
    epoch_seconds, epoch_with_fraction, function_name, integer, minus, number, plain_args, plus,
    string, string_value, takes_no_args, times,
};
use super::{call, untranslated, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct DateValues;

/// A bare SQLite keyword value (`CURRENT_DATE`), printed without parentheses.
fn keyword(name: &str) -> Expr {
    Expr::Function(Function {
        name: sqlparser::ast::ObjectName(vec![sqlparser::ast::ObjectNamePart::Identifier(
            sqlparser::ast::Ident::new(name),
        )]),
        uses_odbc_syntax: false,
        parameters: FunctionArguments::None,
        args: FunctionArguments::None,
        filter: None,
        null_treatment: None,
        over: None,
        within_group: vec![],
    })
}

/// The SQLite value of a "now" function of `dialect`, if `name` is one.
fn now(name: &str, dialect: Dialect) -> Option<&'static str> {
    Some(match name {
        "CURRENT_DATE" | "CURDATE" | "UTC_DATE" => "CURRENT_DATE",
        "TODAY" if dialect == Dialect::Duckdb => "CURRENT_DATE",
        "CURRENT_TIME" | "CURTIME" | "LOCALTIME" | "UTC_TIME" => "CURRENT_TIME",
        "NOW"
        | "CURRENT_TIMESTAMP"
        | "LOCALTIMESTAMP"
        | "UTC_TIMESTAMP"
        | "SYSDATE"
        | "GETDATE"
        | "SYSTIMESTAMP"
        | "CURRENT_DATETIME"
        | "GET_CURRENT_TIMESTAMP"
        | "TRANSACTION_TIMESTAMP"
        | "STATEMENT_TIMESTAMP"
        | "CLOCK_TIMESTAMP" => "CURRENT_TIMESTAMP",
        _ => return None,
    })
}

/// The SQLite function reading a typed literal's text, if its type is a date or a time.
fn literal_function(data_type: &DataType) -> Option<&'static str> {
    match data_type {
        DataType::Date => Some("date"),
        DataType::Datetime(_) | DataType::TimestampNtz(_) => Some("datetime"),
        DataType::Timestamp(..) => Some("datetime"),
        DataType::Time(_, TimezoneInfo::None | TimezoneInfo::WithoutTimeZone) => Some("time"),
        _ => None,
    }
}

/// `'0000-01-01'` as a Julian day: MySQL's day 0.
fn day_zero() -> Expr {
    call("julianday", vec![string("0000-01-01")])
}

/// The translation of a call `name(args)` of `dialect`, None to leave it alone.
fn translate_call(name: &str, args: Vec<Expr>, dialect: Dialect) -> Option<Expr> {
    use Dialect::*;
    let one = |args: &Vec<Expr>| (args.len() == 1).then(|| args[0].clone());
    Some(match (name, dialect) {
        ("UNIX_TIMESTAMP", Mysql) => match args.len() {
            0 => epoch_seconds(string("now")),
            1 => epoch_seconds(args[0].clone()),
            _ => return None,
        },
        ("FROM_UNIXTIME", Mysql) => match args.len() {
            1 => call("datetime", vec![args[0].clone(), string("unixepoch")]),
            2 => mysql_format(
                call("datetime", vec![args[0].clone(), string("unixepoch")]),
                &args[1],
            ),
            _ => return None,
        },
        ("TO_TIMESTAMP", Postgres | Duckdb) => {
            call("datetime", vec![one(&args)?, string("unixepoch")])
        }
        ("TIMESTAMP_SECONDS", Bigquery) => call("datetime", vec![one(&args)?, string("unixepoch")]),
        ("UNIX_SECONDS", Bigquery) => epoch_seconds(one(&args)?),
        ("UNIX_DATE", Bigquery) => integer(minus(
            call("julianday", vec![one(&args)?]),
            Expr::value(sqlparser::ast::Value::Number("2440587.5".into(), false)),
        )),
        ("DATE_FROM_UNIX_DATE", Bigquery) => call(
            "date",
            vec![times(one(&args)?, number(86_400)), string("unixepoch")],
        ),
        ("EPOCH", Duckdb) => epoch_with_fraction(one(&args)?),
        ("TO_DAYS", Mysql) => integer(minus(
            call("julianday", vec![call("date", vec![one(&args)?])]),
            day_zero(),
        )),
        ("FROM_DAYS", Mysql) => call("date", vec![plus(day_zero(), one(&args)?)]),
        ("EPOCH_MS" | "EPOCH_US" | "EPOCH_NS", Duckdb)
        | ("UNIX_MILLIS" | "UNIX_MICROS" | "TIMESTAMP_MILLIS" | "TIMESTAMP_MICROS", Bigquery)
        | ("TIME_TO_SEC" | "SEC_TO_TIME", Mysql) => untranslated(name, dialect, args),
        _ => return None,
    })
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        match e {
            Expr::Function(f) => {
                let name = function_name(f);
                // `CURRENT_TIMESTAMP(3)`: a precision, which SQLite's text has not
                let precision = plain_args(f).is_some_and(|a| a.len() == 1);
                if takes_no_args(f) || (precision && name.starts_with("CURRENT_")) {
                    if let Some(value) = now(&name, self.0) {
                        *e = keyword(value);
                        return ControlFlow::Continue(());
                    }
                }
                if let Some(args) = plain_args(f) {
                    if let Some(new) = translate_call(&name, args, self.0) {
                        *e = new;
                    }
                }
            }
            Expr::TypedString(ts) => {
                if let (Some(function), Some(text)) = (
                    literal_function(&ts.data_type),
                    string_value(&Expr::Value(ts.value.clone())),
                ) {
                    *e = call(function, vec![string(text)]);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

impl Rule for DateValues {
    fn name(&self) -> &'static str {
        "date_values"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
