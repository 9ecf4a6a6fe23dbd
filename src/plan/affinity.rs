//! A literal compared with a table column takes the column's affinity while the plan is built, as SQLite converts it before comparing: on a TEXT column `year = 2014` is `year = '2014'`, on a numeric column `age > '20'` is `age > 20`.
//!
//! SQLite's rule (datatype3.html, "Type Conversions Prior To Comparison"): a literal has no
//! affinity; compared with an operand of INTEGER, REAL or NUMERIC affinity it gets NUMERIC
//! affinity (a text that is a well-formed number becomes that number), compared with an operand
//! of TEXT affinity it gets TEXT affinity (a number becomes its text). `x BETWEEN a AND b` is two
//! such comparisons and `x IN (a, b)` compares `x` with each value, so the values take `x`'s
//! affinity as well. Only a column read from a table (or passed on unchanged) has an affinity:
//! an aggregate, an expression or a column without a declared type has none, and its literals are
//! left as written. Both spellings then have one plan, labels included, so the plan-based scores
//! (RelPM, the GMN models) see one query where SQLite computes one result.

use super::columns::Columns;
use super::expr::{DataType, Expr, Literal, Op};

/// A number as SQLite renders it when it converts the number to text (`8`, `8.0`, `20.5`); None
/// for a real whose rendering this does not reproduce (more than 15 significant digits, or
/// outside ±10^15).
pub fn sqlite_number_text(l: &Literal) -> Option<String> {
    match l {
        Literal::Integer(i) => Some(i.to_string()),
        Literal::Real(r) if r.is_finite() && r.abs() < 1e15 => {
            if r.fract() == 0.0 {
                return Some(format!("{r:.1}"));
            }
            let text = r.to_string();
            let digits = text.chars().filter(char::is_ascii_digit).count();
            let leading = text.trim_start_matches('-').starts_with("0.");
            (digits - usize::from(leading) <= 15).then_some(text)
        }
        _ => None,
    }
}

/// The number a text is under NUMERIC affinity, for the plain decimal spellings (`20`, `-3`,
/// `20.5`); None for any other text (SQLite may convert some of those too: they are left as
/// written, which only costs the two spellings one plan).
fn text_as_number(text: &str) -> Option<Literal> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let decimal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !decimal(whole) {
        return None;
    }
    match fraction {
        None => text.parse::<i64>().ok().map(Literal::Integer),
        Some(f) if decimal(f) => {
            let r = text.parse::<f64>().ok()?;
            // only a value that renders back to the same digits is surely the one SQLite reads
            let back = sqlite_number_text(&Literal::Real(r))?;
            (back.trim_end_matches('0') == text.trim_end_matches('0')).then_some(Literal::Real(r))
        }
        Some(_) => None,
    }
}

/// The affinity `e` has when it is a table column with a declared type (TEXT or a numeric one).
pub fn column_affinity(e: &Expr, columns: &Columns) -> Option<DataType> {
    let Expr::Column(c) = e else { return None };
    let meta = columns.meta(*c);
    let typed = matches!(
        meta.ty,
        DataType::Text | DataType::Integer | DataType::Real | DataType::Numeric
    );
    (typed && meta.origin.is_some()).then_some(meta.ty)
}

/// `e` as SQLite converts it when it is a literal compared with a column of affinity `ty`.
fn converted(e: Expr, ty: DataType) -> Expr {
    let Expr::Literal(l) = &e else { return e };
    let to = match (ty, l) {
        (DataType::Text, Literal::Integer(_) | Literal::Real(_)) => {
            sqlite_number_text(l).map(Literal::Text)
        }
        (DataType::Integer | DataType::Real | DataType::Numeric, Literal::Text(t)) => {
            text_as_number(t)
        }
        _ => None,
    };
    to.map_or(e, Expr::Literal)
}

/// `e` with the literals it compares with a column converted to the column's affinity: the
/// operands of a comparison, of BETWEEN and of an IN list, negated or not (the builder calls this
/// for every expression it makes, innermost first; NOT BETWEEN and NOT IN come as one).
pub fn with_column_affinity(e: Expr, columns: &Columns) -> Expr {
    let Expr::Call(op, args) = e else { return e };
    // the affinity each operand meets: a comparison's other operand, the first of BETWEEN and
    // IN for the rest (a column operand is left as it is whatever it meets)
    let met: Vec<Option<DataType>> = match &op {
        Op::Not
            if args.len() == 1 && matches!(&args[0], Expr::Call(Op::Between | Op::InList, _)) =>
        {
            let inner = args
                .into_iter()
                .map(|a| with_column_affinity(a, columns))
                .collect();
            return Expr::Call(op, inner);
        }
        op if op.is_comparison() && args.len() == 2 => vec![
            column_affinity(&args[1], columns),
            column_affinity(&args[0], columns),
        ],
        Op::Between | Op::InList if !args.is_empty() => {
            let first = column_affinity(&args[0], columns);
            (0..args.len()).map(|i| first.filter(|_| i > 0)).collect()
        }
        _ => return Expr::Call(op, args),
    };
    let args = args
        .into_iter()
        .zip(met)
        .map(|(a, ty)| match ty {
            Some(ty) => converted(a, ty),
            None => a,
        })
        .collect();
    Expr::Call(op, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_texts_become_numbers_and_others_stay() {
        assert_eq!(text_as_number("20"), Some(Literal::Integer(20)));
        assert_eq!(text_as_number("-3"), Some(Literal::Integer(-3)));
        assert_eq!(text_as_number("20.5"), Some(Literal::Real(20.5)));
        assert_eq!(text_as_number("20.50"), Some(Literal::Real(20.5)));
        for t in [
            "",
            "-",
            "20a",
            " 20",
            "1e3",
            "0x10",
            "2014-01-01",
            "1.",
            ".5",
            "99999999999999999999",
        ] {
            assert_eq!(text_as_number(t), None, "{t:?}");
        }
    }

    #[test]
    fn numbers_render_as_sqlite_renders_them() {
        assert_eq!(
            sqlite_number_text(&Literal::Integer(8)).as_deref(),
            Some("8")
        );
        assert_eq!(
            sqlite_number_text(&Literal::Real(8.0)).as_deref(),
            Some("8.0")
        );
        assert_eq!(
            sqlite_number_text(&Literal::Real(20.5)).as_deref(),
            Some("20.5")
        );
        assert_eq!(sqlite_number_text(&Literal::Real(1e20)), None);
    }
}
