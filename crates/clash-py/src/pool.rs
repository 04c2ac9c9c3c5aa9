//! The thread pools batches run on: rayon's global pool (one thread per
//! core, or `RAYON_NUM_THREADS`) by default, or a pool of the size asked
//! for, started on first use and kept for later calls (starting threads per
//! call would cost more than a small batch).

use crate::error::{Error, Result};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use rayon::ThreadPool;
use std::sync::{Arc, Mutex, OnceLock};

/// Pools started so far, with their thread counts.
type Pools = Mutex<Vec<(usize, Arc<ThreadPool>)>>;

/// Pools started so far, by thread count.
static POOLS: OnceLock<Pools> = OnceLock::new();

/// The worker count a `threads=` argument asks for: `None` or `0` for the
/// global pool (every core), else that many.
///
/// # Errors
/// [`Error::Value`] for a negative count.
pub fn threads_arg(threads: Option<i64>) -> Result<Option<usize>> {
    match threads {
        None | Some(0) => Ok(None),
        Some(n) => usize::try_from(n)
            .map(Some)
            .map_err(|_| Error::Value(format!("threads must be positive or None, not {n}"))),
    }
}

/// The `threads=` argument of the batch calls, as given: `None` or an int
/// (checked by [`threads_arg`]).
///
/// # Errors
/// `TypeError` naming `threads` for anything but an int or `None`,
/// `ValueError` for an int beyond 64 bits (pyo3's own conversion would
/// raise an `OverflowError` that names no argument).
pub fn threads_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if obj.is_none() {
        return Ok(None);
    }
    if !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "threads must be an int or None, not {}",
            obj.get_type().name()?
        )));
    }
    obj.extract::<i64>().map(Some).map_err(|_| {
        Error::Value(format!(
            "threads must be positive or None, not {}",
            obj.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))
        .into()
    })
}

/// A pool of `threads` workers, started once.
fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    // A poisoned lock only means another call panicked while holding it;
    // the list itself is always valid.
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("clash-{i}"))
            .build()
            .map_err(|e| Error::Value(format!("cannot start {threads} threads: {e}")))?,
    );
    pools.push((threads, p.clone()));
    Ok(p)
}

/// Runs `f` on the pool `threads` names (see [`threads_arg`]): rayon's
/// parallel iterators inside `f` use that pool's workers.
///
/// # Errors
/// [`Error::Value`] when the pool cannot be started.
pub fn run<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    match threads {
        None => Ok(f()),
        Some(n) => Ok(pool(n)?.install(f)),
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
    }

    #[test]
    fn thread_arguments() {
        assert_eq!(threads_arg(None), Ok(None));
        assert_eq!(threads_arg(Some(0)), Ok(None));
        assert_eq!(threads_arg(Some(4)), Ok(Some(4)));
        assert_eq!(
            threads_arg(Some(-2)),
            Err(Error::Value(
                "threads must be positive or None, not -2".into()
            ))
        );
    }
}
