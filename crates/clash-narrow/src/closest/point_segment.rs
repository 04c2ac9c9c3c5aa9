use clash_math::{Point3, Scalar, Segment};

/// The point of segment `seg` closest to `p`, as `(t, point)` with
/// `point = seg.a + t (seg.b - seg.a)` and `t ∈ [0, 1]`.
///
/// A zero-length segment returns `t = 0`. Ericson, RTCD §5.1.2.
#[inline]
pub fn point_segment<T: Scalar>(p: &Point3<T>, seg: &Segment<T>) -> (T, Point3<T>) {
    let ab = seg.b - seg.a;
    let t = ab.dot(&(p - seg.a));
    if t <= T::ZERO {
        return (T::ZERO, seg.a);
    }
    let denom = ab.norm_squared();
    if t >= denom {
        return (T::ONE, seg.b);
    }
    let t = t / denom;
    (t, seg.a + ab * t)
}
