//! Golden tests for the dialect translation rules (`src/parse/translate/`).
//!
//! Fixture format (`tests/golden/translate/<rule>.txt`): cases separated by blank lines; each case
//! is a line `-- case: <dialect>: <name>`, the input SQL of that dialect, a line `=>`, then the
//! SQLite text after that rule alone (printed as the translation prints it). `all.txt` holds whole
//! translations (`parse::translate::sqlite_text`), and the same query spelled for several
//! engines is checked to give one SQLite text.

use sqlsim::parse::dialect::{tag, Dialect};
use sqlsim::parse::parse_in;
use sqlsim::parse::translate::{print, rule_by_name, sqlite_text, RULES};
use std::path::{Path, PathBuf};

struct Case {
    dialect: Dialect,
    name: String,
    input: String,
    expected: String,
}

fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    let mut cases = Vec::new();
    for block in text.split("-- case:").skip(1) {
        let (head, body) = block.split_once('\n').unwrap_or((block, ""));
        let (dialect, name) = head
            .split_once(':')
            .unwrap_or_else(|| panic!("{}: case '{head}' names no dialect", path.display()));
        let dialect = Dialect::from_name(dialect.trim())
            .unwrap_or_else(|| panic!("{}: unknown dialect in '{head}'", path.display()));
        let (input, expected) = body
            .split_once("\n=>\n")
            .unwrap_or_else(|| panic!("{}: case '{head}' has no '=>' line", path.display()));
        cases.push(Case {
            dialect,
            name: name.trim().to_string(),
            input: input.trim().to_string(),
            expected: expected.trim_end().to_string(),
        });
    }
    cases
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/translate")
        .join(format!("{name}.txt"))
}

fn check(path: &Path, min_cases: usize, run: impl Fn(&Case) -> String) {
    let cases = read_cases(path);
    assert!(
        cases.len() >= min_cases,
        "{} has {} cases, want at least {min_cases}",
        path.display(),
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = run(c);
            (got != c.expected).then(|| {
                format!(
                    "{} / {} ({}):\n  input:    {}\n  expected: {}\n  got:      {}",
                    path.display(),
                    c.name,
                    c.dialect.name(),
                    c.input,
                    c.expected,
                    got
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_has_golden_fixtures_and_matches_them() {
    for rule in RULES {
        let path = fixture(rule.name());
        assert!(
            path.exists(),
            "rule '{}' has no fixture {}",
            rule.name(),
            path.display()
        );
        check(&path, 4, |c| {
            assert!(
                rule.applies_to(c.dialect),
                "{}: {} does not apply",
                c.name,
                rule.name()
            );
            let mut statements = parse_in(c.dialect, &c.input)
                .unwrap_or_else(|e| panic!("{} ({}): {e}", c.input, c.dialect.name()));
            for s in &mut statements {
                rule.apply(s, c.dialect);
            }
            print(&statements)
        });
    }
}

#[test]
fn whole_translations_match_all_fixture() {
    check(&fixture("all"), 4, |c| {
        sqlite_text(&tag(&c.input, c.dialect))
            .unwrap_or_else(|e| panic!("{} ({}): {e}", c.input, c.dialect.name()))
            .into_owned()
    });
}

#[test]
fn fixture_files_name_existing_rules() {
    for entry in std::fs::read_dir(fixture("x").parent().expect("dir")).expect("fixture dir") {
        let file = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        let stem = file.trim_end_matches(".txt");
        assert!(
            stem == "all" || rule_by_name(stem).is_some(),
            "fixture {file} names no rule"
        );
    }
}
