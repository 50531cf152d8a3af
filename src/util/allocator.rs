//! Keeping the process small after a burst of large allocations: decoding and re-encoding a
//! 3000×2000 screenshot allocates tens of megabytes for a moment.
//!
//! glibc raises its mmap threshold each time a large mmapped block is freed, so the next large
//! buffers come from the heap arenas and stay there after they are freed (measured: a session
//! grew from 56 to 97 MB RSS after attaching and sending one such image; `malloc_trim` did not
//! give it back). Fixing the threshold keeps buffers over 128 KiB in their own mappings, which
//! are returned on free (same session: 57 MB). A no-op outside glibc.

/// Buffers at least this large get their own mapping (glibc's default starting threshold).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD_BYTES: libc::c_int = 128 * 1024;

/// Call once at start-up, before other threads exist.
pub fn return_large_buffers_on_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes glibc's allocation policy; it takes no pointers and is
    // called before any other thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES);
    }
}
