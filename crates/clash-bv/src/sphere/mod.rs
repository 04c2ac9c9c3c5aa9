//! Bounding spheres, RTCD §4.3; fits live in `fit.rs`.

mod fit;

use crate::fit::check::triangle_corners;
use crate::{Aabb, BoundingVolume, FitError, FitVolume, FlatVolume, Obb};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, Vector3};
use serde::{Deserialize, Serialize};

/// Closed ball of `radius` about `center`, RTCD §4.3.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Sphere<T: Scalar> {
    /// Centre.
    pub center: Point3<T>,
    /// Radius (non-negative).
    pub radius: T,
}

impl<T: Scalar> Sphere<T> {
    /// [`BoundingVolume::overlaps`] with `placement` (the magnitude of the
    /// coordinates `other`'s centre was placed from, 0 when it was not)
    /// added to the magnitudes of the allowance.
    fn overlaps_with(&self, other: &Self, placement: T) -> bool {
        let sum = self.radius + other.radius;
        let allowance = (self.center.coords.amax() + other.center.coords.amax() + sum + placement)
            * (T::EPSILON * T::lit(64.0));
        let r = sum + allowance;
        (other.center - self.center).norm_squared() <= r * r
    }

    /// The ball of `radius` about `center`.
    pub fn new(center: Point3<T>, radius: T) -> Self {
        Self { center, radius }
    }

    /// Enlarges the sphere just enough to contain `p`, moving the centre
    /// towards `p` (RTCD §4.3.2, the update step of Ritter's method).
    pub fn grow(&mut self, p: &Point3<T>) {
        let d = p - self.center;
        let dist2 = d.norm_squared();
        if dist2 > self.radius * self.radius {
            let dist = dist2.sqrt();
            let new_r = (self.radius + dist) * T::HALF;
            let k = (new_r - self.radius) / dist;
            self.center += d * k;
            // Rounding in the centre update must not lose `p` or the old ball.
            self.radius = new_r.max_of((p - self.center).norm());
        }
    }

    /// Exact distance between the two balls (0 when they touch or overlap).
    pub fn distance(&self, other: &Self) -> T {
        ((other.center - self.center).norm() - self.radius - other.radius).max_of(T::ZERO)
    }
}

impl<T: Scalar> BoundingVolume<T> for Sphere<T> {
    const REFINE_DISTANCE_BOUND: bool = false;

    /// The smallest sphere containing both spheres, RTCD §6.5.2.
    fn merge(&self, other: &Self) -> Self {
        let d = other.center - self.center;
        let dist = d.norm();
        if dist + other.radius <= self.radius {
            return *self;
        }
        if dist + self.radius <= other.radius {
            return *other;
        }
        let r = (dist + self.radius + other.radius) * T::HALF;
        let center = self.center + d * ((r - self.radius) / dist);
        // Guard the enclosure against rounding in the centre.
        let r = r
            .max_of((center - self.center).norm() + self.radius)
            .max_of((center - other.center).norm() + other.radius);
        Self { center, radius: r }
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        (p - self.center).norm_squared() <= self.radius * self.radius
    }

    /// Centre distance plus `other`'s radius within this radius, less `16ε`
    /// times the coordinates and radii involved.
    fn contains_volume(&self, other: &Self) -> bool {
        let d = (other.center - self.center).norm();
        let slack = T::EPSILON
            * T::lit(16.0)
            * (self.center.coords.amax()
                + other.center.coords.amax()
                + d
                + self.radius
                + other.radius);
        d + other.radius + slack <= self.radius
    }

    /// RTCD §4.3.1: squared centre distance against the squared radius
    /// sum, the sum widened by the rounding allowance
    /// `64ε (|c₁|∞ + |c₂|∞ + r₁ + r₂)` of the centres, their placement and
    /// this test: conservative, so that spheres which touch (a point
    /// triangle's sphere has radius 0) are never reported apart.
    fn overlaps(&self, other: &Self) -> bool {
        self.overlaps_with(other, T::ZERO)
    }

    /// [`Self::overlaps`] with `other`'s centre placed by the pose's
    /// matrix, as trees place the other tree's triangles; the allowance
    /// also covers the placement's rounding (of `other`'s centre and the
    /// translation).
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &crate::RelativePose<T>) -> bool {
        let placed = Self {
            center: pose.transform_point(&other.center),
            radius: other.radius,
        };
        self.overlaps_with(
            &placed,
            other.center.coords.amax() + pose.translation.amax(),
        )
    }

    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        Self {
            center: iso * self.center,
            radius: self.radius,
        }
    }

    fn projection_radius(&self, _dir: &Vector3<T>) -> T {
        self.radius
    }

    fn center(&self) -> Point3<T> {
        self.center
    }

    fn volume(&self) -> T {
        T::lit(4.0 / 3.0) * T::pi() * self.radius * self.radius * self.radius
    }

    fn surface_area(&self) -> T {
        T::lit(4.0) * T::pi() * self.radius * self.radius
    }

    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.distance(other))
    }

    fn aabb(&self) -> Aabb<T> {
        Aabb::from_center_half_extents(self.center, Vector3::repeat(self.radius))
    }

    /// Finite centre and radius, the radius not negative.
    fn is_well_formed(&self) -> bool {
        self.center.iter().all(|x| x.finite()) && self.radius.finite() && self.radius >= T::ZERO
    }

    fn bounding_obb(&self) -> Obb<T> {
        Obb {
            center: self.center,
            axes: Matrix3::identity(),
            half_extents: Vector3::repeat(self.radius),
        }
    }
}

impl<T: Scalar> FitVolume<T> for Sphere<T> {
    /// The minimum sphere ([`Sphere::welzl`], RTCD §4.3.5).
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::welzl(points)
    }

    /// The minimum sphere of the corners (a ball is convex, so it contains the
    /// triangles exactly when it contains their corners).
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::welzl(&triangle_corners(triangles)?)
    }

    const SPLIT_ALONG_BOUNDING_OBB: bool = false;
}

impl<T: Scalar> FlatVolume<T> for Sphere<T> {
    const NAME: &'static str = "sphere";

    const FLAT_LEN: usize = 4;

    /// `center` (`x, y, z`) then `radius`.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(self.center.coords.as_slice());
        out.push(self.radius);
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        let f: &[T; 4] = flat.try_into().ok()?;
        Some(Self {
            center: Point3::new(f[0], f[1], f[2]),
            radius: f[3],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Point spheres (radius 0, a point triangle's) an ulp or a rounded
    /// rotation apart touch; spheres clearly apart stay apart.
    #[test]
    fn touching_point_spheres_overlap() {
        let p = Point3::new(1.0_f64, -2.5, 0.3);
        let next = Point3::new(f64::from_bits(1.0_f64.to_bits() + 1), -2.5, 0.3);
        let s = Sphere::new(p, 0.0);
        assert!(s.overlaps(&Sphere::new(next, 0.0)));
        // A quarter turn given as a quaternion rounds; its image of `q` is
        // `p` only to within rounding, and the sphere test allows for that.
        let iso = Isometry3::rotation(Vector3::z() * core::f64::consts::FRAC_PI_2);
        let q = iso.inverse_transform_point(&p);
        assert!(s.overlaps_transformed(&Sphere::new(q, 0.0), &iso));
        let pose = crate::RelativePose::new(&iso);
        assert!(s.overlaps_relative(&Sphere::new(q, 0.0), &pose));
        let apart = Sphere::new(Point3::new(1.0, -2.5, 0.3 + 1e-9), 0.0);
        assert!(!s.overlaps(&apart));
        assert!(!Sphere::new(p, 0.5).overlaps(&Sphere::new(Point3::new(2.0, -2.5, 0.3), 0.49)));
    }
}
