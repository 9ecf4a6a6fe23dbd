//! Golden tests for the normalization passes and the labelled tree.
//!
//! Fixture format (`tests/golden/normalize/<pass>.txt`, `tests/golden/tree/*.txt`): cases separated
//! by blank lines; each case is a line `-- case: <name>`, the input SQL (one or more lines), a line
//! `=>`, then the expected output. For a pass, the output is `Statement::to_string()` after applying
//! only that pass (statements joined by `;` and a newline); `all.txt` applies the whole pipeline;
//! tree fixtures hold the normalized tree, one label per line, indented two spaces per level.

use sqlsim::normalize::{normalize, pass_by_name, pass_names};
use sqlsim::parse::parse_sql;
use sqlsim::tree::from_ast::statements_tree;
use sqlsim::tree::Tree;
use std::path::Path;

struct Case {
    name: String,
    input: String,
    expected: String,
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    let mut cases = Vec::new();
    for block in text.split("-- case:").skip(1) {
        let (name, body) = block.split_once('\n').unwrap_or((block, ""));
        let (input, expected) = body.split_once("\n=>\n").unwrap_or_else(|| {
            panic!(
                "{}: case '{}' has no '=>' line",
                path.display(),
                name.trim()
            )
        });
        cases.push(Case {
            name: name.trim().to_string(),
            input: input.trim().to_string(),
            expected: expected.trim_end().to_string(),
        });
    }
    cases
}

fn print_statements(stmts: &[sqlparser::ast::Statement]) -> String {
    stmts
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(";\n")
}

fn tree_text(sql: &str) -> String {
    let stmts = parse_sql(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let t = statements_tree(&normalize(stmts));
    let mut lines = Vec::new();
    let mut stack: Vec<(usize, usize)> = t.root().map(|r| (r, 0)).into_iter().collect();
    while let Some((n, depth)) = stack.pop() {
        lines.push(format!("{}{}", "  ".repeat(depth), t.label(n)));
        for &c in t.children(n).iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    lines.join("\n")
}

fn fixture_dir(kind: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(kind)
}

fn check(path: &Path, min_cases: usize, run: impl Fn(&str) -> String) {
    let cases = read_cases(path);
    assert!(
        cases.len() >= min_cases,
        "{} has {} cases, want at least {min_cases}",
        path.display(),
        cases.len()
    );
    let mut failures = Vec::new();
    for c in &cases {
        let got = run(&c.input);
        if got != c.expected {
            failures.push(format!(
                "{} / {}:\n  input:    {}\n  expected: {}\n  got:      {}",
                path.display(),
                c.name,
                c.input,
                c.expected,
                got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_pass_has_golden_fixtures_and_matches_them() {
    for name in pass_names() {
        let pass = pass_by_name(name).expect("listed pass is findable");
        let path = fixture_dir("normalize").join(format!("{name}.txt"));
        assert!(
            path.exists(),
            "pass '{name}' has no fixture file {}",
            path.display()
        );
        check(&path, 4, |sql| {
            let stmts = parse_sql(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
            print_statements(&stmts.into_iter().map(|s| pass.apply(s)).collect::<Vec<_>>())
        });
    }
}

#[test]
fn full_pipeline_matches_all_fixture() {
    check(&fixture_dir("normalize").join("all.txt"), 4, |sql| {
        print_statements(&normalize(
            parse_sql(sql).unwrap_or_else(|e| panic!("{sql}: {e}")),
        ))
    });
}

#[test]
fn fixture_files_name_existing_passes() {
    let names = pass_names();
    for entry in std::fs::read_dir(fixture_dir("normalize")).expect("fixture dir") {
        let file = entry
            .expect("dir entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        let stem = file.trim_end_matches(".txt");
        assert!(
            stem == "all" || names.contains(&stem),
            "fixture {file} names no pass"
        );
    }
}

#[test]
fn tree_shapes_match_fixtures() {
    let mut files = 0;
    for entry in std::fs::read_dir(fixture_dir("tree")).expect("tree fixture dir") {
        let path = entry.expect("dir entry").path();
        check(&path, 1, tree_text);
        files += 1;
    }
    assert!(files >= 3);
}

#[test]
fn normalization_is_idempotent_on_fixtures() {
    for entry in std::fs::read_dir(fixture_dir("normalize")).expect("fixture dir") {
        for c in read_cases(&entry.expect("dir entry").path()) {
            let once = normalize(parse_sql(&c.input).unwrap_or_default());
            let twice = normalize(once.clone());
            assert_eq!(
                print_statements(&once),
                print_statements(&twice),
                "{}",
                c.name
            );
        }
    }
}
