//! Host adapters: value, NULL and error conversion and registration only; all `unsafe` lives here
//! (the crate denies `unsafe_code` everywhere else), each block with a `// SAFETY:` comment.

mod duckdb;
mod location;
mod sqlite;
