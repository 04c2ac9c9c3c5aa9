//! Mapping a large fresh buffer's pages in one call, before the builder
//! writes it.
//!
//! A fresh allocation of many pages is mapped by the kernel one page
//! fault at a time, on first write. On Linux 5.14 and later,
//! `madvise(MADV_POPULATE_WRITE)` maps a whole range in one call, which
//! skips the per-page trap; the kernel still hands out zeroed pages, and
//! no byte of the buffer changes. Memory the allocator reuses is mapped
//! already, and there the call would cost more than it saves (it walks
//! pages that need no work), so a buffer whose last page is resident
//! (`mincore`) is left alone. On other systems, or when a call fails (an
//! older kernel), nothing happens and the pages fault in as they are
//! written.

use core::mem::{MaybeUninit, size_of_val};

/// Buffers smaller than this are left to fault in page by page: faulting
/// a page in costs more than mapping it in a batch, but the call and the
/// residency check have a fixed cost, which a few pages do not repay.
const MIN_BYTES: usize = 64 << 10;

/// Maps the whole pages inside `buf` for writing (see the module doc);
/// `buf` is spare room, about to be written. Returns whether the kernel
/// mapped them (false for small buffers, buffers whose last page is
/// mapped already, other systems and failures).
pub(crate) fn prefault<E>(buf: &mut [MaybeUninit<E>]) -> bool {
    let bytes = size_of_val(buf);
    if bytes < MIN_BYTES {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `sysconf` reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let Ok(page) = usize::try_from(page) else {
            return false;
        };
        if !page.is_power_of_two() {
            return false;
        }
        let start = buf.as_mut_ptr() as usize;
        let first = start.next_multiple_of(page);
        let end = (start + bytes) & !(page - 1);
        if first < end {
            let mut last = 0u8;
            // SAFETY: the page at `end - page` lies inside `buf`, and
            // `last` has room for the one byte `mincore` writes for it.
            let rc = unsafe { libc::mincore((end - page) as *mut libc::c_void, page, &mut last) };
            if rc != 0 || last & 1 == 1 {
                return false;
            }
            // SAFETY: `[first, end)` lies inside `buf`, which this function
            // borrows mutably, so no other reference reads or writes it.
            // `MADV_POPULATE_WRITE` maps the range's pages as write
            // faults would and changes no byte (it fails on kernels before
            // 5.14, and a failure changes nothing). Exercised by every
            // build of a large mesh, and by
            // `tests::prefaulted_pages_are_mapped_and_keep_their_bytes`.
            let done = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    end - first,
                    libc::MADV_POPULATE_WRITE,
                )
            };
            return done == 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer past the threshold: its pages are mapped after the call
    /// (`mincore`) when the kernel took it, and it reads back what is
    /// written, before and after the call.
    #[test]
    fn prefaulted_pages_are_mapped_and_keep_their_bytes() {
        // 40 MiB: past glibc's largest mmap threshold, so a fresh mapping.
        let n = (40 << 20) / 8;
        let mut v: Vec<u64> = Vec::with_capacity(n);
        v.push(7);
        let mapped = prefault(v.spare_capacity_mut());
        v.extend((1..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        assert_eq!(v[0], 7);
        assert!(
            v.iter()
                .enumerate()
                .skip(1)
                .all(|(i, &x)| x == (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        );
        #[cfg(target_os = "linux")]
        {
            // Kernels from 5.14 take the call; where one declines, only
            // the bytes are checked.
            eprintln!("prefault mapped the pages: {mapped}");
            let mut w: Vec<u8> = Vec::with_capacity(40 << 20);
            if prefault(w.spare_capacity_mut()) {
                // SAFETY: `sysconf` reads a system constant.
                let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
                let start = (w.as_ptr() as usize).next_multiple_of(page);
                let end = (w.as_ptr() as usize + w.capacity()) & !(page - 1);
                let mut resident = vec![0u8; (end - start) / page];
                // SAFETY: the range lies inside `w`'s allocation, and
                // `resident` has one byte per page of it, as `mincore`
                // writes.
                let rc = unsafe {
                    libc::mincore(
                        start as *mut libc::c_void,
                        end - start,
                        resident.as_mut_ptr(),
                    )
                };
                assert_eq!(rc, 0);
                assert!(resident.iter().all(|&r| r & 1 == 1));
            }
        }
        #[cfg(not(target_os = "linux"))]
        assert!(!mapped);
        // Mapped buffers are left alone.
        let mut again: Vec<u64> = Vec::with_capacity(n);
        again.resize(n, 1);
        again.clear();
        assert!(!prefault(again.spare_capacity_mut()));
        // Small buffers are left alone.
        let mut small: Vec<u64> = Vec::with_capacity(1000);
        assert!(!prefault(small.spare_capacity_mut()));
    }
}
