//! A bounded, sharded, thread-safe cache keyed by text, so a query repeated across rows is prepared once.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

const SHARDS: usize = 16;

struct Shard<V> {
    map: HashMap<String, Arc<V>>,
    /// Insertion order, for first-in first-out eviction.
    order: VecDeque<String>,
}

/// Maps text keys to shared values, holding at most `capacity` entries (evicting the oldest).
pub struct TextCache<V> {
    shards: Vec<Mutex<Shard<V>>>,
    per_shard: usize,
}

impl<V> TextCache<V> {
    /// A cache holding about `capacity` entries in all.
    pub fn new(capacity: usize) -> Self {
        let per_shard = capacity.div_ceil(SHARDS).max(1);
        let shards = (0..SHARDS)
            .map(|_| {
                Mutex::new(Shard {
                    map: HashMap::new(),
                    order: VecDeque::new(),
                })
            })
            .collect();
        Self { shards, per_shard }
    }

    fn shard(&self, key: &str) -> &Mutex<Shard<V>> {
        let mut h = DefaultHasher::new();
        key.hash(&mut h);
        &self.shards[(h.finish() as usize) % SHARDS]
    }

    /// The cached value for `key`, computing it with `make` (outside the lock) when absent.
    pub fn get_or_insert_with(&self, key: &str, make: impl FnOnce() -> V) -> Arc<V> {
        self.get_or_insert_if(key, make, |_| true)
    }

    /// As [`Self::get_or_insert_with`], but a computed value is kept only when `keep` accepts
    /// it (a result that depended on the moment, such as one stopped by a wall-clock cap).
    pub fn get_or_insert_if(
        &self,
        key: &str,
        make: impl FnOnce() -> V,
        keep: impl FnOnce(&V) -> bool,
    ) -> Arc<V> {
        let shard = self.shard(key);
        if let Some(v) = lock(shard).map.get(key) {
            return Arc::clone(v);
        }
        let value = Arc::new(make());
        if !keep(&value) {
            return value;
        }
        let mut guard = lock(shard);
        if let Some(v) = guard.map.get(key) {
            return Arc::clone(v);
        }
        while guard.map.len() >= self.per_shard {
            match guard.order.pop_front() {
                Some(old) => {
                    guard.map.remove(&old);
                }
                None => break,
            }
        }
        guard.order.push_back(key.to_string());
        guard.map.insert(key.to_string(), Arc::clone(&value));
        value
    }

    /// Number of cached entries.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| lock(s).map.len()).sum()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Locks a shard, recovering from a poisoned lock (a panic elsewhere must not disable the cache).
fn lock<V>(m: &Mutex<Shard<V>>) -> std::sync::MutexGuard<'_, Shard<V>> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_once_and_bounds_size() {
        let cache = TextCache::new(32);
        let mut calls = 0;
        let a = cache.get_or_insert_with("x", || {
            calls += 1;
            1
        });
        let b = cache.get_or_insert_with("x", || {
            calls += 1;
            2
        });
        assert_eq!((*a, *b, calls), (1, 1, 1));
        for i in 0..1000 {
            cache.get_or_insert_with(&i.to_string(), || i);
        }
        assert!(cache.len() <= 32 + SHARDS);
    }
}
