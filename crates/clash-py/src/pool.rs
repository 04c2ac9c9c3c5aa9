//! Where a call's work runs: on the calling thread for a small batch, else
//! on a rayon pool: rayon's global pool (one thread per core) by default,
//! or a pool of the size `threads=` asks for, started on first use and
//! kept for later calls (starting threads per call would cost more than a
//! small batch).
//!
//! Handing work to a pool and waiting for it costs microseconds, more than
//! one convex or mesh query; so a batch of at most [`INLINE_ITEMS`] items,
//! or any batch with `threads=1`, runs on the calling thread, and the
//! batch loops ([`map`], [`map_chunks`]) run sequentially there.
//!
//! A process made by `fork` inherits the pools but not their threads: a
//! job handed to them would wait forever. Pools are therefore kept per
//! process, and in a forked child (a process other than the one that
//! imported the module, [`init`]) work that would go to rayon's global
//! pool, which cannot be replaced, goes to a pool the child starts instead
//! ([`run`], [`on_pool`]).

use crate::error::{Error, Result, catch_panic};
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use rayon::ThreadPool;
use rayon::prelude::*;
use std::cell::Cell;
use std::ffi::CString;
use std::sync::{Arc, Mutex, OnceLock};

/// Most threads per available core that `threads=` starts (as the command
/// line's `--threads`): more only time-share the cores, and thousands
/// spend longer starting and switching than the work takes.
pub const PER_CORE: usize = 4;

/// Batches of at most this many items run on the calling thread.
pub const INLINE_ITEMS: usize = 16;

/// A pool, the process that started it and its thread count (`0`: one per
/// core, as rayon counts them).
struct Started {
    pid: u32,
    threads: usize,
    pool: Arc<ThreadPool>,
}

/// Pools started so far.
static POOLS: Mutex<Vec<Started>> = Mutex::new(Vec::new());

thread_local! {
    /// Whether this thread is running a batch inline (see [`run_batch`]).
    static INLINE: Cell<bool> = const { Cell::new(false) };
}

/// Cores available to this process (at least 1), read once: the standard
/// library reads them from the kernel's cgroup files, which costs more than
/// a small call.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The `threads=` argument of the batch calls: `None` (one thread per
/// core) or a positive int; an int above [`PER_CORE`] threads per core is
/// lowered to that, with a `UserWarning`.
///
/// # Errors
/// `ValueError` naming `threads` for anything else (zero, negative, bool,
/// float, string).
pub fn threads_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if obj.is_none() {
        return Ok(None);
    }
    let is_int = obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>();
    if !is_int || obj.lt(1)? {
        let repr = obj.repr().map_or_else(|_| "?".into(), |r| r.to_string());
        let what = if is_int {
            repr
        } else {
            format!("{repr} ({})", obj.get_type().name()?)
        };
        return Err(Error::Value(format!(
            "threads must be a positive int or None, not {what}"
        ))
        .into());
    }
    let requested = obj.extract::<usize>().unwrap_or(usize::MAX);
    let cores = cores();
    let limit = cores * PER_CORE;
    if requested <= limit {
        return Ok(Some(requested));
    }
    let note = format!(
        "threads={} is more than {PER_CORE} per core; using {limit} ({cores} cores here: extra \
         threads would only time-share them)",
        obj.repr()?
    );
    let message = CString::new(note).map_err(|e| Error::Internal(e.to_string()))?;
    PyErr::warn(obj.py(), &obj.py().get_type::<PyUserWarning>(), &message, 2)?;
    Ok(Some(limit))
}

/// This process's pool of `threads` workers (`0`: one per core), started
/// once per process.
fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    let pid = std::process::id();
    // A poisoned lock only means another call panicked while holding it;
    // the list itself is always valid.
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    // Pools of the process this one was forked from have no threads here.
    // Dropping one would signal threads that do not exist, through locks
    // that a thread of the parent may have held at the fork: they are
    // leaked instead, once per fork.
    let stale: Vec<Started> = pools.extract_if(.., |s| s.pid != pid).collect();
    std::mem::forget(stale);
    if let Some(s) = pools.iter().find(|s| s.threads == threads) {
        return Ok(s.pool.clone());
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("clash-{i}"))
            .build()
            .map_err(|e| Error::Value(format!("cannot start {threads} threads: {e}")))?,
    );
    pools.push(Started {
        pid,
        threads,
        pool: pool.clone(),
    });
    Ok(pool)
}

/// The process that imported the module: the one whose rayon global pool
/// has its threads.
static HOME: OnceLock<u32> = OnceLock::new();

/// Records the importing process (the module's initialisation calls it).
pub fn init() {
    HOME.get_or_init(std::process::id);
}

/// Whether this process was forked from the one that imported the module.
fn forked() -> bool {
    HOME.get().is_some_and(|&pid| pid != std::process::id())
}

/// Runs `f` on the pool `threads` names (`None`: one thread per core, on
/// rayon's global pool unless this process was forked): rayon's parallel
/// iterators inside `f` use that pool's workers.
///
/// # Errors
/// [`Error::Value`] when the pool cannot be started.
pub fn run<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    match threads {
        None if !forked() => Ok(f()),
        n => Ok(pool(n.unwrap_or(0))?.install(f)),
    }
}

/// [`catch_panic`]`(f)` where rayon's parallel iterators inside `f` (tree
/// loading, world updates) have threads: here, or on a pool of this
/// process in a forked child.
///
/// # Errors
/// `f`'s, or [`Error::Value`] when the pool cannot be started.
pub fn on_pool<R: Send>(f: impl FnOnce() -> Result<R> + Send) -> Result<R> {
    if forked() {
        run(None, || catch_panic(f))?
    } else {
        catch_panic(f)
    }
}

/// Runs a batch of `items` items, whose loops are [`map`] and
/// [`map_chunks`]: on the calling thread, sequentially, when there are at
/// most [`INLINE_ITEMS`] or `threads` is 1; else as [`run`] does.
///
/// # Errors
/// [`Error::Value`] when the pool cannot be started.
pub fn run_batch<R: Send>(
    threads: Option<usize>,
    items: usize,
    f: impl FnOnce() -> R + Send,
) -> Result<R> {
    if items > INLINE_ITEMS && threads != Some(1) {
        return run(threads, f);
    }
    /// Clears the flag however `f` ends (a panic is caught further up).
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            INLINE.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(INLINE.with(|c| c.replace(true)));
    Ok(f())
}

/// Whether the current batch runs on the calling thread.
pub fn inline() -> bool {
    INLINE.with(Cell::get)
}

/// `f(i, item)` for each item, in input order: in parallel on the current
/// pool, or sequentially when the batch runs inline.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    if inline() {
        items.iter().enumerate().map(|(i, x)| f(i, x)).collect()
    } else {
        items.par_iter().enumerate().map(|(i, x)| f(i, x)).collect()
    }
}

/// `f(i, chunk)` for each whole chunk of `size` items, in input order, as
/// [`map`] runs.
pub fn map_chunks<T: Sync, R: Send>(
    items: &[T],
    size: usize,
    f: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    if inline() {
        items
            .chunks_exact(size)
            .enumerate()
            .map(|(i, x)| f(i, x))
            .collect()
    } else {
        items
            .par_chunks_exact(size)
            .enumerate()
            .map(|(i, x)| f(i, x))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_have_the_size_asked_for_and_are_reused() {
        assert_eq!(run(Some(3), rayon::current_num_threads).unwrap(), 3);
        assert_eq!(run(Some(1), rayon::current_num_threads).unwrap(), 1);
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(
            run(None, rayon::current_num_threads).unwrap(),
            rayon::current_num_threads()
        );
        assert_eq!(
            pool(0).unwrap().current_num_threads(),
            rayon::current_num_threads()
        );
    }

    #[test]
    fn small_batches_and_one_thread_run_on_the_calling_thread() {
        let me = std::thread::current().id();
        let here = || (std::thread::current().id(), inline());
        assert_eq!(run_batch(None, INLINE_ITEMS, here).unwrap(), (me, true));
        assert_eq!(run_batch(Some(1), 1 << 20, here).unwrap(), (me, true));
        let (thread, flag) = run_batch(Some(2), INLINE_ITEMS + 1, here).unwrap();
        assert!(thread != me && !flag);
        assert!(!inline(), "the flag is cleared after the batch");
    }

    #[test]
    fn both_loops_answer_in_input_order_inline_or_not() {
        let items: Vec<u32> = (0..1000).collect();
        let expect: Vec<u64> = items.iter().map(|&x| u64::from(x) * 3 + 1).collect();
        let pairs: Vec<u32> = items.chunks_exact(2).map(|c| c[0] + c[1]).collect();
        for count in [1, 1000] {
            let (m, c) = run_batch(Some(2), count, || {
                (
                    map(&items, |i, &x| {
                        assert_eq!(i as u32, x);
                        u64::from(x) * 3 + 1
                    }),
                    map_chunks(&items, 2, |_, c| c[0] + c[1]),
                )
            })
            .unwrap();
            assert_eq!(m, expect);
            assert_eq!(c, pairs);
        }
    }
}
