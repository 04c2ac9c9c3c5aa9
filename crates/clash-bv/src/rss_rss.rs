//! Distance between rectangle-swept spheres: rectangle/rectangle distance
//! minus the radii (RTCD §4.5.2; the rectangle distance by the case analysis
//! of Larsen et al., "Fast proximity queries with swept sphere volumes").
use crate::Rss;
use crate::segment_segment::segment_segment_distance;
use clash_math::{Point3, Scalar, Segment};

impl<T: Scalar> Rss<T> {
    /// `true` when the segment meets the rectangle (crosses its plane inside it).
    fn segment_crosses_rectangle(&self, s: &Segment<T>) -> bool {
        let n = self.axes.column(2);
        let (za, zb) = ((s.a - self.center).dot(&n), (s.b - self.center).dot(&n));
        if (za > T::ZERO && zb > T::ZERO) || (za < T::ZERO && zb < T::ZERO) || za == zb {
            return false;
        }
        let t = za / (za - zb);
        let p: Point3<T> = s.a + (s.b - s.a) * t;
        let d = p - self.center;
        (0..2).all(|k| d.dot(&self.axes.column(k)).abs() <= self.half_lengths[k])
    }

    fn edges(&self) -> [Segment<T>; 4] {
        let c = self.rectangle_corners();
        [
            Segment::new(c[0], c[1]),
            Segment::new(c[1], c[2]),
            Segment::new(c[2], c[3]),
            Segment::new(c[3], c[0]),
        ]
    }

    /// Distance between the two rectangles (0 when they meet). A closest
    /// pair of two disjoint convex polygons can be chosen with one point on
    /// an edge, and then with the other on an edge or at a corner, so the
    /// minimum over corner/rectangle and edge/edge distances is exact once
    /// the edge-crosses-interior cases (distance 0) are ruled out.
    pub fn rectangle_rectangle_distance(&self, other: &Self) -> T {
        let (ea, eb) = (self.edges(), other.edges());
        if ea.iter().any(|e| other.segment_crosses_rectangle(e))
            || eb.iter().any(|e| self.segment_crosses_rectangle(e))
        {
            return T::ZERO;
        }
        let mut d = T::INFINITY;
        for c in other.rectangle_corners() {
            d = d.min_of(self.rectangle_distance(&c));
        }
        for c in self.rectangle_corners() {
            d = d.min_of(other.rectangle_distance(&c));
        }
        for a in &ea {
            for b in &eb {
                d = d.min_of(segment_segment_distance(a, b));
            }
        }
        d
    }

    /// A lower bound on the distance between the two volumes: rectangle
    /// distance minus both radii, less a rounding allowance relative to the
    /// magnitudes involved (so the result never exceeds the true distance),
    /// clamped at 0.
    pub fn distance(&self, other: &Self) -> T {
        let d = self.rectangle_rectangle_distance(other);
        let scale = (other.center - self.center).norm()
            + self.half_lengths[0]
            + self.half_lengths[1]
            + other.half_lengths[0]
            + other.half_lengths[1]
            + self
                .center
                .coords
                .abs()
                .max()
                .max_of(other.center.coords.abs().max());
        let tol = scale * T::EPSILON * T::lit(8.0);
        (d - self.radius - other.radius - tol).max_of(T::ZERO)
    }
}
