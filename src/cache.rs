//! Bounded, sharded, thread-safe caches keyed by text, so a query repeated across rows is computed
//! once; and the one list of the process's caches (name, capacity, entries) that `sqlsim_debug` reports.
//!
//! Every process-wide cache is a `static` [`NamedCache`] next to the code that fills it; it joins the
//! list ([`report`]) when first used.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

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
}

/// A process-wide [`TextCache`] with a name and a capacity, created on first use and then listed
/// by [`report`]. Declare it as a `static` beside the code that fills it.
pub struct NamedCache<V: 'static> {
    name: &'static str,
    capacity: usize,
    cell: OnceLock<TextCache<V>>,
}

impl<V: Send + Sync + 'static> NamedCache<V> {
    /// A cache called `name` holding about `capacity` entries.
    pub const fn new(name: &'static str, capacity: usize) -> Self {
        Self {
            name,
            capacity,
            cell: OnceLock::new(),
        }
    }

    /// The cache, created (and added to the list) on first use.
    pub fn get(&'static self) -> &'static TextCache<V> {
        self.cell.get_or_init(|| {
            lock_list().push(self);
            TextCache::new(self.capacity)
        })
    }
}

/// What the list needs of a named cache, whatever its value type.
trait Listed: Sync {
    fn info(&self) -> CacheInfo;
}

impl<V: Send + Sync + 'static> Listed for NamedCache<V> {
    fn info(&self) -> CacheInfo {
        CacheInfo {
            name: self.name,
            capacity: self.capacity,
            entries: self.cell.get().map_or(0, TextCache::len),
        }
    }
}

/// One cache of [`report`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheInfo {
    pub name: &'static str,
    /// The configured number of entries (eviction is first-in first-out beyond it).
    pub capacity: usize,
    /// Entries held now.
    pub entries: usize,
}

static LIST: Mutex<Vec<&'static dyn Listed>> = Mutex::new(Vec::new());

fn lock_list() -> std::sync::MutexGuard<'static, Vec<&'static dyn Listed>> {
    LIST.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every named cache used so far in this process, by name.
pub fn report() -> Vec<CacheInfo> {
    let mut infos: Vec<CacheInfo> = lock_list().iter().map(|c| c.info()).collect();
    infos.sort_by_key(|i| i.name);
    infos
}

/// The number of entries of the cache called `name` (0 when it was not used yet).
pub fn entries(name: &str) -> usize {
    report()
        .iter()
        .find(|i| i.name == name)
        .map_or(0, |i| i.entries)
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

    #[test]
    fn named_caches_join_the_list_on_first_use() {
        static NAMED: NamedCache<u32> = NamedCache::new("cache_test", 8);
        NAMED.get().get_or_insert_with("a", || 1);
        let info = report().into_iter().find(|i| i.name == "cache_test");
        assert_eq!(
            info,
            Some(CacheInfo {
                name: "cache_test",
                capacity: 8,
                entries: 1
            })
        );
        assert_eq!(entries("cache_test"), 1);
    }
}
