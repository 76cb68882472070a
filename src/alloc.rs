//! The global allocator of rboogie's binary and benches: mimalloc, called directly.
//!
//! Why mimalloc: the front end allocates many small tree nodes; glibc's allocator spent a
//! fifth of the parse time in malloc/free and added 16 bytes to every node. It is built
//! without transparent huge pages (`no_thp`): with them its arenas are backed by 2 MiB
//! pages, so touching one byte makes 2 MiB resident.
//!
//! Why not the `mimalloc` crate's `MiMalloc`: it passes every request to
//! `mi_malloc_aligned`, whatever the alignment. When the page of a size class has no free
//! block, that path cannot tell that an 8-byte alignment is a no-op for a block size that is
//! not a power of two, and over-allocates `size + align - 1` bytes, that is, from the next
//! size class (microsoft/mimalloc#889). Parsing a 2 MB program made a fifth of its
//! allocations that way. Every mimalloc block is aligned to a machine word (block sizes are
//! whole words and pages start aligned), so requests aligned to at most a word go to
//! `mi_malloc`, and only stricter ones to the aligned entry points.
//!
//! It counts the bytes live ([`live_bytes`]): the memory guard of VC generation
//! ([`crate::memory`]) reads it. One relaxed atomic add per call, against mimalloc's own
//! 20-odd nanoseconds; the front end makes under one allocation per token.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

use libmimalloc_sys as mi;

/// mimalloc as a [`GlobalAlloc`]; see the module header.
pub struct Allocator;

/// Bytes allocated through [`Allocator`] and not freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The bytes allocated through [`Allocator`] and not yet freed, in the whole process (0 when
/// it is not the global allocator: a library user's program).
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// The alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

// SAFETY: each method forwards to the mimalloc entry point with the same contract, and the
// plain ones only when mimalloc's word alignment satisfies the layout.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if layout.align() <= WORD {
            unsafe { mi::mi_malloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8 }
        };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = if layout.align() <= WORD {
            unsafe { mi::mi_zalloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8 }
        };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = if layout.align() <= WORD {
            unsafe { mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8 }
        } else {
            unsafe { mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8 }
        };
        // A failed reallocation leaves the old block.
        if !p.is_null() {
            LIVE.fetch_add(new_size.wrapping_sub(layout.size()), Ordering::Relaxed);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every small size, and some large ones, are aligned as their layouts ask,
    /// through each entry point; contents survive reallocation.
    #[test]
    fn blocks_are_aligned_as_asked() {
        let sizes = (1..=1100).chain([4095, 4096, 65_536, 1 << 20, (1 << 22) + 8]);
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let mut kept = Vec::new();
                    // Several blocks of one class, so that a page runs out and is refilled.
                    for i in 0..40 {
                        let p = if i % 2 == 0 { Allocator.alloc(layout) } else { Allocator.alloc_zeroed(layout) };
                        assert!(!p.is_null());
                        assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                        if i % 2 == 1 {
                            assert!(std::slice::from_raw_parts(p, size).iter().all(|&b| b == 0));
                        }
                        p.write(7);
                        kept.push(p);
                    }
                    for p in kept {
                        let q = Allocator.realloc(p, layout, size * 3);
                        assert_eq!(q as usize % align, 0, "realloc: size {size}, align {align}");
                        assert_eq!(q.read(), 7);
                        Allocator.dealloc(q, Layout::from_size_align(size * 3, align).unwrap());
                    }
                }
            }
        }
    }
}

/// Tunes the C library's allocator, which libz3 allocates with (the binary calls this first).
///
/// A Z3 context allocates tens of megabytes, and rboogie makes one per implementation. With
/// glibc's defaults, each allocation past 128 KiB is an `mmap` of its own, unmapped when freed,
/// and a heap's free top is trimmed back to the system: every context pages its memory in
/// afresh (on 300 small implementations, 267,000 page faults and 2.0 s). Allocations up to
/// 32 MiB (glibc's largest setting) now come from the heap, which keeps up to 256 MiB free
/// before trimming: 10,700 page faults and 1.45 s. A context that passed `/maxMemoryMB` is
/// still given back at once (`malloc_trim`, see [`crate::smt`]).
pub fn tune_c_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets the allocator's parameters; it is called before any thread
    // that allocates with it is started.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}
