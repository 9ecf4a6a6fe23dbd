//! Rule `statistics`: the variance and standard deviation aggregates, which SQLite lacks, as
//! the averages SQLite has.
//!
//! ```sql
//! -- before (ansi, postgres, duckdb, snowflake, bigquery)
//! SELECT VAR_POP(a), STDDEV_SAMP(a) FROM t
//! -- after
//! SELECT MAX(AVG(a * a) - (AVG(a) * AVG(a)), 0),
//!        sqrt(MAX(AVG(a * a) - (AVG(a) * AVG(a)), 0) * COUNT(a) / (COUNT(a) - 1)) FROM t
//! -- before (mysql: STD, STDDEV and VARIANCE are the population's)
//! SELECT STDDEV(a), VARIANCE(a) FROM t
//! -- after
//! SELECT sqrt(MAX(AVG(a * a) - (AVG(a) * AVG(a)), 0)), MAX(AVG(a * a) - (AVG(a) * AVG(a)), 0) FROM t
//! ```
//!
//! The population variance of the non-NULL values is the mean of the squares less the square of
//! the mean; the sample variance scales it by n / (n - 1). `AVG` is a real in SQLite, so the
//! arithmetic is real; no values give NULL (AVG's NULL), one value a NULL sample variance (a
//! division by zero is NULL in SQLite), as the engines give. The scalar `MAX(v, 0)` keeps a
//! rounding error from making a constant column's variance negative (NULL stays NULL); `sqrt` is
//! registered by sqlsim (`exec::math`). `STDDEV` and `VARIANCE` are the sample's everywhere but
//! in MySQL, where they (and `STD`) are the population's. A FILTER moves inside every aggregate
//! and an OVER window is copied to each; `DISTINCT` (the distinct values' squares are not the
//! squares' distinct values) has no translation.

use std::ops::ControlFlow;

use sqlparser::ast::{BinaryOperator, Expr, Function, Statement, VisitMut, VisitorMut};

use super::calls::{binary, case, int, name, plain_args};
use super::{call, untranslated, NoTranslation, Rule};
use crate::parse::dialect::Dialect;

/// See the module documentation.
pub struct Statistics;

/// The statistic a call of `function` in `dialect` computes: a standard deviation (else a
/// variance), and of the sample (else of the population).
fn statistic(function: &str, dialect: Dialect) -> Option<(bool, bool)> {
    let mysql = dialect == Dialect::Mysql;
    Some(match function {
        "stddev_pop" => (true, false),
        "stddev_samp" => (true, true),
        "var_pop" => (false, false),
        "var_samp" => (false, true),
        "stddev" => (true, !mysql),
        "variance" => (false, !mysql),
        "std" if mysql => (true, false),
        _ => return None,
    })
}

/// `f`'s one argument, with its FILTER condition moved inside; the construct it cannot
/// translate otherwise.
fn argument(f: &Function) -> Result<Expr, NoTranslation> {
    let mut plain = f.clone();
    plain.filter = None;
    plain.over = None;
    let x = match plain_args(&plain).as_deref() {
        Some([x]) => x.clone(),
        _ => {
            return Err(NoTranslation(format!(
                "{} with DISTINCT or other arguments",
                name(f).to_uppercase()
            )))
        }
    };
    Ok(match &f.filter {
        Some(c) => case(vec![(c.as_ref().clone(), x)], None),
        None => x,
    })
}

/// The expression of a statistic of `x`, each aggregate over `window` (from `f`).
fn expand(x: Expr, stddev: bool, sample: bool, f: &Function) -> Expr {
    let agg = |name: &str, arg: Expr| {
        let mut e = call(name, vec![arg]);
        if let Expr::Function(g) = &mut e {
            g.over = f.over.clone();
        }
        e
    };
    let mean = || agg("AVG", x.clone());
    let squares = agg(
        "AVG",
        binary(x.clone(), BinaryOperator::Multiply, x.clone()),
    );
    let spread = binary(
        squares,
        BinaryOperator::Minus,
        binary(mean(), BinaryOperator::Multiply, mean()),
    );
    let mut variance = call("MAX", vec![spread, int(0)]);
    if sample {
        let n = || agg("COUNT", x.clone());
        variance = binary(
            binary(variance, BinaryOperator::Multiply, n()),
            BinaryOperator::Divide,
            binary(n(), BinaryOperator::Minus, int(1)),
        );
    }
    if stddev {
        call("sqrt", vec![variance])
    } else {
        variance
    }
}

struct Rewrite(Dialect);

impl VisitorMut for Rewrite {
    type Break = ();

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<()> {
        let Expr::Function(f) = e else {
            return ControlFlow::Continue(());
        };
        let Some((stddev, sample)) = statistic(&name(f), self.0) else {
            return ControlFlow::Continue(());
        };
        *e = match argument(f) {
            Ok(x) => expand(x, stddev, sample, f),
            Err(construct) => {
                let args = plain_args(f).unwrap_or_default();
                untranslated(&construct.0, self.0, args)
            }
        };
        ControlFlow::Continue(())
    }
}

impl Rule for Statistics {
    fn name(&self) -> &'static str {
        "statistics"
    }

    fn applies_to(&self, dialect: Dialect) -> bool {
        dialect != Dialect::Sqlite
    }

    fn apply(&self, statement: &mut Statement, dialect: Dialect) {
        let _ = statement.visit(&mut Rewrite(dialect));
    }
}
