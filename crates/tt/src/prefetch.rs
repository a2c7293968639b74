//! Prefetching a bucket into the cache before it is probed.
//!
//! One of the crate's two `unsafe` blocks (the other asks for huge pages, `huge_pages.rs`). A real prefetch
//! instruction retires at once, whereas "touching" the bucket with an ordinary load would keep the load in the
//! reorder buffer until the cache miss resolves — the stall that prefetching exists to hide (docs/tt.md gives
//! the measured difference). On targets without a stable prefetch intrinsic the hint is a no-op.
#![allow(unsafe_code)]

use crate::bucket::Bucket;

/// Asks the CPU to start loading `bucket` into the L1 cache. Has no observable effect on the program.
#[inline]
pub(crate) fn prefetch_bucket(bucket: &Bucket) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address = core::ptr::from_ref(bucket).cast::<i8>();
        // SAFETY: `_mm_prefetch` needs SSE, which is part of the x86_64 baseline that every x86_64 target
        // enables, so the instruction exists on every CPU this code can run on. PREFETCHT0 is a pure cache
        // hint: it performs no architectural memory access, cannot fault even on an invalid address, and
        // changes no program state. `address` comes from a live `&Bucket` in any case.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = bucket;
    }
}
