//! The global allocator of rboogie's binary and benches: mimalloc, called directly.
//!
//! Why mimalloc: the front end allocates many small tree nodes; glibc's allocator spent a
//! fifth of the parse time in malloc/free and added 16 bytes to every node. It is built
//! without transparent huge pages (`no_thp`): with them its arenas are backed by 2 MiB
//! pages, so touching one byte makes 2 MiB resident. Nor are they asked for over its arenas
//! when the input is large (tried: `madvise` over the arena, from 512 KB of input): the
//! best of several `/noVerify` runs on a 10 MB Dafny-like program fell from 1.15 to 0.86 s,
//! but on these virtual machines a huge page is mostly memory the host must page in afresh
//! (the kernel clears it at several times the usual cost), and the median rose from 1.32 to
//! 1.70 s (1.2 MB: 0.27 to 0.38 s). Nor is the heap paged in ahead of need by a second thread
//! (tried: `MADV_POPULATE_WRITE` over the arena's first 30 bytes per input byte): the main
//! thread's kernel time halved, but mimalloc does not fill its arena in address order, so
//! RSS grew by a fifth to two fifths, and `/noVerify` gained a fifth on 10 MB and nothing
//! measurable on 1 to 5 MB.
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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

    /// After [`huge_pages_for_c_heap`], a thread's next large C allocations lie in memory the
    /// kernel backs with huge pages (the mapping's flags in `/proc/self/smaps` say `hg`).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn c_heap_is_advised_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            return;
        }
        let inside = std::thread::spawn(|| {
            tune_c_allocator();
            huge_pages_for_c_heap();
            // SAFETY: a plain block of the C heap, freed below.
            unsafe {
                let block = libc::malloc(8 << 20);
                assert!(!block.is_null());
                let probe = block as usize + (4 << 20);
                libc::free(block);
                probe
            }
        })
        .join()
        .unwrap();
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut flags = None;
        let mut current = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                current = lo <= inside && inside < hi;
            } else if current && let Some(f) = line.strip_prefix("VmFlags:") {
                flags = Some(f.to_string());
            }
        }
        let flags = flags.expect("the block's mapping is listed");
        assert!(flags.split_whitespace().any(|f| f == "hg"), "VmFlags:{flags}");
    }

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
        TUNED.store(true, Ordering::Relaxed);
    }
}

/// Set by [`tune_c_allocator`].
static TUNED: AtomicBool = AtomicBool::new(false);

/// Bytes of this thread's C heap that [`huge_pages_for_c_heap`] backs with huge pages: under
/// the 32 MiB that [`tune_c_allocator`] lets come from the heap, over what a Z3 context and a
/// small check allocate.
const HUGE_HEAP: usize = 30 << 20;

/// Backs the next [`HUGE_HEAP`] bytes of this thread's C heap (glibc's arena, where libz3
/// allocates) with transparent huge pages, once per thread; call it before Z3 allocates there.
///
/// Why: making a Z3 context (4.8.12) allocates and clears two tables of 8 MiB, and its
/// interpreter a few more; on 4 KiB pages that is over 5,000 page faults, most of the 10 to
/// 20 ms a context takes, and the first context of every run pays it (a run of small
/// implementations is mostly that). On 2 MiB pages it is a dozen faults. How: the thread
/// allocates a block of that size (it comes from the top of its arena), asks the kernel for
/// huge pages over it (`MADV_HUGEPAGE`, which needs THP in `madvise` or `always` mode; with
/// `never` it is a no-op), and frees it: the arena keeps it (the trim threshold is 256 MiB)
/// and hands it out again to the allocations that follow. Only the huge pages touched
/// become resident. glibc's own `glibc.malloc.hugetlb=1` tunable does this for the whole
/// heap, but only when set in the environment before the process starts.
pub fn huge_pages_for_c_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        thread_local! {
            static DONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        // Without [`tune_c_allocator`] the block would be a mapping of its own, unmapped
        // when freed.
        if !TUNED.load(Ordering::Relaxed) || DONE.with(|done| done.replace(true)) {
            return;
        }
        const HUGE_PAGE: usize = 2 << 20;
        // SAFETY: a block of the C heap, used only to learn its addresses and freed at once;
        // `madvise` with MADV_HUGEPAGE changes how its pages are backed, not their contents.
        unsafe {
            let block = libc::malloc(HUGE_HEAP);
            if block.is_null() {
                return;
            }
            let start = (block as usize).next_multiple_of(HUGE_PAGE);
            let end = (block as usize + HUGE_HEAP) & !(HUGE_PAGE - 1);
            if start < end {
                libc::madvise(start as *mut c_void, end - start, libc::MADV_HUGEPAGE);
            }
            libc::free(block);
        }
    }
}
