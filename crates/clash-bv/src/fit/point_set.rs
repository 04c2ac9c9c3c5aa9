//! [`PointSet`]: the points a fit visits in place.

use crate::fit::lanes::pair_of;
use clash_math::lanes::Lanes;
use clash_math::{Point3, Scalar, Triangle};

/// A non-empty, finite set of points that a fit visits in place: a point
/// slice, a triangle slice's corners (no corner buffer), or points picked
/// by index ([`crate::IndexedPoints`]).
pub(crate) trait PointSet<T: Scalar> {
    /// Some point of the set.
    fn first(&self) -> Point3<T>;
    /// Number of points (repeats counted).
    fn len(&self) -> usize;
    /// Calls `f` on every point.
    fn each(&self, f: impl FnMut(&Point3<T>));
    /// Calls `f` on every point, two at a time in the lanes of a pair `L`
    /// ([`pair_of`]); an odd point out fills both lanes.
    fn each_pair<L: Lanes<T>>(&self, f: impl FnMut([L; 3]));
}

impl<T: Scalar> PointSet<T> for [Point3<T>] {
    #[inline]
    fn first(&self) -> Point3<T> {
        self.first().copied().unwrap_or_else(Point3::origin)
    }
    #[inline]
    fn len(&self) -> usize {
        <[Point3<T>]>::len(self)
    }
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(&Point3<T>)) {
        for p in self {
            f(p);
        }
    }
    #[inline(always)]
    fn each_pair<L: Lanes<T>>(&self, mut f: impl FnMut([L; 3])) {
        let mut pairs = self.chunks_exact(2);
        for p in &mut pairs {
            f(pair_of(&p[0], &p[1]));
        }
        if let [p] = pairs.remainder() {
            f(pair_of(p, p));
        }
    }
}

impl<T: Scalar> PointSet<T> for [Triangle<T>] {
    #[inline]
    fn first(&self) -> Point3<T> {
        self.first().map_or_else(Point3::origin, |t| t.a)
    }
    #[inline]
    fn len(&self) -> usize {
        3 * <[Triangle<T>]>::len(self)
    }
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(&Point3<T>)) {
        // One call site: the inliner weighs one copy of `f`, not three.
        for t in self {
            for p in [&t.a, &t.b, &t.c] {
                f(p);
            }
        }
    }
    #[inline(always)]
    fn each_pair<L: Lanes<T>>(&self, mut f: impl FnMut([L; 3])) {
        // Two triangles are three pairs of corners.
        let mut twos = self.chunks_exact(2);
        for t in &mut twos {
            for (a, b) in [(&t[0].a, &t[0].b), (&t[0].c, &t[1].a), (&t[1].b, &t[1].c)] {
                f(pair_of(a, b));
            }
        }
        if let [t] = twos.remainder() {
            for (a, b) in [(&t.a, &t.b), (&t.c, &t.c)] {
                f(pair_of(a, b));
            }
        }
    }
}
