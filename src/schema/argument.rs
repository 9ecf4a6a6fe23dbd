//! Schema arguments of the SQL functions, parsed once per distinct text (bounded cache) and fingerprinted.

use super::Schema;
use crate::cache::NamedCache;
use crate::error::Result;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Number of parsed schema arguments kept in memory.
const SCHEMA_CACHE_CAPACITY: usize = 256;

/// A schema argument, parsed, with a fingerprint of its text that keys what is built on it (plans).
#[derive(Debug)]
pub struct ParsedSchema {
    pub schema: Arc<Schema>,
    fingerprint: u64,
}

impl ParsedSchema {
    /// A hash of the argument text: equal texts give equal fingerprints.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

static CACHE: NamedCache<Result<Arc<ParsedSchema>>> =
    NamedCache::new("schema_arguments", SCHEMA_CACHE_CAPACITY);

/// The parsed schema argument `text` (cached), or its argument error ([`Schema::from_argument`]).
pub fn schema_argument(text: &str) -> Result<Arc<ParsedSchema>> {
    let parsed = CACHE.get().get_or_insert_with(text, || {
        Schema::from_argument(text).map(|schema| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            Arc::new(ParsedSchema {
                schema: Arc::new(schema),
                fingerprint: h.finish(),
            })
        })
    });
    (*parsed).clone()
}
