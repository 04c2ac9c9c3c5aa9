//! The worker pool of `--threads`: its size, capped at a few threads per
//! core, and running work on it.
//!
//! Every query is CPU-bound and its answers do not depend on the thread
//! count, so threads beyond the cores only time-share them, and thousands
//! of threads spend longer starting and switching than the work takes. A
//! request above [`PER_CORE`] threads per core is lowered to that, with a
//! note on stderr, rather than refused: a script written for a larger
//! machine still runs, and gives the same answers.

use crate::error::{CliError, CliResult};
use clash::bvh::BatchOptions;

/// Most threads per available core that `--threads` starts.
pub const PER_CORE: usize = 4;

/// Cores available to this process (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The pool size for a `--threads` request: `0` (one per core) stays `0`,
/// anything above [`PER_CORE`] per core becomes that limit, with a note
/// on stderr.
pub fn capped(requested: usize) -> usize {
    let cores = cores();
    let limit = cores * PER_CORE;
    if requested > limit {
        eprintln!(
            "clash: note: --threads {requested} is more than {PER_CORE} per core; using {limit} \
             ({cores} cores here: extra threads would only time-share them)"
        );
        limit
    } else {
        requested
    }
}

/// Runs `f` on a rayon pool of `threads` workers (0: one per core).
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> CliResult<R> {
    BatchOptions::threads(threads)
        .run(f)
        .map_err(|e| CliError::new(e.to_string()))
}
