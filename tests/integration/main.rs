//! sqlsim's integration tests, one test crate (`cargo test --profile test-fast --test integration`).
//!
//! Each module was its own crate under `tests/` until 2026-11-25; every one of them linked the
//! whole library again, so they are gathered here (`autotests = false` in Cargo.toml). A new test
//! file goes in this folder with a `mod` line below; `layout::no_stray_test_files` fails on a
//! `.rs` file left directly in `tests/`, which cargo would no longer build.
//!
//! Run one module with a name filter: `cargo test --profile test-fast --test integration plan_rules`.
//! Tests that read the public data sets are `#[ignore]`d (reported as ignored, never as passed);
//! `make test-rust` runs them with `--ignored` when `$(DATA)` exists; by hand:
//! `SQLSIM_DATA=/path/to/shared/data cargo test --profile test-fast --test integration -- --ignored`.

mod data;
mod layout;

mod golden_normalize;
mod golden_translate;
mod plan_equivalence;
mod plan_equivalence_data;
mod plan_row_in;
mod plan_rules;
mod plan_windows;
mod schema_forms;
mod semantics;
mod spider_golden;
mod spider_official;
mod tree_edit_distance;
