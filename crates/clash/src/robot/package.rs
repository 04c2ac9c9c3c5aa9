//! Resolving a URDF's mesh `filename`s to files: `package://` URIs through
//! a [`PackageMap`], `file://` URIs and plain paths relative to the URDF's
//! folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a URDF mesh `filename` names no file ([`PackageMap::resolve`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PathError {
    /// A `package://` URI whose package the map does not know.
    #[error("no directory is given for package {package:?} (add it to the PackageMap)")]
    UnknownPackage {
        /// The package name (the URI's first path component).
        package: String,
    },
    /// A URI of a scheme other than `package://` and `file://`.
    #[error("unsupported URI scheme {scheme:?}")]
    UnsupportedScheme {
        /// The scheme, before `://`.
        scheme: String,
    },
}

/// Where `package://` mesh paths point: from a package name (or a package
/// name followed by folders inside it) to a directory on disk.
///
/// `package://NAME/rest` resolves through the longest key that is a whole
/// leading run of `NAME/rest`'s path components: with the key
/// `example-robot-data/robots/panda_description` mapped to `data/robots/panda`,
/// `package://example-robot-data/robots/panda_description/meshes/collision/link0.stl`
/// is `data/robots/panda/meshes/collision/link0.stl`. A plain package name
/// (ROS's usual `package://NAME` → the package's folder) is the special
/// case of a key with one component.
///
/// ```
/// use clash::robot::PackageMap;
/// use std::path::Path;
/// let map = PackageMap::new()
///     .with("franka_description", "/opt/franka")
///     .with("example-robot-data/robots/panda_description", "data/robots/panda");
/// assert_eq!(map.resolve_package("package://franka_description/meshes/hand.stl"),
///            Some(Path::new("/opt/franka/meshes/hand.stl").to_path_buf()));
/// assert_eq!(map.resolve_package("package://example-robot-data/robots/panda_description/meshes/a.stl"),
///            Some(Path::new("data/robots/panda/meshes/a.stl").to_path_buf()));
/// assert_eq!(map.resolve_package("package://other/a.stl"), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct PackageMap {
    packages: BTreeMap<String, PathBuf>,
}

impl PackageMap {
    /// An empty map: `package://` paths are then an error.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `package` (a name, or a name and folders joined by `/`) to
    /// `dir`, replacing an earlier mapping of the same key.
    pub fn insert(&mut self, package: impl Into<String>, dir: impl Into<PathBuf>) -> &mut Self {
        let key: String = package.into();
        let key = key.trim_matches('/').to_string();
        self.packages.insert(key, dir.into());
        self
    }

    /// [`insert`](Self::insert), by value, for chaining.
    #[must_use]
    pub fn with(mut self, package: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        self.insert(package, dir);
        self
    }

    /// The file a `package://` URI names, or `None` if it is not such a URI
    /// or no key matches.
    pub fn resolve_package(&self, uri: &str) -> Option<PathBuf> {
        let rest = uri.strip_prefix("package://")?;
        let components: Vec<&str> = rest.split('/').filter(|c| !c.is_empty()).collect();
        (1..=components.len()).rev().find_map(|n| {
            let dir = self.packages.get(&components[..n].join("/"))?;
            let mut path = dir.clone();
            path.extend(&components[n..]);
            Some(path)
        })
    }

    /// The file a URDF `filename` names: a `package://` URI through the map,
    /// a `file://` URI as the path after the scheme, any other path
    /// relative to `base_dir` (the URDF's folder) unless absolute.
    ///
    /// # Errors
    /// [`PathError`]: an unmapped package, an unsupported scheme such as
    /// `http://`.
    pub fn resolve(&self, filename: &str, base_dir: &Path) -> Result<PathBuf, PathError> {
        if filename.starts_with("package://") {
            return self.resolve_package(filename).ok_or_else(|| {
                let package = filename["package://".len()..]
                    .split('/')
                    .find(|c| !c.is_empty())
                    .unwrap_or("");
                PathError::UnknownPackage {
                    package: package.to_owned(),
                }
            });
        }
        if let Some(path) = filename.strip_prefix("file://") {
            return Ok(PathBuf::from(path));
        }
        if let Some((scheme, _)) = filename.split_once("://") {
            return Err(PathError::UnsupportedScheme {
                scheme: scheme.to_owned(),
            });
        }
        Ok(base_dir.join(filename))
    }
}
