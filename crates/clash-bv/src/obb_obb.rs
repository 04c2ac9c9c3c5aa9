//! OBB/OBB separating-axis test with the robustness epsilon of RTCD
//! §4.4.1–4.4.2 (Gottschalk's 15 axes, evaluated in the first box's frame).
use crate::Obb;
use clash_math::{Matrix3, Scalar, Vector3};

/// The epsilon added to `|R|` (RTCD §4.4.2): when an edge of A is nearly
/// parallel to an edge of B their cross product is nearly zero and rounding
/// could make the test report a separation that does not exist; the padding
/// makes such axes harmless. Relative to rotation-matrix entries (magnitude ≤ 1).
fn sat_epsilon<T: Scalar>() -> T {
    T::EPSILON * T::lit(64.0)
}

/// The 15-axis SAT of RTCD §4.4.1 for box A (half-widths `a`, at the origin
/// with identity axes) against box B (half-widths `b`, rotation `r` = B's
/// axes in A's frame, centre `t` in A's frame). `true` unless an axis separates.
pub(crate) fn sat_overlap<T: Scalar>(
    a: &Vector3<T>,
    b: &Vector3<T>,
    r: &Matrix3<T>,
    t: &Vector3<T>,
) -> bool {
    sat_separation(a, b, r, t, false) <= T::ZERO
}

/// Largest separation `|t·L| - (r_a + r_b)` over the 15 axes `L`,
/// normalised by `|L|` when `normalise` (a lower bound on the distance);
/// non-positive when no axis separates. Unnormalised, stops at the first
/// separating axis.
fn sat_separation<T: Scalar>(
    a: &Vector3<T>,
    b: &Vector3<T>,
    r: &Matrix3<T>,
    t: &Vector3<T>,
    normalise: bool,
) -> T {
    let eps = sat_epsilon::<T>();
    let abs_r = r.abs().add_scalar(eps);
    // The §4.4.2 epsilon pads the radii, but a radius of zero (a flat or
    // zero-extent box) multiplies it away; rounding in the rotated offset `t`
    // is then uncovered. An absolute slack of a few ulps of the magnitudes
    // keeps touching boxes (e.g. crossing segments) overlapping.
    let slack = (t.amax() + a.amax() + b.amax()) * sat_epsilon::<T>();
    let mut best = T::NEG_INFINITY;
    // Axes of A.
    for i in 0..3 {
        let ra = a[i];
        let rb = b[0] * abs_r[(i, 0)] + b[1] * abs_r[(i, 1)] + b[2] * abs_r[(i, 2)];
        let s = t[i].abs() - (ra + rb) - slack;
        if s > T::ZERO && !normalise {
            return s;
        }
        best = best.max_of(s);
    }
    // Axes of B.
    for j in 0..3 {
        let ra = a[0] * abs_r[(0, j)] + a[1] * abs_r[(1, j)] + a[2] * abs_r[(2, j)];
        let rb = b[j];
        let tj = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        let s = tj.abs() - (ra + rb) - slack;
        if s > T::ZERO && !normalise {
            return s;
        }
        best = best.max_of(s);
    }
    // Cross products A_i × B_j.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = a[i1] * abs_r[(i2, j)] + a[i2] * abs_r[(i1, j)];
            let rb = b[j1] * abs_r[(i, j2)] + b[j2] * abs_r[(i, j1)];
            let tl = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
            let s = tl.abs() - (ra + rb) - slack;
            if normalise {
                // |A_i × B_j| = sqrt(1 - R_ij²); skip near-parallel pairs.
                let len2 = T::ONE - r[(i, j)] * r[(i, j)];
                if len2 > T::lit(1e-6) {
                    best = best.max_of(s / len2.sqrt());
                }
            } else if s > T::ZERO {
                return s;
            }
        }
    }
    best
}

impl<T: Scalar> Obb<T> {
    /// `false` exactly when one of the 15 axes separates the boxes, RTCD §4.4.1,
    /// with the §4.4.2 epsilon making near-parallel edge axes conservative.
    pub fn overlaps_obb(&self, other: &Self) -> bool {
        let (r, t) = self.relative(other);
        sat_overlap(&self.half_extents, &other.half_extents, &r, &t)
    }

    /// A lower bound on the distance between two boxes: the largest gap
    /// along the 15 SAT axes (0 when none separates).
    pub fn separation_lower_bound(&self, other: &Self) -> T {
        let (r, t) = self.relative(other);
        let s = sat_separation(&self.half_extents, &other.half_extents, &r, &t, true);
        // The epsilon-padded radii only shrink the gap, so `s` stays a bound.
        s.max_of(T::ZERO)
    }

    /// `other`'s rotation and centre in `self`'s frame.
    fn relative(&self, other: &Self) -> (Matrix3<T>, Vector3<T>) {
        let r = self.axes.tr_mul(&other.axes);
        let t = self.axes.tr_mul(&(other.center - self.center));
        (r, t)
    }
}
