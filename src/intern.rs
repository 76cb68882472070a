//! The global string interner behind [`crate::ast::Symbol`].
//!
//! Hand-written, in place of lasso's `ThreadedRodeo`, for memory: the rodeo keeps two sharded
//! hash maps (string to key and key to string, eight shards each on two cores and more on
//! bigger machines, each growing on its own), about 80 bytes per distinct name besides the
//! text, which on machine-generated programs with thousands of distinct names was a tenth of
//! the parser's peak memory. Here a name costs its text, one 4-byte slot in a hash table and
//! one slot in an append-only table, and nothing is ever moved or freed.
//!
//! - Interning takes a lock (names are interned once per occurrence while parsing, on one
//!   thread; later stages intern only the names they make up).
//! - Resolving a symbol to its text takes no lock: the table from index to text is a list of
//!   segments of doubling size, each allocated once and never moved, whose slots are written
//!   once under the lock before the index is handed out.
//!
//! - A thread keeps the names it interned last, with their keys, in a small direct-mapped
//!   cache ([`intern`], the global interner's entry point): a name seen again, as most are,
//!   is found there by its hash and one comparison of texts, without the lock and without
//!   reading the interner's tables.
//!
//! All of it is safe code: the texts live in leaked buffers (`&'static str`), the slots are
//! `OnceLock`s.

use std::cell::Cell;
use std::hash::BuildHasher;
use std::num::NonZeroU32;
use std::sync::{Mutex, OnceLock};

/// The first segment's size; segment `k` has `FIRST << k` slots.
const FIRST: usize = 256;
/// Enough segments for every `u32` index.
const SEGMENTS: usize = 25;
/// Size of the buffers the texts are copied into (a longer text gets a buffer of its own).
const CHUNK: usize = 16 * 1024;

type Slot = OnceLock<&'static str>;

/// The interner behind [`crate::ast::Symbol`].
static GLOBAL: Interner = Interner::new();

/// Slots in each thread's cache of recent keys (a power of two).
const RECENT: usize = 1024;

/// A name the global interner returned to this thread: its (interned) text and key.
type Recent = Cell<Option<(&'static str, NonZeroU32)>>;

thread_local! {
    /// Names the global interner returned to this thread, at their text's hash modulo
    /// [`RECENT`].
    static RECENT_NAMES: [Recent; RECENT] = const { [const { Cell::new(None) }; RECENT] };
}

/// The global interner's key for `text`.
pub fn intern(text: &str) -> NonZeroU32 {
    let hash = hash(text);
    let slot = hash as usize & (RECENT - 1);
    RECENT_NAMES.with(|recent| {
        if let Some((stored, key)) = recent[slot].get()
            && stored == text
        {
            return key;
        }
        let (key, stored) = GLOBAL.intern_hashed(text, hash);
        recent[slot].set(Some((stored, key)));
        key
    })
}

/// The text of a key [`intern`] returned.
pub fn resolve(key: NonZeroU32) -> &'static str {
    GLOBAL.resolve(key)
}

pub struct Interner {
    lookup: Mutex<Lookup>,
    segments: [OnceLock<Box<[Slot]>>; SEGMENTS],
}

struct Lookup {
    /// Indexes of the texts, hashed by text.
    table: hashbrown::HashTable<u32>,
    /// How many texts there are.
    len: u32,
    /// The unused rest of the current buffer.
    free: &'static mut [u8],
}

fn hash(text: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(text)
}

/// The segment and the slot within it of `index`.
fn place(index: usize) -> (usize, usize) {
    let block = index / FIRST + 1;
    let segment = (usize::BITS - 1 - block.leading_zeros()) as usize;
    (segment, index - FIRST * ((1 << segment) - 1))
}

impl Interner {
    pub const fn new() -> Interner {
        Interner {
            lookup: Mutex::new(Lookup { table: hashbrown::HashTable::new(), len: 0, free: &mut [] }),
            segments: [const { OnceLock::new() }; SEGMENTS],
        }
    }

    /// The key of `text`, 1-based (so that `Option<Symbol>` costs nothing).
    pub fn intern(&self, text: &str) -> NonZeroU32 {
        self.intern_hashed(text, hash(text)).0
    }

    /// [`Interner::intern`] with the text's hash already computed; also gives the stored text.
    fn intern_hashed(&self, text: &str, hash: u64) -> (NonZeroU32, &'static str) {
        let mut lookup = self.lookup.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&index) = lookup.table.find(hash, |&i| self.get(i as usize) == Some(text)) {
            return (key(index), self.get(index as usize).unwrap_or_default());
        }
        let index = lookup.len;
        let stored = lookup.store(text);
        let (segment, slot) = place(index as usize);
        let slots = self.segments[segment].get_or_init(|| (0..FIRST << segment).map(|_| OnceLock::new()).collect());
        // The slot is empty: every index is handed out once, here, under the lock.
        let _ = slots[slot].set(stored);
        lookup.table.insert_unique(hash, index, |&i| hash_of(self.get(i as usize)));
        lookup.len = index.checked_add(1).expect("fewer than 2^32 distinct names");
        (key(index), stored)
    }

    /// The text of a key [`Interner::intern`] returned.
    pub fn resolve(&self, key: NonZeroU32) -> &'static str {
        self.get(key.get() as usize - 1).expect("a key this interner handed out")
    }

    fn get(&self, index: usize) -> Option<&'static str> {
        let (segment, slot) = place(index);
        self.segments.get(segment)?.get()?.get(slot)?.get().copied()
    }
}

impl Default for Interner {
    fn default() -> Interner {
        Interner::new()
    }
}

fn hash_of(text: Option<&str>) -> u64 {
    hash(text.unwrap_or_default())
}

fn key(index: u32) -> NonZeroU32 {
    NonZeroU32::new(index + 1).expect("fewer than 2^32 distinct names")
}

impl Lookup {
    /// Copies `text` into the current buffer (a new one when it does not fit).
    fn store(&mut self, text: &str) -> &'static str {
        let bytes = text.as_bytes();
        if bytes.len() > self.free.len() {
            let size = CHUNK.max(bytes.len());
            self.free = Box::leak(vec![0u8; size].into_boxed_slice());
        }
        let (piece, rest) = std::mem::take(&mut self.free).split_at_mut(bytes.len());
        self.free = rest;
        piece.copy_from_slice(bytes);
        std::str::from_utf8(piece).expect("a copy of a str")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_cover_every_index_once() {
        assert_eq!(place(0), (0, 0));
        assert_eq!(place(FIRST - 1), (0, FIRST - 1));
        assert_eq!(place(FIRST), (1, 0));
        assert_eq!(place(3 * FIRST - 1), (1, 2 * FIRST - 1));
        assert_eq!(place(3 * FIRST), (2, 0));
        let (segment, slot) = place(u32::MAX as usize);
        assert!(segment < SEGMENTS && slot < FIRST << segment);
    }

    #[test]
    fn interning_is_idempotent_and_resolves() {
        let interner = Interner::new();
        let names: Vec<String> = (0..5000).map(|i| format!("name{i}")).collect();
        let keys: Vec<NonZeroU32> = names.iter().map(|n| interner.intern(n)).collect();
        for (name, key) in names.iter().zip(&keys) {
            assert_eq!(interner.intern(name), *key);
            assert_eq!(interner.resolve(*key), name);
        }
        let long = "x".repeat(3 * CHUNK);
        let key = interner.intern(&long);
        assert_eq!(interner.resolve(key), long);
        assert_eq!(interner.intern(""), interner.intern(""));
    }

    #[test]
    fn the_global_cache_gives_the_interners_keys() {
        // Names whose hashes share cache slots displace each other; each is still found.
        let names: Vec<String> = (0..3 * RECENT).map(|i| format!("cached{i}")).collect();
        let keys: Vec<NonZeroU32> = names.iter().map(|n| intern(n)).collect();
        for _ in 0..2 {
            for (name, key) in names.iter().zip(&keys) {
                assert_eq!(intern(name), *key);
                assert_eq!(resolve(*key), name);
            }
        }
    }

    #[test]
    fn threads_agree() {
        let interner = Interner::new();
        let keys: Vec<Vec<NonZeroU32>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..2000).map(|i| interner.intern(&format!("n{}", i % 700))).collect::<Vec<_>>()))
                .collect();
            handles.into_iter().map(|h| h.join().expect("no panic")).collect()
        });
        assert!(keys.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(interner.resolve(keys[0][5]), "n5");
    }
}
