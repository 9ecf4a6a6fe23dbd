//! Host adapters: value, NULL and error conversion and registration only; all `unsafe` lives here.

mod duckdb;
mod location;
mod sqlite;
