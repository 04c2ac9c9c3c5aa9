//! The [`BoundingVolume`] trait: the geometry that hierarchies are generic
//! over. Fitting is [`crate::FitVolume`]'s, the saved form
//! [`crate::FlatVolume`]'s.

use crate::{Aabb, Obb, RelativePose};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Vector3};
use core::fmt::Debug;
use serde::{Serialize, de::DeserializeOwned};

/// A convex bounding volume: what a BVH node stores and its queries test.
///
/// Every method is conservative in the direction that keeps queries correct:
/// `overlaps` may say `true` for disjoint volumes but never `false` for
/// touching or overlapping ones; `transformed` and `merge` return volumes
/// that contain the exact result; `distance_lower_bound` never exceeds the true
/// distance.
///
/// Building a tree also takes [`crate::FitVolume`] (fitting triangles and
/// points), saving and loading one [`crate::FlatVolume`] (the flat form);
/// every volume of this crate implements all three.
pub trait BoundingVolume<T: Scalar>:
    Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static
{
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
    /// node pairs it prunes).
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
