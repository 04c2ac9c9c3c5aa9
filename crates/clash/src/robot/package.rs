//! Resolving a URDF's mesh `filename`s to files: `package://` URIs through
//! a [`PackageMap`] (its folders, then the packages found on its search
//! path, then above the URDF), `file://` URIs and plain paths relative to
//! the URDF's folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a URDF mesh `filename` names no file ([`PackageMap::resolve`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PathError {
    /// A `package://` URI whose package is neither in the map, nor on its
    /// search path, nor a folder above the URDF.
    #[error(
        "package {package:?} was not found (searched the folders given for packages, \
         ROS_PACKAGE_PATH and the folders above the URDF)"
    )]
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
/// A package the map does not hold is then looked for on disk, as ROS
/// tools look for it: in the folders of the search path
/// ([`PackageMap::from_env`] takes `ROS_PACKAGE_PATH`'s), a folder named
/// `NAME` or holding a `package.xml` whose `<name>` is `NAME`, up to
/// [`PACKAGE_SEARCH_DEPTH`] levels down; then among the folders holding the URDF
/// (its own and each one above it), one named `NAME` or holding such a
/// `package.xml`. Folders are visited in name order, so the same tree
/// always gives the same file.
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
    search_path: Vec<PathBuf>,
}

/// How many levels below a search path folder a package is looked for.
pub const PACKAGE_SEARCH_DEPTH: usize = 3;

impl PackageMap {
    /// An empty map with no search path: `package://` paths then resolve
    /// only to folders above the URDF.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty map whose search path is `ROS_PACKAGE_PATH`'s folders (none
    /// when it is not set), as the command line and the Python package
    /// use.
    pub fn from_env() -> Self {
        let dirs: Vec<PathBuf> = std::env::var_os("ROS_PACKAGE_PATH")
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_default();
        Self::new().with_search_path(dirs)
    }

    /// Replaces the search path: folders in which packages the map does
    /// not hold are looked for, in this order.
    #[must_use]
    pub fn with_search_path(mut self, dirs: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        self.search_path = dirs
            .into_iter()
            .map(Into::into)
            .filter(|d: &PathBuf| !d.as_os_str().is_empty())
            .collect();
        self
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
    /// else through the package found on disk (see [`PackageMap`]), a
    /// `file://` URI as the path after the scheme, any other path relative
    /// to `base_dir` (the URDF's folder) unless absolute.
    ///
    /// # Errors
    /// [`PathError`]: a package found nowhere, an unsupported scheme such
    /// as `http://`.
    pub fn resolve(&self, filename: &str, base_dir: &Path) -> Result<PathBuf, PathError> {
        if let Some(rest) = filename.strip_prefix("package://") {
            if let Some(path) = self.resolve_package(filename) {
                return Ok(path);
            }
            let mut components = rest.split('/').filter(|c| !c.is_empty());
            let package = components.next().unwrap_or("");
            let dir = self
                .search_path
                .iter()
                .find_map(|d| search::below(d, package, PACKAGE_SEARCH_DEPTH))
                .or_else(|| search::above(base_dir, package));
            return match dir {
                Some(mut path) => {
                    path.extend(components);
                    Ok(path)
                }
                None => Err(PathError::UnknownPackage {
                    package: package.to_owned(),
                }),
            };
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

/// Finding a package's folder on disk.
mod search {
    use std::path::{Path, PathBuf};

    /// Whether `dir` is package `name`'s folder: named so, or holding a
    /// `package.xml` whose `<name>` is `name`.
    fn is_package(dir: &Path, name: &str) -> bool {
        dir.file_name().is_some_and(|n| n == name) || manifest_name(dir).as_deref() == Some(name)
    }

    /// The `<name>` of `dir/package.xml`, if it has one.
    fn manifest_name(dir: &Path) -> Option<String> {
        let text = std::fs::read_to_string(dir.join("package.xml")).ok()?;
        let doc = roxmltree::Document::parse(&text).ok()?;
        let name = doc
            .root_element()
            .children()
            .find(|n| n.has_tag_name("name"))?;
        Some(name.text()?.trim().to_owned())
    }

    /// The first folder in `dir` or up to `depth` levels below it (breadth
    /// first, folders in name order) that is package `name`'s.
    pub(super) fn below(dir: &Path, name: &str, depth: usize) -> Option<PathBuf> {
        let mut level = vec![dir.to_path_buf()];
        for _ in 0..=depth {
            let mut next = Vec::new();
            for d in level {
                if is_package(&d, name) {
                    return Some(d);
                }
                let Ok(entries) = std::fs::read_dir(&d) else {
                    continue;
                };
                let mut subdirs: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok())
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .map(|e| e.path())
                    .collect();
                subdirs.sort();
                next.extend(subdirs);
            }
            level = next;
        }
        None
    }

    /// The first of `base_dir` and the folders above it that is package
    /// `name`'s.
    pub(super) fn above(base_dir: &Path, name: &str) -> Option<PathBuf> {
        let base = base_dir
            .canonicalize()
            .unwrap_or_else(|_| base_dir.to_path_buf());
        base.ancestors()
            .find(|d| !d.as_os_str().is_empty() && is_package(d, name))
            .map(Path::to_path_buf)
    }
}
