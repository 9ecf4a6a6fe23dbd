//! sqlsim: SQL similarity, equivalence and text-to-SQL evaluation, loadable into SQLite and DuckDB.
//!
//! The core (parse, normalize, tree, metrics) knows nothing about either host; `registry` declares
//! the SQL surface once and the adapters in `ext` register it with SQLite and DuckDB.

pub mod cache;
pub mod error;
pub mod exec;
pub mod gmn;
pub mod meta;
pub mod metrics;
pub mod normalize;
pub mod parse;
pub mod parseval;
pub mod plan;
pub mod prepare;
pub mod registry;
pub mod schema;
pub mod stats;
pub mod tree;

mod ext;

pub use error::{Error, Result};
pub use metrics::ast_ted;

/// mimalloc for the library's own allocations (parsing allocates many small nodes on every
/// thread of the host); measured faster than the system allocator in DuckDB (README, "Speed").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
