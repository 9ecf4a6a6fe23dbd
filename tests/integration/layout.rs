//! Cargo builds only the test crates Cargo.toml names (`autotests = false`): a test file left
//! directly in `tests/` would never run, so its presence fails here.

#[test]
fn no_stray_test_files() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let stray: Vec<String> = std::fs::read_dir(&tests)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    assert!(
        stray.is_empty(),
        "{stray:?} in tests/ would not be built: move each into tests/integration/ and add \
         a `mod` line to tests/integration/main.rs"
    );
}
