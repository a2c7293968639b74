//! Asking Linux to back the table with transparent huge pages.
//!
//! Every probe lands on a random bucket of a table of tens or hundreds of MiB, so with 4 KiB pages nearly every
//! probe also misses the TLB and walks the page tables; the search's profile shows the stall at the prefetch
//! of the child's bucket. With 2 MiB pages a 64 MiB table needs 32 TLB entries instead of 16,384. Where the
//! kernel's transparent huge pages are set to `madvise` (Debian's default) a mapping gets them only when asked;
//! `always` gives them anyway and `never` refuses, and in both the request changes nothing. docs/tt.md gives the
//! measured difference.
#![allow(unsafe_code)]

/// Asks the kernel to back the `bytes` bytes at `start` (a fresh allocation, not yet written, so that the
/// pages are made huge when first touched) with huge pages. Only a hint: a kernel without transparent huge
/// pages, or without a free huge page at the time, gives ordinary pages, and nothing else changes.
pub(crate) fn advise_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        // Tables smaller than one huge page gain nothing from asking.
        const HUGE_PAGE_BYTES: usize = 2 << 20;
        if bytes < HUGE_PAGE_BYTES {
            return;
        }
        // madvise takes a page-aligned start: the page that holds `start` (the allocator's own header shares
        // it), through the end of the allocation.
        const PAGE_BYTES: usize = 4096;
        let address = start as usize;
        let first_page = address & !(PAGE_BYTES - 1);
        let length = bytes + (address - first_page);
        // SAFETY: MADV_HUGEPAGE changes only how the kernel backs the range's pages when they are faulted in
        // or later collapsed: it never changes the contents of any byte, frees nothing, and makes no address
        // valid or invalid, so no Rust reference or allocation — ours, or the allocator's header on the same
        // page — can observe it. The call takes no pointer it would write through. A range the kernel does not
        // accept (a page size other than 4 KiB, a kernel without transparent huge pages) returns an error that
        // is ignored, because the advice is optional; the table works the same without it.
        let _ = unsafe { libc::madvise(first_page as *mut libc::c_void, length, libc::MADV_HUGEPAGE) };
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    {
        let _ = (start, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "writes 4 MiB word by word: slow in Miri, where the advice is compiled out anyway"
    )]
    fn advice_leaves_memory_as_it_was() {
        // A fresh allocation advised before it is written, as the table does, then written and read back; and
        // one advised after being written keeps its contents.
        for written_first in [false, true] {
            let words = (4 << 20) / 8;
            let mut memory: Vec<u64> = Vec::with_capacity(words);
            if written_first {
                memory.extend((0..words as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            }
            advise_huge_pages(memory.as_ptr().cast(), words * 8);
            if !written_first {
                memory.extend((0..words as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
            }
            assert!(
                memory
                    .iter()
                    .enumerate()
                    .all(|(i, &word)| word == (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            );
        }
        // Too small to ask, or empty: nothing happens.
        advise_huge_pages(core::ptr::null(), 0);
        let small = [0u8; 64];
        advise_huge_pages(small.as_ptr(), small.len());
    }
}
