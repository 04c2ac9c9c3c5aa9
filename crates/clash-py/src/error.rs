//! The package's errors: what Python sees for each failure, decided in plain
//! Rust (so it is unit-tested without an interpreter) and turned into a
//! Python exception at the boundary.
//!
//! Bad input is a `ValueError`, a failure to read or write a file an
//! `OSError` (`FileNotFoundError`, `PermissionError`, ... by the error's
//! kind), with the command line's messages. A panic is a bug, never an
//! answer to input: [`catch_panic`] turns one into a `RuntimeError` rather
//! than pyo3's `PanicException`, which Python code does not expect.

use pyo3::PyErr;
use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyOSError,
    PyPermissionError, PyRuntimeError, PyValueError,
};
use std::io::ErrorKind;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// A failure, with the exception type Python gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Bad input: `ValueError`.
    Value(String),
    /// A file could not be read or written: `OSError` or the subclass of
    /// its kind.
    Os {
        /// What went wrong (`std::io::ErrorKind`), for the subclass.
        kind: ErrorKind,
        /// The OS error number, when there is one.
        errno: Option<i32>,
        /// The message, naming the file.
        message: String,
    },
    /// A bug (a caught panic): `RuntimeError`.
    Internal(String),
}

/// `Result` with an [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A file error: `"{path}: {e}"`, as the command line says it.
    pub fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Os {
            kind: e.kind(),
            errno: e.raw_os_error(),
            message: format!("{}: {e}", path.display()),
        }
    }

    /// A tree file or bytes that could not be loaded: an `OSError` when
    /// reading failed, a `ValueError` when the content is wrong. `what`
    /// names the source (a path, or `"bytes"`).
    pub fn load(what: &str, e: clash::bvh::LoadError) -> Self {
        match e {
            clash::bvh::LoadError::Io(io) => Self::Os {
                kind: io.kind(),
                errno: io.raw_os_error(),
                message: format!("{what}: {io}"),
            },
            other => Self::Value(format!("{what}: {other}")),
        }
    }

    /// A mesh file that could not be loaded: an `OSError` when reading
    /// failed, a `ValueError` when the file is malformed or invalid. The
    /// message names the file (and line), as on the command line.
    pub fn mesh_file(e: clash::mesh_file::MeshFileError) -> Self {
        match &e {
            clash::mesh_file::MeshFileError::Io { source, .. } => Self::Os {
                kind: source.kind(),
                errno: source.raw_os_error(),
                message: e.to_string(),
            },
            _ => Self::Value(e.to_string()),
        }
    }

    /// The message alone.
    pub fn message(&self) -> &str {
        match self {
            Self::Value(m) | Self::Internal(m) => m,
            Self::Os { message, .. } => message,
        }
    }

    /// The same error with `prefix: ` before its message.
    pub fn context(self, prefix: &str) -> Self {
        let with = |m: String| format!("{prefix}: {m}");
        match self {
            Self::Value(m) => Self::Value(with(m)),
            Self::Internal(m) => Self::Internal(with(m)),
            Self::Os {
                kind,
                errno,
                message,
            } => Self::Os {
                kind,
                errno,
                message: with(message),
            },
        }
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Value(m) => PyValueError::new_err(m),
            Error::Internal(m) => PyRuntimeError::new_err(m),
            Error::Os {
                kind,
                errno,
                message,
            } => {
                // `OSError(errno, message)` sets `.errno` and `.strerror`;
                // without an errno, the message alone.
                macro_rules! os {
                    ($ty:ty) => {
                        match errno {
                            Some(n) => <$ty>::new_err((n, message)),
                            None => <$ty>::new_err(message),
                        }
                    };
                }
                match kind {
                    ErrorKind::NotFound => os!(PyFileNotFoundError),
                    ErrorKind::PermissionDenied => os!(PyPermissionError),
                    ErrorKind::AlreadyExists => os!(PyFileExistsError),
                    ErrorKind::IsADirectory => os!(PyIsADirectoryError),
                    ErrorKind::NotADirectory => os!(PyNotADirectoryError),
                    _ => os!(PyOSError),
                }
            }
        }
    }
}

/// Runs `f`, turning a panic into [`Error::Internal`]. No input should
/// reach a panic; this keeps a bug from crossing into Python as pyo3's
/// `PanicException` (a `BaseException`, which `except Exception` misses).
pub fn catch_panic<R>(f: impl FnOnce() -> Result<R>) -> Result<R> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::Internal(format!(
            "internal error in clash (please report it): {what}"
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash::bvh::LoadError;

    #[test]
    fn file_errors_name_the_file_and_keep_their_kind() {
        let e = std::io::Error::from_raw_os_error(2);
        let err = Error::io(Path::new("/nowhere/a.clash"), &e);
        match &err {
            Error::Os {
                kind,
                errno,
                message,
            } => {
                assert_eq!(*kind, ErrorKind::NotFound);
                assert_eq!(*errno, Some(2));
                assert!(message.starts_with("/nowhere/a.clash: "), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn load_errors_split_into_os_and_value_errors() {
        let io = Error::load(
            "t.clash",
            LoadError::Io(std::io::Error::from_raw_os_error(13)),
        );
        assert!(matches!(
            io,
            Error::Os {
                kind: ErrorKind::PermissionDenied,
                errno: Some(13),
                ..
            }
        ));
        assert_eq!(
            Error::load("bytes", LoadError::BadMagic),
            Error::Value("bytes: not a clash tree file (bad magic number)".into())
        );
        assert_eq!(
            Error::load("t.clash", LoadError::Checksum),
            Error::Value("t.clash: checksum mismatch: the tree file is corrupt".into())
        );
    }

    #[test]
    fn mesh_file_errors_keep_the_command_line_message() {
        let missing = clash::mesh_file::load_mesh::<f64>("/nowhere/m.obj").unwrap_err();
        let e = Error::mesh_file(missing);
        assert!(matches!(
            e,
            Error::Os {
                kind: ErrorKind::NotFound,
                ..
            }
        ));
        assert!(e.message().starts_with("/nowhere/m.obj: "));
        let unknown = clash::mesh_file::load_mesh::<f64>("m.txt").unwrap_err();
        assert_eq!(
            Error::mesh_file(unknown),
            Error::Value("m.txt: unknown mesh format (expected a .obj, .stl or .ply file)".into())
        );
    }

    #[test]
    fn context_prefixes_the_message_and_keeps_the_type() {
        assert_eq!(
            Error::Value("bad".into()).context("poses[3]"),
            Error::Value("poses[3]: bad".into())
        );
        let os = Error::io(Path::new("f"), &std::io::Error::from_raw_os_error(2)).context("x");
        assert!(os.message().starts_with("x: f: "));
    }

    #[test]
    fn panics_become_internal_errors() {
        let r: Result<()> = catch_panic(|| panic!("boom {}", 7));
        assert_eq!(
            r,
            Err(Error::Internal(
                "internal error in clash (please report it): boom 7".into()
            ))
        );
        assert_eq!(catch_panic(|| Ok(3)), Ok(3));
    }
}
