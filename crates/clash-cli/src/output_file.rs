//! The file `clash build` writes: checked before the build (never the input
//! mesh, however spelled; a folder that exists and can be written), and
//! written through a temporary file renamed over it at the end, so that a
//! failed build or write leaves no empty or partial file, and an existing
//! file as it was.

use crate::error::{CliError, CliResult};
use std::fs;
use std::path::{Path, PathBuf};

/// An output file checked for writing.
#[derive(Debug)]
pub struct OutputFile {
    /// As the user named it (for messages).
    shown: PathBuf,
    /// Where the bytes go: the file itself, or a link's target.
    target: PathBuf,
    /// The temporary file next to `target`.
    partial: PathBuf,
}

impl OutputFile {
    /// Checks that `output` can be written and is not the file `input`, before
    /// any work is done. Nothing is left on disk.
    pub fn prepare(output: &Path, input: &Path) -> CliResult<Self> {
        let at = |message: String| CliError::new(format!("{}: {message}", output.display()));
        if output.is_dir() {
            return Err(at("is a folder; name the tree file to write".into()));
        }
        // A link is followed: the tree replaces its target, as a plain write would.
        let target = match fs::canonicalize(output) {
            Ok(existing) => existing,
            Err(_) => {
                let name = output
                    .file_name()
                    .ok_or_else(|| at("names no file".into()))?;
                let folder = match output.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let canonical = fs::canonicalize(folder).map_err(|e| {
                    at(format!(
                        "cannot write there: the folder {} {}",
                        folder.display(),
                        if e.kind() == std::io::ErrorKind::NotFound {
                            "does not exist".to_string()
                        } else {
                            format!("cannot be opened ({e})")
                        }
                    ))
                })?;
                if !canonical.is_dir() {
                    return Err(at(format!(
                        "cannot write there: {} is not a folder",
                        folder.display()
                    )));
                }
                canonical.join(name)
            }
        };
        if same_file(input, &target) {
            return Err(at(format!(
                "is the input mesh {}; refusing to write the tree over it (choose another output, e.g. a .clash file)",
                input.display()
            )));
        }
        // Writable: an existing file opened for writing without changing it,
        // and the folder by creating and removing the temporary file.
        if target.exists() {
            fs::OpenOptions::new()
                .append(true)
                .open(&target)
                .map_err(|e| at(format!("cannot write: {e}")))?;
        }
        let file_name = target.file_name().unwrap_or_default().to_string_lossy();
        let partial = target.with_file_name(format!(".{file_name}.partial-{}", std::process::id()));
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .map_err(|e| at(format!("cannot write in its folder: {e}")))?;
        let _ = fs::remove_file(&partial);
        Ok(Self {
            shown: output.to_path_buf(),
            target,
            partial,
        })
    }

    /// Writes the file: `write` fills the temporary file at the path it is
    /// given, which then replaces the output. On failure nothing is left but
    /// what was there before.
    pub fn write(&self, write: impl FnOnce(&Path) -> std::io::Result<()>) -> CliResult<()> {
        let written = write(&self.partial).and_then(|()| fs::rename(&self.partial, &self.target));
        written.map_err(|e| {
            let _ = fs::remove_file(&self.partial);
            CliError::new(format!("{}: {e}", self.shown.display()))
        })
    }
}

/// `true` when `a` and `b` name the same existing file: the same canonical
/// path (any spelling, symbolic links), or on Unix the same inode (hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ca), Ok(cb)) = (fs::canonicalize(a), fs::canonicalize(b)) else {
        return false;
    };
    if ca == cb {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (fs::metadata(&ca), fs::metadata(&cb)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    false
}
