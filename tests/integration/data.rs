//! Where the public data sets are: `$SQLSIM_DATA`, else `../shared/data` beside the repository
//! (the same variable and default as `tests/sql`, `tests/models` and `scripts/`). The tests that
//! read them are `#[ignore = "needs ../shared/data (SQLSIM_DATA)"]`; run with `--ignored`, they
//! fail when the data is absent instead of passing without checking anything.

use std::path::{Path, PathBuf};

/// The data folder: `$SQLSIM_DATA` (relative to the package root, where cargo runs tests) or
/// `../shared/data`.
pub fn dir() -> PathBuf {
    match std::env::var_os("SQLSIM_DATA") {
        Some(p) => Path::new(env!("CARGO_MANIFEST_DIR")).join(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// The data folder, after checking that it holds `file`; panics with what to set when it does not.
pub fn require(file: &str) -> PathBuf {
    let dir = dir();
    assert!(
        dir.join(file).exists(),
        "{} is absent: this test needs the shared data folder \
         (set SQLSIM_DATA, default ../shared/data)",
        dir.join(file).display()
    );
    dir
}
