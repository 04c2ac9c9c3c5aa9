//! The [`BoundingVolume`] trait that hierarchies are generic over.

use crate::{Aabb, FitError, Obb, RelativePose};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, TriangleMoments, Vector3};
use core::fmt::Debug;
use serde::{Serialize, de::DeserializeOwned};

/// A convex bounding volume: what a BVH node stores.
///
/// Every method is conservative in the direction that keeps queries correct:
/// `overlaps` may say `true` for disjoint volumes but never `false` for
/// touching or overlapping ones; `transformed` and `merge` return volumes
/// that contain the exact result; `distance_lower_bound` never exceeds the true
/// distance.
pub trait BoundingVolume<T: Scalar>:
    Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// Short lower-case name (`"aabb"`, `"obb"`, ...) recorded in saved trees.
    const NAME: &'static str;

    /// How many scalars the volume's flat form holds ([`Self::write_flat`]):
    /// a saved tree stores each node's volume as that many little-endian
    /// values (AABB 6, sphere 4, OBB 15, capsule 7, RSS 15, k-DOP `2N`).
    const FLAT_LEN: usize;

    /// Appends the volume's [`Self::FLAT_LEN`] coordinates to `out`, in the
    /// order the type's docs give: the form saved trees store.
    fn write_flat(&self, out: &mut Vec<T>);

    /// The volume whose flat form ([`Self::write_flat`]) is `flat`, bit for
    /// bit; `None` unless `flat` holds exactly [`Self::FLAT_LEN`] values.
    /// Any values give a volume: a loader checks it afterwards.
    ///
    /// ```
    /// use clash_bv::{BoundingVolume, Obb};
    /// use clash_math::{Matrix3, Point3};
    /// let obb = Obb::from_axes_and_points(&Matrix3::identity(), &[Point3::new(0.0_f64, 1.0, 2.0)]);
    /// let mut flat = Vec::new();
    /// obb.write_flat(&mut flat);
    /// assert_eq!(flat.len(), Obb::<f64>::FLAT_LEN);
    /// assert_eq!(Obb::read_flat(&flat), Some(obb));
    /// assert_eq!(Obb::read_flat(&flat[1..]), None);
    /// ```
    fn read_flat(flat: &[T]) -> Option<Self>;

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
    const FITS_ALONG_AXES: bool = false;

    /// For volumes with [`Self::FITS_ALONG_AXES`]: the volume along `axes`
    /// (orthonormal, right-handed columns) holding `corners`, which must be
    /// finite; it contains each of them exactly. `None` for other volumes.
    fn fit_along_axes(axes: &Matrix3<T>, corners: &crate::IndexedPoints<'_, T>) -> Option<Self> {
        let _ = (axes, corners);
        None
    }

    /// [`Self::fit_along_axes`], the same volume, with memory reused from
    /// call to call (a tree builder fits every node): see
    /// [`crate::FitScratch`].
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
    /// use clash_bv::{BoundingVolume, FitScratch, IndexedPoints, Obb, Rss};
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

    /// A volume containing both `self` and `other`.
    fn merge(&self, other: &Self) -> Self;

    /// `true` when `p` lies in the closed volume.
    fn contains_point(&self, p: &Point3<T>) -> bool;

    /// `true` when every point of `points` lies in the closed volume:
    /// [`Self::contains_point`] of each, which the default evaluates one by
    /// one. OBBs and RSSs give the same answer from one pass without
    /// branches (a tree checks each node against its subtree's corners when
    /// it is loaded).
    fn contains_points<'a>(&self, points: impl IntoIterator<Item = &'a Point3<T>>) -> bool
    where
        T: 'a,
    {
        points.into_iter().all(|p| self.contains_point(p))
    }

    /// `true` only when every point of `other` lies in `self`, with a
    /// margin of a few units of rounding of the two volumes' coordinates
    /// (so that a point [`Self::contains_point`] of `other` accepts is
    /// accepted by `self` too); `false` when unsure. A tree checking that
    /// each node holds its subtree's triangles skips the children whose
    /// volumes this places inside the node's (see `Bvh::validate` in
    /// clash-bvh). The default is always `false`.
    ///
    /// ```
    /// use clash_bv::{BoundingVolume, Obb};
    /// use clash_math::{Matrix3, Point3};
    /// let cube = |h: f64| [Point3::new(-h, -h, -h), Point3::new(h, h, h)];
    /// let outer = Obb::from_axes_and_points(&Matrix3::identity(), &cube(2.0));
    /// let inner = Obb::from_axes_and_points(&Matrix3::identity(), &cube(1.0));
    /// assert!(outer.contains_volume(&inner) && !inner.contains_volume(&outer));
    /// ```
    fn contains_volume(&self, other: &Self) -> bool {
        let _ = other;
        false
    }

    /// `false` only when the two closed volumes are certainly disjoint.
    fn overlaps(&self, other: &Self) -> bool;

    /// `false` only when `self` and `other` moved by `other_to_self` (the pose
    /// of `other`'s frame in `self`'s frame) are certainly disjoint. The
    /// default transforms `other`; OBBs override it with the relative-frame
    /// separating-axis test (RTCD §4.4.1).
    fn overlaps_transformed(&self, other: &Self, other_to_self: &Isometry3<T>) -> bool {
        self.overlaps(&other.transformed(other_to_self))
    }

    /// [`Self::overlaps_transformed`] with the pose's rotation matrix already
    /// computed (trees call this once per node pair). The default uses the
    /// isometry; OBBs, AABBs, spheres, capsules and RSSs use the matrix, as
    /// trees place triangles.
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &RelativePose<T>) -> bool {
        self.overlaps_transformed(other, &pose.iso)
    }

    /// A volume containing the image of `self` under `iso` (exact for OBB, RSS,
    /// capsule and sphere; RTCD §4.2.6 for AABB).
    fn transformed(&self, iso: &Isometry3<T>) -> Self;

    /// A representative centre point (used for split decisions).
    fn center(&self) -> Point3<T>;

    /// Volume (for capsule/RSS/sphere the swept volume).
    fn volume(&self) -> T;

    /// Surface area (the cost measure of the surface area heuristic).
    fn surface_area(&self) -> T;

    /// `true` when the volume is well formed, as [`Self::bounding_obb`]
    /// shows it: finite centre, axes and half-extents, half-extents not
    /// negative, and axes orthonormal and right-handed to within `16ε`
    /// ([`crate::axes_are_orthonormal`]), the most rounding of a fit's axes
    /// the separating-axis test's padding (RTCD §4.4.2) covers. A tree file
    /// could hold, say, an OBB with skewed axes that contains its triangles
    /// but breaks that test: a loader checks every node. The default
    /// examines [`Self::bounding_obb`]; the types override it with the same
    /// answer (or a stricter one) from their own fields.
    ///
    /// ```
    /// use clash_bv::{Aabb, BoundingVolume};
    /// use clash_math::Point3;
    /// assert!(Aabb::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0)).is_well_formed());
    /// assert!(!Aabb::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(f64::NAN, 1.0, 1.0)).is_well_formed());
    /// ```
    fn is_well_formed(&self) -> bool {
        let obb = self.bounding_obb();
        obb.center.iter().all(|x| x.finite())
            && obb.half_extents.iter().all(|&e| e.finite() && e >= T::ZERO)
            && crate::axes_are_orthonormal(&obb.axes)
    }

    /// `true` when the longest axis of [`Self::bounding_obb`] follows the
    /// shape of what the volume bounds, so a median or mean split may cut
    /// along it (RTCD §6.2.1). A sphere's bounding box is a cube along the
    /// world axes whatever it holds: a builder then takes the longest side
    /// of the box of the node's centroids instead.
    const SPLIT_ALONG_BOUNDING_OBB: bool = true;

    /// `true` when [`Self::surface_area`] costs far more than a few
    /// operations (k-DOPs: a vertex solve of their polytope). Tree
    /// statistics then measure the volume's axis-aligned box instead
    /// ([`Self::aabb`]) unless asked for the exact figure.
    const SURFACE_AREA_IS_COSTLY: bool = false;

    /// A cheap measure of size by which queries over two trees choose the
    /// node to open ("descend the larger", RTCD §6.3.2): the surface area
    /// unless a type overrides it. k-DOPs take their axis-aligned box's,
    /// since their exact area needs their polytope's vertices.
    fn descent_size(&self) -> T {
        self.surface_area()
    }

    /// A lower bound on the distance between the two volumes (0 when they
    /// may overlap), or `None` when the type offers no cheap bound.
    fn distance_lower_bound(&self, other: &Self) -> Option<T>;

    /// Whether mesh distance should refine the cheap [`Self::projection_radius`]
    /// bound of a node pair with [`Self::distance_lower_bound`] before
    /// descending. `true` (the default) when that bound is a few dot products
    /// and tighter (boxes' separating axes); `false` for spheres (it is the
    /// same bound) and RSS (the exact rectangle distance costs more than the
    /// node pairs it prunes; measured on the 56k bunny).
    const REFINE_DISTANCE_BOUND: bool = true;

    /// An upper bound `r` on `|dir · (p - self.center())|` over the points `p`
    /// of the volume, for a unit vector `dir`: the half-width of the volume's
    /// projection on `dir` about its centre (exact for spheres, boxes, RSS and
    /// capsules). Two volumes whose centres are `d` apart along `dir` are at
    /// least `d - r_a - r_b` apart; mesh distance uses this as its cheap bound.
    /// The default measures [`Self::bounding_obb`].
    fn projection_radius(&self, dir: &Vector3<T>) -> T {
        let o = self.bounding_obb();
        dir.dot(&(o.center - self.center())).abs()
            + (0..3)
                .map(|k| dir.dot(&o.axes.column(k)).abs() * o.half_extents[k])
                .fold(T::ZERO, |acc, x| acc + x)
    }

    /// A unit direction across which the volume is thin (for RSS, its
    /// rectangle's normal) with the volume's half-width across it (its
    /// [`Self::projection_radius`] along it), or `None` (the default). Mesh
    /// distance tries it as a further separating axis of its cheap bound
    /// (RTCD §5.5.8): two flat volumes stacked near each other are far
    /// apart across their normals but not along the line through their
    /// centres.
    fn thin_axis(&self) -> Option<(Vector3<T>, T)> {
        None
    }

    /// The smallest axis-aligned box containing the volume.
    fn aabb(&self) -> Aabb<T>;

    /// An oriented box containing the volume: the common currency that lets
    /// trees of different bounding-volume types be paired.
    fn bounding_obb(&self) -> Obb<T>;

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

/// `true` when `axes` has finite, orthonormal, right-handed columns to
/// within `16ε` (each entry of `AᵀA - I` at most that in magnitude, and a
/// positive determinant): what fits produce, and what
/// [`BoundingVolume::is_well_formed`] requires of boxes.
///
/// ```
/// use clash_bv::axes_are_orthonormal;
/// use clash_math::{Matrix3, Rotation3};
/// assert!(axes_are_orthonormal(Rotation3::from_euler_angles(0.1_f64, 0.2, 0.3).matrix()));
/// assert!(!axes_are_orthonormal(&(Matrix3::<f64>::identity() * 1.001)));
/// assert!(!axes_are_orthonormal(&-Matrix3::<f64>::identity()));
/// ```
pub fn axes_are_orthonormal<T: Scalar>(axes: &Matrix3<T>) -> bool {
    let tol = T::EPSILON * T::lit(16.0);
    let (a, b, c) = (axes.column(0), axes.column(1), axes.column(2));
    let near = |x: T, target: T| (x - target).abs() <= tol;
    axes.iter().all(|x| x.finite())
        && near(a.dot(&a), T::ONE)
        && near(b.dot(&b), T::ONE)
        && near(c.dot(&c), T::ONE)
        && near(a.dot(&b), T::ZERO)
        && near(a.dot(&c), T::ZERO)
        && near(b.dot(&c), T::ZERO)
        && a.dot(&b.cross(&c)) > T::ZERO
}
