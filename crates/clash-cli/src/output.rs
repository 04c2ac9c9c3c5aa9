//! JSON lines on stdout, progress bars and summaries on stderr.

use crate::error::CliResult;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{BufWriter, StdoutLock, Write};
use std::time::Duration;

/// Writes one JSON object per line to stdout.
pub struct JsonLines {
    out: BufWriter<StdoutLock<'static>>,
}

impl JsonLines {
    /// A writer on stdout.
    pub fn stdout() -> Self {
        Self {
            out: BufWriter::new(std::io::stdout().lock()),
        }
    }

    /// Writes `value` and a newline.
    pub fn write<V: Serialize>(&mut self, value: &V) -> CliResult<()> {
        serde_json::to_writer(&mut self.out, value).map_err(std::io::Error::from)?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// Flushes what is buffered.
    pub fn finish(mut self) -> CliResult<()> {
        self.out.flush()?;
        Ok(())
    }
}

/// A progress bar on stderr for `len` steps (drawn only when stderr is a terminal).
pub fn progress(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// A spinner on stderr for work of unknown length.
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// `12.3 ms`, `1.23 s`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// `[x, y, z]` as f64 for JSON.
pub fn xyz<T: clash::math::Scalar>(p: &clash::math::Point3<T>) -> [f64; 3] {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}
