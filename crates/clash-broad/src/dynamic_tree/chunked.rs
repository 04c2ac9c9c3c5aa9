//! Order-keeping parallel loops of the pair search: a list is cut into
//! chunks of a fixed size (set by the caller, not by the number of
//! threads), each chunk's output is gathered in its own buffer on whichever
//! thread runs it, and the buffers are appended in chunk order. The output
//! is that of the sequential loop, whatever the number of threads; short
//! lists, and every list on a pool of one thread, run the sequential loop
//! on the calling thread.
use rayon::prelude::*;

/// Runs `each(slice, scratch, out)` over `items`, appending to `out`: once
/// over the whole list on the calling thread (with `scratch`) when it holds
/// fewer than two chunks or the pool has one thread, else once per chunk of `chunk` items in parallel
/// (rayon), each with its own scratch and output, appended to `out` in chunk
/// order. `each` must handle a slice as the concatenation of its items
/// (the output of a slice is the outputs of its items, in order).
pub(crate) fn for_each_in_order<I, O, S>(
    items: &[I],
    chunk: usize,
    scratch: &mut S,
    out: &mut Vec<O>,
    each: impl Fn(&[I], &mut S, &mut Vec<O>) + Sync,
) where
    I: Sync,
    O: Send + Copy,
    S: Default + Send,
{
    let chunk = chunk.max(1);
    if items.len() < 2 * chunk || rayon::current_num_threads() == 1 {
        each(items, scratch, out);
        return;
    }
    let parts: Vec<Vec<O>> = items
        .par_chunks(chunk)
        .map(|chunk| {
            let (mut s, mut o) = (S::default(), Vec::new());
            each(chunk, &mut s, &mut o);
            o
        })
        .collect();
    out.reserve(parts.iter().map(Vec::len).sum());
    for p in &parts {
        out.extend_from_slice(p);
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_in_order;

    /// Same output as the sequential loop, on pools of 1 to 3 threads, for
    /// lists shorter than a chunk, of whole chunks and with a partial last
    /// chunk; the scratch passed in is used only on the sequential path.
    #[test]
    fn chunks_keep_the_order_of_the_sequential_loop() {
        let each = |c: &[u32], seen: &mut usize, out: &mut Vec<u64>| {
            *seen += c.len();
            for &x in c {
                // Zero to two outputs per item.
                for k in 0..x % 3 {
                    out.push(u64::from(x) << 8 | u64::from(k));
                }
            }
        };
        const CHUNK: usize = 64;
        for len in [0, 1, 2 * CHUNK - 1, 2 * CHUNK, 5 * CHUNK + 17] {
            let items: Vec<u32> = (0..len as u32)
                .map(|i| i.wrapping_mul(2_654_435_761))
                .collect();
            let mut expect = vec![7];
            each(&items, &mut 0, &mut expect);
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (mut out, mut seen) = (vec![7], 0);
                pool.install(|| for_each_in_order(&items, CHUNK, &mut seen, &mut out, each));
                assert_eq!(out, expect, "{len} items, {threads} threads");
                let sequential = len < 2 * CHUNK || threads == 1;
                assert_eq!(seen, if sequential { len } else { 0 }, "{len} items");
            }
        }
    }
}
