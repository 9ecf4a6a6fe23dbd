//! An aggregate compared with a number by `=` or `<>` (a HAVING's `COUNT(DISTINCT salary) = 4`,
//! `COUNT(*) = 4`, `SUM(salary) = 10`): the generated databases hold a group just above and just
//! below the number, where the comparison parts from `>`, `>=`, `<` and `<=` forms of it. The
//! verdicts are taken without random databases (`random: 0`), which find most of these
//! differences by chance on a schema this small: the generated databases must find them.

use crate::parseval::search::plan_facts::threshold_rows;
use crate::parseval::verdict::decide::{decide, schema_for};
use crate::parseval::*;

const EMP: &str = "CREATE TABLE emp (eid INTEGER PRIMARY KEY, dept INT, salary INT, bonus REAL)";

fn decision(gold: &str, pred: &str) -> Decision {
    let s = schema_for(Some(EMP), &[gold, pred]).unwrap();
    let o = Options {
        random: Some(0),
        ..Options::default()
    };
    let d = decide(gold, pred, s, &o);
    eprintln!("{gold} | {pred}: {} ({:?})", d.reason(), d.elapsed);
    d
}

fn having(cond: &str) -> String {
    format!("SELECT dept FROM emp GROUP BY dept HAVING {cond}")
}

#[test]
fn count_thresholds_size_a_group_on_each_side() {
    let s = schema_for(Some(EMP), &[]).unwrap();
    let rows = |cond: &str| threshold_rows(&crate::plan::plan_sql(&having(cond), &s).unwrap());
    assert_eq!(rows("COUNT(DISTINCT salary) = 4"), 5);
    assert_eq!(rows("4 = COUNT(DISTINCT salary)"), 5);
    assert_eq!(rows("COUNT(*) <> 4"), 5);
    assert_eq!(rows("COUNT(*) > 4"), 5);
    assert_eq!(rows("COUNT(*) <= 4"), 5);
    assert_eq!(rows("4 >= COUNT(*)"), 5);
    assert_eq!(rows("COUNT(*) >= 4"), 4);
    assert_eq!(rows("COUNT(*) < 4"), 4);
    assert_eq!(rows("4 > COUNT(*)"), 4);
    assert_eq!(rows("4 <= COUNT(*)"), 4);
    // at most MAX_ROWS_LIMIT rows
    assert_eq!(rows("COUNT(*) = 8"), 8);
    assert_eq!(rows("SUM(salary) = 4"), 0);
}

#[test]
fn an_aggregate_equal_to_a_number_has_groups_above_and_below_it() {
    for cond in [
        "COUNT(DISTINCT salary) = 4",
        "COUNT(*) = 4",
        "SUM(salary) = 10",
        "AVG(bonus) = 2.5",
        "COUNT(*) <> 3",
    ] {
        let (g, _) = generate_for(&having(cond), Some(EMP), &Options::default()).unwrap();
        let covered = g.covered();
        for point in ["above", "below"] {
            assert!(
                covered
                    .iter()
                    .any(|l| l.ends_with(&format!("edge 0 {point}"))),
                "{cond}: {point} not covered: {covered:?} of {:?}",
                g.branches
            );
        }
    }
    // a column's `=` keeps only its true and false branches
    let (g, _) = generate_for(
        "SELECT eid FROM emp WHERE salary = 4",
        Some(EMP),
        &Options::default(),
    )
    .unwrap();
    assert!(
        !g.branches.iter().any(|l| l.contains(" edge ")),
        "{:?}",
        g.branches
    );
}

#[test]
fn an_aggregate_equal_to_a_number_parts_from_its_inequalities() {
    for (gold, pred) in [
        ("COUNT(DISTINCT salary) = 4", "COUNT(DISTINCT salary) > 3"),
        ("COUNT(DISTINCT salary) = 4", "COUNT(DISTINCT salary) <= 4"),
        ("COUNT(*) = 4", "COUNT(*) >= 4"),
        ("COUNT(*) = 4", "COUNT(*) < 5"),
        ("SUM(salary) = 10", "SUM(salary) >= 10"),
        ("SUM(salary) = 10", "SUM(salary) <= 10"),
        ("COUNT(*) <> 4", "COUNT(*) < 4"),
        ("COUNT(*) < 4", "COUNT(*) < 5"),
    ] {
        let d = decision(&having(gold), &having(pred));
        assert_eq!(d.value(), Some(0), "{gold} | {pred}: {}", d.reason());
    }
    for (gold, pred) in [
        ("COUNT(DISTINCT salary) = 4", "COUNT(DISTINCT salary) = 4"),
        (
            "COUNT(DISTINCT salary) = 4",
            "COUNT(DISTINCT salary) >= 4 AND COUNT(DISTINCT salary) <= 4",
        ),
        ("COUNT(DISTINCT salary) = 4", "4 = COUNT(DISTINCT salary)"),
        ("SUM(salary) = 10", "SUM(salary) BETWEEN 10 AND 10"),
    ] {
        let d = decision(&having(gold), &having(pred));
        assert_eq!(d.value(), Some(1), "{gold} | {pred}: {}", d.reason());
    }
}
