//! sqlsim: SQL similarity, equivalence and text-to-SQL evaluation, loadable into SQLite and DuckDB.
//!
//! The core (parse, normalize, tree, metrics) knows nothing about either host; `registry` declares
//! the SQL surface once and the adapters in `ext` register it with SQLite and DuckDB.
//!
//! `unsafe` is denied outside `ext` (the only module allowed it), and there every unsafe block
//! states why it is sound in a `// SAFETY:` comment (clippy's `undocumented_unsafe_blocks`).

#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub(crate) mod cache;
pub mod combined;
pub mod error;
pub(crate) mod exec;
pub mod gmn;
pub mod metrics;
pub mod normalize;
pub(crate) mod options;
pub mod parse;
pub(crate) mod parseval;
pub mod plan;
pub(crate) mod profile;
pub mod query_tree;
pub mod registry;
pub mod schema;
pub mod tree;

#[allow(unsafe_code)] // FFI with both hosts: each block documented with `// SAFETY:`.
mod ext;

#[cfg(test)]
mod architecture_test;

pub use error::{Error, Result};
pub use metrics::ast_ted;

// No #[global_allocator]: the library uses the host's (the C library's) allocator. mimalloc as
// the global allocator of this dlopen'ed library crashed Python's duckdb in fresh processes
// (SIGSEGV in mimalloc's thread initialisation as rayon's workers started, README "Host safety").
