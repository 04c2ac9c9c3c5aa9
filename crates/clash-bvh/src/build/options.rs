//! The options of a build: split rule, node fit, leaf size and depth.

use clash_bv::{FitError, FitVolume};
use clash_math::{Scalar, Triangle};
use serde::{Deserialize, Serialize};

/// How a node's triangles are divided between its two children.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitRule {
    /// Median of the triangle centroids along the longest axis of the node's
    /// bounding volume (Eberly §6.2): balanced trees, depth `⌈log2 n⌉`.
    Median,
    /// Mean of the centroids along the same axis (RTCD §6.2.2); falls back to
    /// the median when one side would be empty.
    Mean,
    /// Binned surface area heuristic (RTCD §6.2.2; Wald 2007): the split
    /// plane among `bins - 1` candidates per world axis that minimises
    /// `area(left) * n_left + area(right) * n_right`, with areas of the
    /// children's axis-aligned boxes whatever the tree's volume type.
    ///
    /// The choice for ray queries, and for mesh/mesh distance on RSS trees,
    /// which SAH trees answer in fewer steps than median trees. Median
    /// trees stay the default: they build faster and answer any-contact
    /// queries slightly faster.
    Sah {
        /// Number of bins per axis (2 to 256).
        bins: u32,
    },
}

/// Which fit computes each node's bounding volume.
///
/// Only volume types with a tight fit of their own
/// ([`FitVolume::HAS_TIGHT_FIT`]: OBBs) tell the three apart; every other
/// type is built with [`Basic`](Self::Basic) whatever is asked, and its
/// tree records `Basic`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FitQuality {
    /// [`FitVolume::fit_triangles`] everywhere (for OBBs: continuous PCA,
    /// Eberly §6.1.3): the quickest build.
    Basic,
    /// [`FitVolume::fit_triangles_tight`] (for OBBs: the volume-minimising
    /// refinement; slower to build, fewer overlap tests in queries).
    Tight,
    /// The tight fit on nodes of at least `min_triangles` triangles, the
    /// default fit below. For OBB trees the upper levels are where PCA boxes
    /// are loosest and where the tight fit pays: it buys most of
    /// [`Tight`](Self::Tight)'s query speed for a fraction of its build time
    /// (figures in `docs/benchmarks.md`). The default, with
    /// [`DEFAULT_TIGHT_ABOVE`] triangles: trees are built once and queried
    /// many times, so the build time the tight fit costs is worth its
    /// faster queries.
    TightAbove {
        /// Smallest node (in triangles) that gets the tight fit.
        min_triangles: u32,
    },
}

/// The smallest node (in triangles) the default fit,
/// [`FitQuality::TightAbove`], fits tightly.
pub const DEFAULT_TIGHT_ABOVE: u32 = 128;

impl Default for FitQuality {
    /// [`FitQuality::TightAbove`] nodes of [`DEFAULT_TIGHT_ABOVE`] triangles.
    fn default() -> Self {
        FitQuality::TightAbove {
            min_triangles: DEFAULT_TIGHT_ABOVE,
        }
    }
}

impl FitQuality {
    /// The volume of `tris` (one node's triangles) under this choice.
    pub(crate) fn fit<T: Scalar, B: FitVolume<T>>(
        self,
        tris: &[Triangle<T>],
    ) -> Result<B, FitError> {
        match self {
            FitQuality::Basic => B::fit_triangles(tris),
            FitQuality::Tight => B::fit_triangles_tight(tris),
            FitQuality::TightAbove { min_triangles } if tris.len() >= min_triangles as usize => {
                B::fit_triangles_tight(tris)
            }
            FitQuality::TightAbove { .. } => B::fit_triangles(tris),
        }
    }
}

/// Options for [`crate::Bvh::build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildOptions {
    /// Split rule (default [`SplitRule::Median`]).
    pub split: SplitRule,
    /// Most triangles in a leaf (default 1, as in OBB trees).
    pub max_leaf_size: u32,
    /// Deepest level (the root is depth 0); a node at this depth becomes a
    /// leaf whatever its size. At most [`MAX_DEPTH`] (the default).
    pub max_depth: u32,
    /// How node volumes are fitted (default: [`FitQuality::default`], the
    /// tight fit on nodes of [`DEFAULT_TIGHT_ABOVE`] triangles or more).
    pub fit: FitQuality,
}

/// The largest supported tree depth. Traversals use fixed-size stacks sized
/// from it, so queries never allocate.
pub const MAX_DEPTH: u32 = 64;

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            split: SplitRule::Median,
            max_leaf_size: 1,
            max_depth: MAX_DEPTH,
            fit: FitQuality::default(),
        }
    }
}

impl BuildOptions {
    /// These options with another split rule, the others unchanged.
    pub fn with_split(mut self, split: SplitRule) -> Self {
        self.split = split;
        self
    }
    /// These options with another leaf size, the others unchanged.
    pub fn with_max_leaf_size(mut self, n: u32) -> Self {
        self.max_leaf_size = n;
        self
    }
    /// These options with another depth limit, the others unchanged.
    pub fn with_max_depth(mut self, d: u32) -> Self {
        self.max_depth = d;
        self
    }
    /// These options with another fit, the others unchanged.
    pub fn with_fit(mut self, fit: FitQuality) -> Self {
        self.fit = fit;
        self
    }
    /// Binned SAH with 16 bins and 4 triangles per leaf: the usual choice for
    /// ray queries on AABB trees.
    pub fn sah() -> Self {
        Self {
            split: SplitRule::Sah { bins: 16 },
            max_leaf_size: 4,
            ..Self::default()
        }
    }

    /// These options as a tree of `B` is built and records them: the fit
    /// is [`FitQuality::Basic`] for a volume type without a tight fit.
    pub(crate) fn for_volume<T: Scalar, B: FitVolume<T>>(mut self) -> Self {
        if !B::HAS_TIGHT_FIT {
            self.fit = FitQuality::Basic;
        }
        self
    }

    pub(crate) fn validate(&self) -> Result<(), crate::BuildError> {
        self.check().map_err(crate::BuildError::InvalidOptions)
    }

    /// What is out of range, if anything.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        if self.max_leaf_size == 0 {
            return Err("max_leaf_size must be at least 1");
        }
        if self.max_depth > MAX_DEPTH {
            return Err("max_depth must be at most 64");
        }
        if let SplitRule::Sah { bins } = self.split
            && !(2..=256).contains(&bins)
        {
            return Err("SAH bins must be between 2 and 256");
        }
        Ok(())
    }
}
