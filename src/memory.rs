//! The memory guard (`/maxMemoryMB:N`): what rboogie's VC generation and its solvers may use.
//!
//! One limit, N MB, held three ways:
//! - **VC generation** reads the bytes rboogie's allocator has live ([`crate::alloc::live_bytes`])
//!   between blocks and stages ([`check`]); past the limit it gives the implementation up as
//!   out of memory (Boogie's "out of memory" outcome), its memory is freed, and the next
//!   implementation is checked.
//! - **A solver process** (z3, cvc5, any `--solver`) is watched while rboogie waits for it: its
//!   resident memory ([`resident_bytes`]) past the limit, it is killed and the query is out of
//!   memory.
//! - **Z3 in-process** is watched the same way, by what Z3 reports it has allocated (libz3
//!   allocates outside rboogie's allocator; see `smt/z3.rs`): past the limit the call is
//!   interrupted and reported out of memory.
//!
//! The default, when `/maxMemoryMB` is not given, is half of the machine's physical memory
//! ([`default_limit_mb`]): enough for any query a machine can check, and a runaway query or
//! inlining blow-up is stopped before the kernel's out-of-memory killer ends the whole run.
//! Boogie itself has no such option (it runs until .NET or the solver gives up).

use std::sync::atomic::{AtomicU64, Ordering};

/// The limit in bytes; `u64::MAX` for none.
static LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);

/// An implementation's VC generation passed the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory;

/// Sets the limit for the rest of the run (`None`: no limit).
pub fn set_limit_mb(mb: Option<u64>) {
    LIMIT.store(mb.map_or(u64::MAX, |mb| mb.saturating_mul(1 << 20)), Ordering::Relaxed);
}

/// The limit in bytes, if there is one.
pub fn limit_bytes() -> Option<u64> {
    Some(LIMIT.load(Ordering::Relaxed)).filter(|&l| l != u64::MAX)
}

/// `Err` once rboogie's own live heap is past the limit. A relaxed load and a comparison:
/// cheap enough to call for every block.
#[inline]
pub fn check() -> Result<(), OutOfMemory> {
    if crate::alloc::live_bytes() as u64 > LIMIT.load(Ordering::Relaxed) { Err(OutOfMemory) } else { Ok(()) }
}

/// Half of the machine's physical memory, in MB (`None` where it cannot be read).
pub fn default_limit_mb() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 =
        meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb / 1024 / 2)
}

/// The resident memory of process `pid`, in bytes, from `/proc/PID/statm`; `None` where it
/// cannot be read (the process is gone, or no `/proc`).
pub fn resident_bytes(pid: u32) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * if page > 0 { page as u64 } else { 4096 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_resident_memory() {
        let own = resident_bytes(std::process::id()).expect("Linux has /proc");
        assert!(own > 0);
        assert_eq!(resident_bytes(u32::MAX), None);
    }

    #[test]
    fn the_default_is_half_the_machine() {
        let mb = default_limit_mb().expect("Linux has /proc/meminfo");
        assert!(mb > 0);
    }
}
