//! Joint vectors in bulk ([`Configurations`]) and the configurations file:
//! one joint vector per line.

use super::Robot;
use super::error::JointError;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Joint vectors of one robot, stored one after another in one buffer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Configurations {
    dof: usize,
    count: usize,
    values: Vec<f64>,
}

impl Configurations {
    /// No configurations of `dof` values each.
    pub fn new(dof: usize) -> Self {
        Self {
            dof,
            count: 0,
            values: Vec::new(),
        }
    }

    /// The values per configuration.
    pub fn dof(&self) -> usize {
        self.dof
    }

    /// The number of configurations.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is no configuration.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Appends a configuration.
    ///
    /// # Panics
    /// If `q.len()` is not [`dof`](Self::dof).
    pub fn push(&mut self, q: &[f64]) {
        assert_eq!(q.len(), self.dof, "a configuration has dof values");
        self.values.extend_from_slice(q);
        self.count += 1;
    }

    /// Configuration `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&[f64]> {
        (i < self.count).then(|| &self.values[i * self.dof..(i + 1) * self.dof])
    }

    /// The configurations in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[f64]> + '_ {
        (0..self.count).map(|i| &self.values[i * self.dof..(i + 1) * self.dof])
    }

    /// Every value, configuration after configuration.
    pub fn as_slice(&self) -> &[f64] {
        &self.values
    }
}

/// Whether a configurations file's values must lie within their joints' limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitCheck {
    /// A value outside its joint's limits is an error.
    Enforce,
    /// Values are used as given (still finite).
    Ignore,
}

/// Why a configurations file was refused: the file, the line, and what is
/// wrong. Displays as `file:line: what`.
#[derive(Debug)]
pub struct ConfigsError {
    file: PathBuf,
    line: Option<usize>,
    kind: ConfigsErrorKind,
}

/// What is wrong with a configurations file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ConfigsErrorKind {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// A token is not a number.
    #[error("bad number {token:?}")]
    BadNumber {
        /// The token.
        token: String,
    },
    /// The line's values are not a valid joint vector: the wrong count, a
    /// NaN or infinite value, a value outside its joint's limits.
    #[error(transparent)]
    Joint(#[from] JointError),
}

impl ConfigsError {
    /// The file (`<memory>` for text given as a string).
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The line at fault (1-based), if the error is about one line.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// What is wrong.
    pub fn kind(&self) -> &ConfigsErrorKind {
        &self.kind
    }
}

impl fmt::Display for ConfigsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for ConfigsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl Robot {
    /// Reads a configurations file: one joint vector per line, the
    /// positions of the movable joints that are not mimics
    /// ([`dof_joints`](Self::dof_joints)) in the URDF's order, separated by
    /// white space or commas. Blank lines and `#` comments (whole lines or
    /// line ends) are skipped. The configurations keep the file's order; a
    /// file with none gives an empty list.
    ///
    /// # Errors
    /// A [`ConfigsError`] naming the file and line: a bad number, the
    /// wrong count, a NaN or infinite value, or (with
    /// [`LimitCheck::Enforce`]) a value outside its joint's limits.
    pub fn read_configurations(
        &self,
        path: impl AsRef<Path>,
        limits: LimitCheck,
    ) -> Result<Configurations, ConfigsError> {
        let path = path.as_ref();
        match std::fs::File::open(path) {
            Ok(file) => self.read_configurations_from(file, path, limits),
            Err(e) => Err(ConfigsError {
                file: path.to_path_buf(),
                line: None,
                kind: ConfigsErrorKind::Io(e),
            }),
        }
    }

    /// [`read_configurations`](Self::read_configurations) from a reader
    /// (standard input, say), its errors naming the file `name`.
    ///
    /// # Errors
    /// As [`read_configurations`](Self::read_configurations).
    pub fn read_configurations_from(
        &self,
        mut reader: impl std::io::Read,
        name: &Path,
        limits: LimitCheck,
    ) -> Result<Configurations, ConfigsError> {
        let error = |line, kind| ConfigsError {
            file: name.to_path_buf(),
            line,
            kind,
        };
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| error(None, ConfigsErrorKind::Io(e)))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let bytes = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            error(Some(line), ConfigsErrorKind::NotUtf8)
        })?;
        self.configurations_in(&text, name, limits)
    }

    /// [`read_configurations`](Self::read_configurations) of text given as
    /// a string (errors name the file `<memory>`).
    ///
    /// ```
    /// use clash::robot::{LimitCheck, PackageMap, Robot};
    /// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
    ///   <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    ///     <limit lower="-1" upper="1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, ".", &PackageMap::new()).unwrap();
    /// let configs = robot.parse_configurations("# q\n0.5\n\n-0.25  # tucked\n", LimitCheck::Enforce).unwrap();
    /// assert_eq!(configs.iter().collect::<Vec<_>>(), vec![&[0.5][..], &[-0.25][..]]);
    /// let err = robot.parse_configurations("0.5\n2.0\n", LimitCheck::Enforce).unwrap_err();
    /// assert_eq!(err.line(), Some(2));
    /// assert!(robot.parse_configurations("0.5\n2.0\n", LimitCheck::Ignore).is_ok());
    /// ```
    ///
    /// # Errors
    /// As [`read_configurations`](Self::read_configurations).
    pub fn parse_configurations(
        &self,
        text: &str,
        limits: LimitCheck,
    ) -> Result<Configurations, ConfigsError> {
        self.configurations_in(text, Path::new(super::xml::MEMORY), limits)
    }

    fn configurations_in(
        &self,
        text: &str,
        path: &Path,
        limits: LimitCheck,
    ) -> Result<Configurations, ConfigsError> {
        let mut configs = Configurations::new(self.dof());
        let mut q = Vec::with_capacity(self.dof());
        for (k, line) in text.lines().enumerate() {
            let error = |kind| ConfigsError {
                file: path.to_path_buf(),
                line: Some(k + 1),
                kind,
            };
            let data = line.split_once('#').map_or(line, |(data, _)| data);
            let mut tokens = data
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .peekable();
            if tokens.peek().is_none() {
                continue;
            }
            q.clear();
            for token in tokens {
                let value = token.parse::<f64>().map_err(|_| {
                    error(ConfigsErrorKind::BadNumber {
                        token: token.to_string(),
                    })
                })?;
                q.push(value);
            }
            match limits {
                LimitCheck::Enforce => self.check_limits(&q),
                LimitCheck::Ignore => self.check_values(&q),
            }
            .map_err(|e| error(ConfigsErrorKind::Joint(e)))?;
            configs.push(&q);
        }
        Ok(configs)
    }
}
