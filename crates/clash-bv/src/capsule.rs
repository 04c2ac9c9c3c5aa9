//! Capsules (sphere-swept segments), RTCD §4.5.1; fit in [`crate::capsule_fit`].
use crate::obb_fit::any_orthogonal;
use crate::segment_segment::{point_segment_distance, segment_segment_distance};
use crate::{Aabb, BoundingVolume, FitError, Obb};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Segment, Triangle, Vector3};
use serde::{Deserialize, Serialize};

/// Capsule (sphere-swept segment), RTCD §4.5.1: points within `radius` of `segment`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Capsule<T: Scalar> {
    /// Core segment.
    pub segment: Segment<T>,
    /// Radius (non-negative).
    pub radius: T,
}

impl<T: Scalar> Capsule<T> {
    /// The capsule of `radius` about the segment `a`–`b`.
    pub fn new(a: Point3<T>, b: Point3<T>, radius: T) -> Self {
        Self {
            segment: Segment::new(a, b),
            radius,
        }
    }

    /// Distance between the two capsules: segment/segment distance (RTCD
    /// §5.1.9) minus both radii, clamped at 0 (RTCD §4.5.1).
    pub fn distance(&self, other: &Self) -> T {
        (segment_segment_distance(&self.segment, &other.segment) - self.radius - other.radius)
            .max_of(T::ZERO)
    }

    /// Smallest radius about `segment` that contains the points.
    pub(crate) fn radius_for(segment: &Segment<T>, points: &[Point3<T>]) -> T {
        points
            .iter()
            .fold(T::ZERO, |m, p| m.max_of(point_segment_distance(p, segment)))
    }
}

impl<T: Scalar> BoundingVolume<T> for Capsule<T> {
    const NAME: &'static str = "capsule";

    /// [`Capsule::fit_pca`].
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::fit_pca(points)
    }

    /// [`Capsule::fit_pca_triangles`].
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::fit_pca_triangles(triangles)
    }

    /// A capsule about the segment spanned by the farthest pair of the four
    /// end points, its radius the largest end-point distance plus that
    /// capsule's radius (distance to a segment is convex, so the end points
    /// bound each input segment).
    fn merge(&self, other: &Self) -> Self {
        let ends = [
            self.segment.a,
            self.segment.b,
            other.segment.a,
            other.segment.b,
        ];
        let mut pair = (0, 1);
        let mut far = -T::ONE;
        for i in 0..4 {
            for j in i + 1..4 {
                let d = (ends[j] - ends[i]).norm_squared();
                if d > far {
                    far = d;
                    pair = (i, j);
                }
            }
        }
        let seg = Segment::new(ends[pair.0], ends[pair.1]);
        let need = |c: &Self| {
            point_segment_distance(&c.segment.a, &seg)
                .max_of(point_segment_distance(&c.segment.b, &seg))
                + c.radius
        };
        let r = need(self).max_of(need(other));
        let merged = Self {
            segment: seg,
            radius: r * (T::ONE + T::EPSILON * T::lit(4.0)),
        };
        // Keep the smaller of the merged capsule and an input that already contains both.
        if self.contains_capsule(other) {
            *self
        } else if other.contains_capsule(self) {
            *other
        } else {
            merged
        }
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        point_segment_distance(p, &self.segment) <= self.radius
    }

    /// Segment distance against the radius sum (RTCD §4.5.1).
    fn overlaps(&self, other: &Self) -> bool {
        segment_segment_distance(&self.segment, &other.segment) <= self.radius + other.radius
    }

    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        Self {
            segment: self.segment.transformed(iso),
            radius: self.radius,
        }
    }

    fn projection_radius(&self, dir: &Vector3<T>) -> T {
        dir.dot(&(self.segment.b - self.segment.a)).abs() * T::HALF + self.radius
    }

    fn center(&self) -> Point3<T> {
        self.segment.midpoint()
    }

    /// Cylinder plus ball: `π r² L + 4/3 π r³`.
    fn volume(&self) -> T {
        let r = self.radius;
        T::pi() * r * r * (self.segment.length() + T::lit(4.0 / 3.0) * r)
    }

    /// `2 π r L + 4 π r²`.
    fn surface_area(&self) -> T {
        let r = self.radius;
        T::TWO * T::pi() * r * (self.segment.length() + T::TWO * r)
    }

    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.distance(other))
    }

    fn aabb(&self) -> Aabb<T> {
        let mut b = Aabb {
            min: self.segment.a,
            max: self.segment.a,
        };
        b.grow(&self.segment.b);
        let r = Vector3::repeat(self.radius);
        Aabb {
            min: b.min - r,
            max: b.max + r,
        }
    }

    fn bounding_obb(&self) -> Obb<T> {
        let d = self.segment.direction();
        let len = d.norm();
        let x = d.try_normalize(T::ZERO).unwrap_or_else(Vector3::x);
        let y = any_orthogonal(&x);
        let r = self.radius * (T::ONE + T::EPSILON * T::lit(4.0));
        Obb {
            center: self.segment.midpoint(),
            axes: Matrix3::from_columns(&[x, y, x.cross(&y)]),
            half_extents: Vector3::new(len * T::HALF + r, r, r),
        }
    }
}

impl<T: Scalar> Capsule<T> {
    fn contains_capsule(&self, other: &Self) -> bool {
        let need = point_segment_distance(&other.segment.a, &self.segment)
            .max_of(point_segment_distance(&other.segment.b, &self.segment))
            + other.radius;
        need <= self.radius
    }
}
