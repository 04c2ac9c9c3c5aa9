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
///
/// The hot test of every OBB tree descent: written out axis by axis on
/// local scalars, stopping at the first separating axis. Each axis is
/// evaluated with exactly the expressions of [`sat_separation`], so the two
/// agree bit for bit (a test checks it).
#[inline]
pub(crate) fn sat_overlap<T: Scalar>(
    a: &Vector3<T>,
    b: &Vector3<T>,
    r: &Matrix3<T>,
    t: &Vector3<T>,
) -> bool {
    let eps = sat_epsilon::<T>();
    let slack = (t.amax() + a.amax() + b.amax()) * sat_epsilon::<T>();
    let (a0, a1, a2) = (a.x, a.y, a.z);
    let (b0, b1, b2) = (b.x, b.y, b.z);
    let (t0, t1, t2) = (t.x, t.y, t.z);
    let (r00, r01, r02) = (r[(0, 0)], r[(0, 1)], r[(0, 2)]);
    let (r10, r11, r12) = (r[(1, 0)], r[(1, 1)], r[(1, 2)]);
    let (r20, r21, r22) = (r[(2, 0)], r[(2, 1)], r[(2, 2)]);
    let (q00, q01, q02) = (r00.abs() + eps, r01.abs() + eps, r02.abs() + eps);
    let (q10, q11, q12) = (r10.abs() + eps, r11.abs() + eps, r12.abs() + eps);
    let (q20, q21, q22) = (r20.abs() + eps, r21.abs() + eps, r22.abs() + eps);
    // `true` when the axis with projected offset `tl` and radii `ra`, `rb`
    // separates the boxes.
    let separates = |tl: T, ra: T, rb: T| tl.abs() - (ra + rb) - slack > T::ZERO;
    // Axes of A.
    if separates(t0, a0, b0 * q00 + b1 * q01 + b2 * q02)
        || separates(t1, a1, b0 * q10 + b1 * q11 + b2 * q12)
        || separates(t2, a2, b0 * q20 + b1 * q21 + b2 * q22)
    {
        return false;
    }
    // Axes of B.
    if separates(
        t0 * r00 + t1 * r10 + t2 * r20,
        a0 * q00 + a1 * q10 + a2 * q20,
        b0,
    ) || separates(
        t0 * r01 + t1 * r11 + t2 * r21,
        a0 * q01 + a1 * q11 + a2 * q21,
        b1,
    ) || separates(
        t0 * r02 + t1 * r12 + t2 * r22,
        a0 * q02 + a1 * q12 + a2 * q22,
        b2,
    ) {
        return false;
    }
    // Cross products A_i × B_j, as in `sat_separation` with
    // (i1, i2) = (i + 1, i + 2) and (j1, j2) = (j + 1, j + 2) mod 3.
    !(separates(
        t2 * r10 - t1 * r20,
        a1 * q20 + a2 * q10,
        b1 * q02 + b2 * q01,
    ) || separates(
        t2 * r11 - t1 * r21,
        a1 * q21 + a2 * q11,
        b2 * q00 + b0 * q02,
    ) || separates(
        t2 * r12 - t1 * r22,
        a1 * q22 + a2 * q12,
        b0 * q01 + b1 * q00,
    ) || separates(
        t0 * r20 - t2 * r00,
        a2 * q00 + a0 * q20,
        b1 * q12 + b2 * q11,
    ) || separates(
        t0 * r21 - t2 * r01,
        a2 * q01 + a0 * q21,
        b2 * q10 + b0 * q12,
    ) || separates(
        t0 * r22 - t2 * r02,
        a2 * q02 + a0 * q22,
        b0 * q11 + b1 * q10,
    ) || separates(
        t1 * r00 - t0 * r10,
        a0 * q10 + a1 * q00,
        b1 * q22 + b2 * q21,
    ) || separates(
        t1 * r01 - t0 * r11,
        a0 * q11 + a1 * q01,
        b2 * q20 + b0 * q22,
    ) || separates(
        t1 * r02 - t0 * r12,
        a0 * q12 + a1 * q02,
        b0 * q21 + b1 * q20,
    ))
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

#[cfg(test)]
mod tests {
    use super::{sat_overlap, sat_separation};
    use clash_math::{Matrix3, Rotation3, Vector3};
    use rand::{RngExt, SeedableRng};

    /// The written-out [`sat_overlap`] decides exactly as the loop form in
    /// [`sat_separation`] (the reference): random boxes placed near the
    /// touching distance, flat and zero-extent boxes, axis-aligned and
    /// near-parallel rotations, in f32 and f64.
    #[test]
    fn unrolled_overlap_equals_the_loop_form() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let (mut overlaps, mut separated) = (0, 0);
        for case in 0..200_000 {
            let extent = |rng: &mut rand_chacha::ChaCha8Rng| match rng.random_range(0..8) {
                0 => 0.0,
                1 => 1e-9,
                _ => rng.random_range(0.0..2.0),
            };
            let a = Vector3::new(extent(&mut rng), extent(&mut rng), extent(&mut rng));
            let b = Vector3::new(extent(&mut rng), extent(&mut rng), extent(&mut rng));
            let r: Matrix3<f64> = match case % 4 {
                // Exactly axis-aligned, and a tiny tilt off it.
                0 => Matrix3::identity(),
                1 => *Rotation3::new(Vector3::new(1e-9, -2e-9, 1e-8)).matrix(),
                _ => {
                    let axis = Vector3::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    *Rotation3::new(axis * rng.random_range(0.0..3.2)).matrix()
                }
            };
            // Centre at a random direction, scaled around the touching range.
            let dir = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let t = dir * rng.random_range(0.0..4.0);
            let reference = sat_separation(&a, &b, &r, &t, false) <= 0.0;
            assert_eq!(
                sat_overlap(&a, &b, &r, &t),
                reference,
                "{a:?} {b:?} {r:?} {t:?}"
            );
            let (a32, b32, r32, t32) = (
                a.cast::<f32>(),
                b.cast::<f32>(),
                r.cast::<f32>(),
                t.cast::<f32>(),
            );
            let reference32 = sat_separation(&a32, &b32, &r32, &t32, false) <= 0.0;
            assert_eq!(sat_overlap(&a32, &b32, &r32, &t32), reference32);
            if reference {
                overlaps += 1;
            } else {
                separated += 1;
            }
        }
        // Both outcomes are well represented.
        assert!(
            overlaps > 40_000 && separated > 40_000,
            "{overlaps} {separated}"
        );
    }
}
