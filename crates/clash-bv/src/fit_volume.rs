//! The [`FitVolume`] trait: fitting a bounding volume to points and
//! triangles, and the hooks tree builders fit nodes through.

use crate::{Aabb, BoundingVolume, FitError};
use clash_math::{Matrix3, Point3, Scalar, Triangle, TriangleMoments};

/// A [`BoundingVolume`] that can be fitted to points and triangles: what a
/// tree builder needs of its volume type beyond the geometry.
///
/// ```
/// use clash_bv::{BoundingVolume, FitVolume, Obb};
/// use clash_math::{Point3, Triangle};
/// let t = Triangle::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
/// let obb = Obb::fit_triangles(&[t]).unwrap();
/// assert!([t.a, t.b, t.c].iter().all(|p| obb.contains_point(p)));
/// ```
pub trait FitVolume<T: Scalar>: BoundingVolume<T> {
    /// The default fit of a point set for this type.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError>;

    /// The default fit of a triangle set for this type (for OBBs: continuous
    /// PCA of the triangles, Eberly §6.1.3).
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError>;

    /// Whether [`Self::fit_triangles_tight`] is a fit of its own (`true`
    /// for OBBs); when `false` it is [`Self::fit_triangles`], and tree
    /// builders fit every node the basic way.
    const HAS_TIGHT_FIT: bool = false;

    /// The tightest fit of a triangle set this type offers (for OBBs: the
    /// volume-minimising refinement); defaults to [`Self::fit_triangles`].
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    fn fit_triangles_tight(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::fit_triangles(triangles)
    }

    /// [`Self::fit_triangles`] given also each triangle's moments
    /// (`moments[i]` must be [`TriangleMoments::new`] of `triangles[i]`): a
    /// tree builder computes them once per triangle and fits every node.
    /// Continuous-PCA fits (OBB, RSS) take the covariance from the moments
    /// ([`clash_math::covariance_of_moments`], Eberly §6.1.3) instead of
    /// recomputing each triangle's area and corner products; the volume
    /// still contains every triangle exactly, and non-finite input is still
    /// an error (it makes the summed area non-finite, and the fit then takes
    /// the checked path). The default ignores the moments.
    ///
    /// # Errors
    /// [`FitError::Empty`], [`FitError::NonFinite`], or
    /// [`FitError::MomentsMismatch`] when the slices differ in length.
    fn fit_triangles_with_moments(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
    ) -> Result<Self, FitError> {
        crate::fit::check::check_moments(triangles, moments)?;
        Self::fit_triangles(triangles)
    }

    /// [`Self::fit_triangles_with_moments`] with the extents taken over
    /// `corners`, which must be the corners of `triangles` (each distinct
    /// point once is enough, repeats are harmless): tree builders pass each
    /// node's distinct vertices. OBBs and RSSs take their axes from the
    /// moments and their extents from `corners`, and the result equals that
    /// of [`Self::fit_triangles_with_moments`] when `corners` starts with the
    /// first triangle's first corner; other volumes ignore `corners`.
    ///
    /// # Errors
    /// As [`Self::fit_triangles_with_moments`].
    // Internal to the clash crates: the hook clash-bvh's builders fit nodes through.
    #[doc(hidden)]
    fn fit_triangles_with_moments_over(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
        corners: &crate::IndexedPoints<'_, T>,
    ) -> Result<Self, FitError> {
        let _ = corners;
        Self::fit_triangles_with_moments(triangles, moments)
    }

    /// `true` when the default fit ([`Self::fit_triangles`]) of two or more
    /// triangles is the volume along their continuous-PCA axes (Eberly
    /// §6.1.3) holding their corners, and that of a lone non-degenerate
    /// triangle the volume along [`crate::lone_triangle_axes`] holding it
    /// (OBB, RSS): [`Self::fit_along_axes`] then computes it from the axes
    /// and the corners alone, so a tree builder can fit a node from its
    /// summed moments ([`crate::principal_axes_of_sum`], or
    /// [`crate::principal_axes_of_moment_union`]) and its distinct vertices,
    /// without the triangles.
    // Internal to the clash crates: the hook clash-bvh's builders fit nodes through.
    #[doc(hidden)]
    const FITS_ALONG_AXES: bool = false;

    /// For volumes with [`Self::FITS_ALONG_AXES`]: the volume along `axes`
    /// (orthonormal, right-handed columns) holding `corners`, which must be
    /// finite; it contains each of them exactly. `None` for other volumes.
    // Internal to the clash crates: the hook clash-bvh's builders fit nodes through.
    #[doc(hidden)]
    fn fit_along_axes(axes: &Matrix3<T>, corners: &crate::IndexedPoints<'_, T>) -> Option<Self> {
        let _ = (axes, corners);
        None
    }

    /// [`Self::fit_along_axes`], the same volume, with memory reused from
    /// call to call (a tree builder fits every node): see
    /// [`crate::FitScratch`].
    // Internal to the clash crates: the hook clash-bvh's builders fit nodes through.
    #[doc(hidden)]
    fn fit_along_axes_with(
        axes: &Matrix3<T>,
        corners: &crate::IndexedPoints<'_, T>,
        scratch: &mut crate::FitScratch<T>,
    ) -> Option<Self> {
        let _ = scratch;
        Self::fit_along_axes(axes, corners)
    }

    /// [`Self::fit_along_axes_with`] of two point sets at once, `corners[i]`
    /// along `axes[i]`: each answer is, bit for bit, that of the single
    /// fit. A tree builder fits a node's two children together. The
    /// default fits one set after the other; OBB and RSS compute both side
    /// by side in lanes, so that the two fits' chains of dependent steps
    /// overlap.
    ///
    /// ```
    /// use clash_bv::{FitScratch, FitVolume, IndexedPoints, Obb, Rss};
    /// use clash_math::{Matrix3, Point3, Rotation3};
    /// let v = [
    ///     Point3::new(0.0_f64, 0.0, 0.0),
    ///     Point3::new(2.0, 0.0, 0.0),
    ///     Point3::new(0.0, 1.0, 0.5),
    ///     Point3::new(1.0, 1.0, 0.0),
    ///     Point3::new(3.0, 2.0, -0.5),
    /// ];
    /// let (a, b) = ([0, 1, 2], [1, 2, 3, 4]);
    /// let pa = IndexedPoints::new(&v, &a).unwrap();
    /// let pb = IndexedPoints::new(&v, &b).unwrap();
    /// let (ra, rb) = (Matrix3::identity(), *Rotation3::from_euler_angles(0.1, 0.2, 0.3).matrix());
    /// let mut scratch = FitScratch::new();
    /// let rss = Rss::fit_along_axes_x2_with([&ra, &rb], [&pa, &pb], &mut scratch);
    /// assert_eq!(rss, [Rss::fit_along_axes(&ra, &pa), Rss::fit_along_axes(&rb, &pb)]);
    /// let obb = Obb::fit_along_axes_x2_with([&ra, &rb], [&pa, &pb], &mut scratch);
    /// assert_eq!(obb, [Obb::fit_along_axes(&ra, &pa), Obb::fit_along_axes(&rb, &pb)]);
    /// ```
    // Internal to the clash crates: the hook clash-bvh's builders fit nodes through.
    #[doc(hidden)]
    fn fit_along_axes_x2_with(
        axes: [&Matrix3<T>; 2],
        corners: [&crate::IndexedPoints<'_, T>; 2],
        scratch: &mut crate::FitScratch<T>,
    ) -> [Option<Self>; 2] {
        [
            Self::fit_along_axes_with(axes[0], corners[0], scratch),
            Self::fit_along_axes_with(axes[1], corners[1], scratch),
        ]
    }

    /// `true` when the longest axis of [`BoundingVolume::bounding_obb`] follows the
    /// shape of what the volume bounds, so a median or mean split may cut
    /// along it (RTCD §6.2.1). A sphere's bounding box is a cube along the
    /// world axes whatever it holds: a builder then takes the longest side
    /// of the box of the node's centroids instead.
    const SPLIT_ALONG_BOUNDING_OBB: bool = true;

    /// The volume [`Self::fit_triangles`] would return for triangles whose
    /// corners have exactly the axis-aligned bounds `bounds`, when the
    /// bounds alone determine it (for an [`Aabb`]: the box itself), else
    /// `None`. A tree builder that already knows a node's bounds (binned SAH
    /// does) then skips a pass over the node's triangles.
    fn from_triangle_bounds(bounds: &Aabb<T>) -> Option<Self> {
        let _ = bounds;
        None
    }
}
