//! Registry glue for the NodeMatch metrics (`astpm`; `relpm` is in plan.rs): argument checks for α and β, then the metric.

use super::{Args, Output};
use crate::error::Result;
use crate::metrics::astpm;
use crate::metrics::{DEFAULT_ALPHA, DEFAULT_BETA};

/// α at `index`: a number in [0, 1]; NULL or absent gives [`DEFAULT_ALPHA`].
pub(crate) fn alpha(a: &Args<'_>, index: usize) -> Result<f64> {
    match a.opt_real(index)? {
        None => Ok(DEFAULT_ALPHA),
        Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => Err(a.invalid(index, format!("must be a number in [0, 1], got {x}"))),
    }
}

/// β at `index`: a finite number above 0; NULL or absent gives [`DEFAULT_BETA`].
pub(crate) fn beta(a: &Args<'_>, index: usize) -> Result<f64> {
    match a.opt_real(index)? {
        None => Ok(DEFAULT_BETA),
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        Some(x) => Err(a.invalid(index, format!("must be a finite number above 0, got {x}"))),
    }
}

/// `astpm(gold, pred [, alpha [, beta [, options]]])`.
pub(crate) fn astpm(a: &Args<'_>) -> Result<Output> {
    let (alpha, beta) = (alpha(a, 2)?, beta(a, 3)?);
    a.only_dialect_options()?;
    Ok(astpm::astpm(&a.query(0)?, &a.query(1)?, alpha, beta).map_or(Output::Null, Output::Real))
}

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::registry::{call_scalar, Output, Value};

    const Q: Value<'static> = Value::Text("SELECT a FROM t");

    #[test]
    fn defaults_nulls_and_bounds() {
        let full = call_scalar("astpm", &[Q, Value::Text("SELECT b FROM t")]).unwrap();
        let nulls = call_scalar(
            "astpm",
            &[Q, Value::Text("SELECT b FROM t"), Value::Null, Value::Null],
        )
        .unwrap();
        assert_eq!(full, nulls);
        assert_eq!(
            call_scalar("astpm", &[Q, Q, Value::Integer(1)]),
            Ok(Output::Real(1.0))
        );
        assert_eq!(call_scalar("astpm", &[Value::Null, Q]), Ok(Output::Null));
    }

    #[test]
    fn bad_alpha_and_beta_name_the_argument() {
        for (alpha, beta, argument) in [
            (Value::Real(1.5), Value::Null, "alpha"),
            (Value::Real(-0.1), Value::Null, "alpha"),
            (Value::Real(f64::NAN), Value::Null, "alpha"),
            (Value::Text("x"), Value::Null, "alpha"),
            (Value::Null, Value::Real(0.0), "beta"),
            (Value::Null, Value::Real(f64::INFINITY), "beta"),
            (Value::Null, Value::Integer(-2), "beta"),
        ] {
            match call_scalar("astpm", &[Q, Q, alpha, beta]) {
                Err(Error::Argument {
                    function,
                    argument: got,
                    ..
                }) => {
                    assert_eq!((function, got), ("astpm", argument));
                }
                other => panic!("expected an argument error, got {other:?}"),
            }
        }
    }
}
