//! Capsules (sphere-swept segments), RTCD §4.5.1; fit in `fit.rs`.

mod fit;

use crate::fit::axes::any_orthogonal;
use crate::segment_segment::{
    point_segment_distance, segment_distance_excess, segment_segment_distance,
};
use crate::{Aabb, BoundingVolume, FitError, FitVolume, FlatVolume, Obb};
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

    /// The smallest radius about `segment` that contains the points, as
    /// computed, plus [`Self::rounding_pad`]: the points are then within
    /// it in exact arithmetic too.
    pub(crate) fn radius_for(segment: &Segment<T>, points: &[Point3<T>]) -> T {
        let r = points
            .iter()
            .fold(T::ZERO, |m, p| m.max_of(point_segment_distance(p, segment)));
        r + Self::rounding_pad(segment, r)
    }

    /// A bound on how far a point's computed distance to `segment`, at most
    /// `r`, may fall short of its exact distance. The closest point
    /// `a + t (b - a)` is rounded by an ulp of its coordinates (at most `m`,
    /// the largest coordinate of the ends, plus `L`, the segment's length)
    /// and by the rounding of `t` (a few ulps of `L` and of the offset
    /// `|p - a| <= L + r`), and the distance by an ulp of `r`: at most
    /// about `ε (√3 m + 4 L + 2 r)`. The pad is `4ε (2m + 3L + r)`. Without
    /// it an `f32` capsule far from the origin (at 3e4, where an ulp is
    /// 2e-3) could leave a corner of its thin triangle 7e-4 outside.
    pub(crate) fn rounding_pad(segment: &Segment<T>, r: T) -> T {
        let m = segment.a.coords.amax().max_of(segment.b.coords.amax());
        let l = (segment.b - segment.a).norm();
        (m * T::TWO + l * T::lit(3.0) + r) * (T::EPSILON * T::lit(4.0))
    }
}

impl<T: Scalar> BoundingVolume<T> for Capsule<T> {
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
            radius: r * (T::ONE + T::EPSILON * T::lit(4.0)) + Self::rounding_pad(&seg, r),
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

    /// Both ends of `other`'s segment within `r - r_other` of this segment
    /// (the distance to a segment is convex, so its largest value on
    /// `other`'s segment is at an end), less `16ε` times the coordinates and
    /// radii involved.
    fn contains_volume(&self, other: &Self) -> bool {
        let slack = T::EPSILON
            * T::lit(16.0)
            * (self.coordinate_magnitude()
                + other.coordinate_magnitude()
                + self.radius
                + other.radius);
        let room = self.radius - other.radius - slack;
        room >= T::ZERO
            && [other.segment.a, other.segment.b]
                .iter()
                .all(|e| point_segment_distance(e, &self.segment) <= room)
    }

    /// Segment distance against the radius sum (RTCD §4.5.1), less a bound
    /// on its rounding (`core_distance_lower_bound`): conservative, so
    /// that capsules which touch (thin ones about crossing segments, or
    /// ones that meet exactly at a point their radius reaches) are never
    /// reported apart.
    fn overlaps(&self, other: &Self) -> bool {
        self.core_distance_lower_bound(other, T::ZERO) <= self.radius + other.radius
    }

    /// [`Self::overlaps`] with `other` placed by the pose's matrix, as
    /// trees place the other tree's triangles; the allowance also covers
    /// the placement's rounding (of `other`'s coordinates and the
    /// translation).
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &crate::RelativePose<T>) -> bool {
        let placement = other.coordinate_magnitude() + pose.translation.amax();
        self.core_distance_lower_bound(&other.placed(pose), placement) <= self.radius + other.radius
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

    /// [`Capsule::distance`] less a bound on its rounding, clamped at 0.
    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        let d = self.core_distance_lower_bound(other, T::ZERO);
        Some((d - self.radius - other.radius).max_of(T::ZERO))
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

impl<T: Scalar> FitVolume<T> for Capsule<T> {
    /// [`Capsule::fit_pca`].
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::fit_pca(points)
    }

    /// [`Capsule::fit_pca_triangles`].
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::fit_pca_triangles(triangles)
    }
}

impl<T: Scalar> FlatVolume<T> for Capsule<T> {
    const NAME: &'static str = "capsule";

    const FLAT_LEN: usize = 7;

    /// The segment's `a` and `b` (each `x, y, z`), then `radius`.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(self.segment.a.coords.as_slice());
        out.extend_from_slice(self.segment.b.coords.as_slice());
        out.push(self.radius);
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        let f: &[T; 7] = flat.try_into().ok()?;
        Some(Self {
            segment: Segment::new(Point3::new(f[0], f[1], f[2]), Point3::new(f[3], f[4], f[5])),
            radius: f[6],
        })
    }
}

impl<T: Scalar> Capsule<T> {
    /// A lower bound on the distance of the two core segments (0 when they
    /// meet), less the rounding of the radii. The distance is computed in
    /// `f64` whatever `T` (an `f32` segment converts exactly), less the
    /// bound on its excess (`segment_distance_excess`, which covers nearly
    /// parallel cores: `2√ε` of their lengths at worst, so `f64`'s `ε`
    /// keeps `f32` capsules tight), then converted back and lowered by
    /// `64ε` of `T` of the magnitudes (the conversion and the radii) and
    /// by `16ε` of `T` of `placement`, the magnitude of the coordinates
    /// `other` was placed from by a pose (its ends' and the translation's;
    /// 0 when it was not placed), which bounds how differently placing
    /// rounds its ends and the triangles it holds. The overlap test and
    /// the distance bound compare this with the radius sum.
    fn core_distance_lower_bound(&self, other: &Self, placement: T) -> T {
        let wide = |s: &Segment<T>| Segment::new(s.a.map(T::to_f64), s.b.map(T::to_f64));
        let (a, b) = (wide(&self.segment), wide(&other.segment));
        let d = segment_segment_distance(&a, &b);
        let lower = T::lit(d - segment_distance_excess(&a, &b, d));
        lower
            - (lower.abs() + self.radius + other.radius) * (T::EPSILON * T::lit(64.0))
            - placement * (T::EPSILON * T::lit(16.0))
    }

    /// The largest coordinate of the segment's ends.
    fn coordinate_magnitude(&self) -> T {
        self.segment
            .a
            .coords
            .amax()
            .max_of(self.segment.b.coords.amax())
    }

    /// The capsule with its segment's ends placed by `pose`'s matrix.
    fn placed(&self, pose: &crate::RelativePose<T>) -> Self {
        Self {
            segment: Segment::new(
                pose.transform_point(&self.segment.a),
                pose.transform_point(&self.segment.b),
            ),
            radius: self.radius,
        }
    }

    fn contains_capsule(&self, other: &Self) -> bool {
        let need = point_segment_distance(&other.segment.a, &self.segment)
            .max_of(point_segment_distance(&other.segment.b, &self.segment))
            + other.radius;
        need <= self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Segments that cross exactly (both pass through the grid point `p`:
    /// `p - a w` to `p + b w` holds `p`, every coordinate exact), at angles
    /// down to `2^-50`, as zero-radius capsules: the overlap test must say
    /// they touch, and the distance bound must be 0, in `f64` and `f32`
    /// (with `f32`'s grid kept within its 24 bits). Before the allowance,
    /// crossings at any angle were reported apart (the computed distance is
    /// a few ulps, the radii 0), and at angles below `√ε` by up to
    /// `L √ε`.
    fn crossings<T: Scalar>(finest: i32) -> usize {
        let mut checked = 0;
        let grid = |k: i32| T::lit(f64::from(k) / 8.0);
        let dirs = [[3, 1, 0], [1, 2, -2], [-4, 1, 3], [2, -3, -1], [1, 0, 0]];
        let bumps = [[0, 1, 0], [0, 0, 1], [1, -1, 1]];
        for (i, d) in dirs.iter().enumerate() {
            let w = Vector3::new(grid(d[0]), grid(d[1]), grid(d[2]));
            let p = Point3::new(grid(3 * i as i32 - 5), grid(7), grid(-2 * i as i32));
            for e in bumps {
                for k in (4..=finest).step_by(3) {
                    let delta = T::lit((0.5f64).powi(k));
                    let w2 = w + Vector3::new(grid(e[0]), grid(e[1]), grid(e[2])) * delta;
                    for (a, b) in [(1, 1), (1, 3), (4, 1)] {
                        let (a, b) = (T::lit(f64::from(a)), T::lit(f64::from(b)));
                        let c1 = Capsule::new(p - w * a, p + w * b, T::ZERO);
                        let c2 = Capsule::new(p - w2 * b, p + w2 * a, T::ZERO);
                        for (x, y) in [(&c1, &c2), (&c2, &c1)] {
                            assert!(
                                x.overlaps(y),
                                "{}: crossing at 2^-{k} apart: {x:?} {y:?}",
                                T::NAME
                            );
                            assert_eq!(x.distance_lower_bound(y), Some(T::ZERO));
                            checked += 1;
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn nearly_parallel_crossing_segments_overlap() {
        assert!(crossings::<f64>(50) > 0);
        assert!(crossings::<f32>(16) > 0);
    }

    /// The allowance is a rounding bound, not a margin: capsules clearly
    /// apart stay apart.
    #[test]
    fn separated_capsules_stay_apart() {
        let a: Capsule<f64> = Capsule::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), 0.1);
        let b = Capsule::new(
            Point3::new(0.0, 0.2 + 1e-6, 0.0),
            Point3::new(1.0, 0.2 + 1e-6, 0.0),
            0.1,
        );
        assert!(!a.overlaps(&b));
        // Parallel cores: the bound is a few ulps below the distance 0.2.
        assert!((a.core_distance_lower_bound(&b, 0.0) - (0.2 + 1e-6)).abs() < 1e-13);
        let c = Capsule::new(Point3::new(0.0, 0.2, 0.0), Point3::new(1.0, 0.2, 0.0), 0.1);
        assert!(a.overlaps(&c));
    }
}
