//! The one error type of the command: a one-line message.

use std::fmt;

/// A failure to report on one line (exit code 2).
#[derive(Debug)]
pub struct CliError {
    message: String,
    broken_pipe: bool,
}

impl CliError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            broken_pipe: false,
        }
    }

    /// `true` when stdout was closed by the reader (e.g. `| head`): not an error.
    pub fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the source said.
        let one_line: Vec<&str> = self.message.lines().map(str::trim).collect();
        f.write_str(&one_line.join("; "))
    }
}

impl From<std::io::Error> for CliError {
    /// Errors writing the output.
    fn from(e: std::io::Error) -> Self {
        Self {
            broken_pipe: e.kind() == std::io::ErrorKind::BrokenPipe,
            message: format!("writing output: {e}"),
        }
    }
}

/// `Result` with a [`CliError`].
pub type CliResult<T> = Result<T, CliError>;
