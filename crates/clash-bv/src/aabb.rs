//! Axis-aligned bounding boxes, RTCD §4.2.
use crate::fit::check::{check_points, check_triangles};
use crate::{BoundingVolume, FitError, FitVolume, FlatVolume, Obb};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, Vector3};
use serde::{Deserialize, Serialize};

/// Axis-aligned bounding box `[min, max]` (closed), RTCD §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Aabb<T: Scalar> {
    /// Lower corner.
    pub min: Point3<T>,
    /// Upper corner.
    pub max: Point3<T>,
}

impl<T: Scalar> Aabb<T> {
    /// The box `[min, max]` (no check that `min <= max`).
    pub fn new(min: Point3<T>, max: Point3<T>) -> Self {
        Self { min, max }
    }

    /// The box of half-widths `half_extents` about `center` (RTCD §4.2, centre–radius form).
    pub fn from_center_half_extents(center: Point3<T>, half_extents: Vector3<T>) -> Self {
        Self {
            min: center - half_extents,
            max: center + half_extents,
        }
    }

    /// Exact extents of a point set: the per-axis minima and maxima (RTCD §4.2.1).
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn from_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let mut b = Self {
            min: points[0],
            max: points[0],
        };
        for p in &points[1..] {
            b.grow(p);
        }
        Ok(b)
    }

    /// Enlarges the box to contain `p`.
    pub fn grow(&mut self, p: &Point3<T>) {
        for k in 0..3 {
            self.min[k] = self.min[k].min_of(p[k]);
            self.max[k] = self.max[k].max_of(p[k]);
        }
    }

    /// Centre–half-width form: `(max - min) / 2`.
    pub fn half_extents(&self) -> Vector3<T> {
        (self.max - self.min) * T::HALF
    }

    /// The eight corners (bit `k` of the index selects `max` on axis `k`).
    pub fn corners(&self) -> [Point3<T>; 8] {
        core::array::from_fn(|i| {
            Point3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }

    /// Exact Euclidean distance between two boxes (0 when they touch or overlap):
    /// the length of the per-axis gap vector.
    pub fn distance(&self, other: &Self) -> T {
        let mut d2 = T::ZERO;
        for k in 0..3 {
            let gap = (other.min[k] - self.max[k])
                .max_of(self.min[k] - other.max[k])
                .max_of(T::ZERO);
            d2 += gap * gap;
        }
        d2.sqrt()
    }

    /// The box containing `self` after the rotation `r` and translation `t`, by
    /// the centre–extent form of RTCD §4.2.6: `c' = R c + t`, `e' = |R| e`.
    pub fn transformed_by(&self, r: &Matrix3<T>, t: &Vector3<T>) -> Self {
        let c = Point3::from((self.min.coords + self.max.coords) * T::HALF);
        let e = self.half_extents();
        let c2 = Point3::from(r * c.coords + t);
        let e2 = r.abs() * e;
        // Pad by a few ulps of the magnitudes involved (input, translation,
        // output) so that rounding, here or in however the caller moves a
        // point, cannot drop a transformed corner out of the box.
        let mag = c.coords.abs().max() + e.max() + t.abs().max() + c2.coords.abs().max();
        let pad = mag * T::EPSILON * T::lit(16.0);
        Self::from_center_half_extents(c2, e2.add_scalar(pad))
    }
}

impl<T: Scalar> BoundingVolume<T> for Aabb<T> {
    /// RTCD §6.5.1.
    fn merge(&self, other: &Self) -> Self {
        let mut b = *self;
        b.grow(&other.min);
        b.grow(&other.max);
        b
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        (0..3).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// Interval in interval on each axis (exact).
    fn contains_volume(&self, other: &Self) -> bool {
        (0..3).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// RTCD §4.2.1: overlap on every axis.
    fn overlaps(&self, other: &Self) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// RTCD §4.2.6 with the precomputed rotation, then the box test.
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &crate::RelativePose<T>) -> bool {
        self.overlaps(&other.transformed_by(&pose.rotation, &pose.translation))
    }

    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        let r = iso.rotation.to_rotation_matrix();
        self.transformed_by(r.matrix(), &iso.translation.vector)
    }

    fn projection_radius(&self, dir: &Vector3<T>) -> T {
        let e = (self.max - self.min) * T::HALF;
        dir.x.abs() * e.x + dir.y.abs() * e.y + dir.z.abs() * e.z
    }

    fn center(&self) -> Point3<T> {
        Point3::from((self.min.coords + self.max.coords) * T::HALF)
    }

    fn volume(&self) -> T {
        let d = self.max - self.min;
        d.x * d.y * d.z
    }

    fn surface_area(&self) -> T {
        let d = self.max - self.min;
        T::TWO * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.distance(other))
    }

    fn aabb(&self) -> Aabb<T> {
        *self
    }

    /// Finite centre and half-extents, the half-extents not negative.
    fn is_well_formed(&self) -> bool {
        let (c, h) = (self.center(), self.half_extents());
        c.iter().all(|x| x.finite()) && h.iter().all(|&e| e.finite() && e >= T::ZERO)
    }

    fn bounding_obb(&self) -> Obb<T> {
        Obb {
            center: self.center(),
            axes: Matrix3::identity(),
            half_extents: self.half_extents(),
        }
    }
}

impl<T: Scalar> FitVolume<T> for Aabb<T> {
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::from_points(points)
    }

    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        // No corner buffer: a tree builder calls this once per node.
        check_triangles(triangles)?;
        let mut b = Self {
            min: triangles[0].a,
            max: triangles[0].a,
        };
        for t in triangles {
            b.grow(&t.a);
            b.grow(&t.b);
            b.grow(&t.c);
        }
        Ok(b)
    }

    /// The box itself: [`Self::fit_triangles`] is the bounds of the corners.
    fn from_triangle_bounds(bounds: &Aabb<T>) -> Option<Self> {
        Some(*bounds)
    }
}

impl<T: Scalar> FlatVolume<T> for Aabb<T> {
    const NAME: &'static str = "aabb";

    const FLAT_LEN: usize = 6;

    /// `min` then `max`, each `x, y, z`.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(self.min.coords.as_slice());
        out.extend_from_slice(self.max.coords.as_slice());
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        let f: &[T; 6] = flat.try_into().ok()?;
        Some(Self {
            min: Point3::new(f[0], f[1], f[2]),
            max: Point3::new(f[3], f[4], f[5]),
        })
    }
}
