//! Which `Bvh<T, B>` a file holds or a command builds, and the dispatch from
//! that run-time choice to the generic code.

use crate::args::{BvKind, Precision};
use crate::error::{CliError, CliResult};
use clash::bvh::io::TreeHeader;
use std::path::Path;

/// A scalar type and a volume type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeKind {
    /// f32 or f64.
    pub precision: Precision,
    /// The volume type.
    pub bv: BvKind,
}

impl TreeKind {
    /// The kind named in a tree file's header.
    pub fn from_header(header: &TreeHeader, path: &Path) -> CliResult<Self> {
        let precision = match header.scalar.as_str() {
            "f32" => Precision::F32,
            "f64" => Precision::F64,
            other => {
                return Err(CliError::new(format!(
                    "{}: unknown scalar type {other:?} in the tree header",
                    path.display()
                )));
            }
        };
        let bv = match header.volume.as_str() {
            "aabb" => BvKind::Aabb,
            "obb" => BvKind::Obb,
            "rss" => BvKind::Rss,
            "sphere" => BvKind::Sphere,
            "capsule" => BvKind::Capsule,
            "kdop14" => BvKind::Kdop14,
            "kdop18" => BvKind::Kdop18,
            "kdop26" => BvKind::Kdop26,
            other => {
                return Err(CliError::new(format!(
                    "{}: unknown volume type {other:?} in the tree header",
                    path.display()
                )));
            }
        };
        Ok(Self { precision, bv })
    }

    /// `obb/f64` and the like.
    pub fn name(&self) -> String {
        let bv = match self.bv {
            BvKind::Aabb => "aabb",
            BvKind::Obb => "obb",
            BvKind::Rss => "rss",
            BvKind::Sphere => "sphere",
            BvKind::Capsule => "capsule",
            BvKind::Kdop14 => "kdop14",
            BvKind::Kdop18 => "kdop18",
            BvKind::Kdop26 => "kdop26",
        };
        let scalar = match self.precision {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        };
        format!("{bv}/{scalar}")
    }
}

/// Calls the generic function `$f::<T, B>($args)` for the scalar and volume
/// types of a [`TreeKind`].
macro_rules! with_tree_kind {
    ($kind:expr, $f:ident ( $($arg:expr),* $(,)? )) => {{
        use $crate::args::{BvKind, Precision};
        use clash::bv::{Aabb, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
        let kind: $crate::tree_kind::TreeKind = $kind;
        match (kind.precision, kind.bv) {
            (Precision::F64, BvKind::Aabb) => $f::<f64, Aabb<f64>>($($arg),*),
            (Precision::F64, BvKind::Obb) => $f::<f64, Obb<f64>>($($arg),*),
            (Precision::F64, BvKind::Rss) => $f::<f64, Rss<f64>>($($arg),*),
            (Precision::F64, BvKind::Sphere) => $f::<f64, Sphere<f64>>($($arg),*),
            (Precision::F64, BvKind::Capsule) => $f::<f64, Capsule<f64>>($($arg),*),
            (Precision::F64, BvKind::Kdop14) => $f::<f64, Kdop14<f64>>($($arg),*),
            (Precision::F64, BvKind::Kdop18) => $f::<f64, Kdop18<f64>>($($arg),*),
            (Precision::F64, BvKind::Kdop26) => $f::<f64, Kdop26<f64>>($($arg),*),
            (Precision::F32, BvKind::Aabb) => $f::<f32, Aabb<f32>>($($arg),*),
            (Precision::F32, BvKind::Obb) => $f::<f32, Obb<f32>>($($arg),*),
            (Precision::F32, BvKind::Rss) => $f::<f32, Rss<f32>>($($arg),*),
            (Precision::F32, BvKind::Sphere) => $f::<f32, Sphere<f32>>($($arg),*),
            (Precision::F32, BvKind::Capsule) => $f::<f32, Capsule<f32>>($($arg),*),
            (Precision::F32, BvKind::Kdop14) => $f::<f32, Kdop14<f32>>($($arg),*),
            (Precision::F32, BvKind::Kdop18) => $f::<f32, Kdop18<f32>>($($arg),*),
            (Precision::F32, BvKind::Kdop26) => $f::<f32, Kdop26<f32>>($($arg),*),
        }
    }};
}
pub(crate) use with_tree_kind;

impl TreeKind {
    /// `obb/f64` and the like, for the types of a generic function.
    pub fn name_of<T: clash::math::Scalar, B: clash::bv::FlatVolume<T>>() -> String {
        format!("{}/{}", B::NAME, T::NAME)
    }
}
