//! OBB/OBB separating-axis test with the robustness epsilon of RTCD
//! §4.4.1–4.4.2 (Gottschalk's 15 axes, evaluated in the first box's frame),
//! written once over [`Lanes`]: one box pair (the scalar itself), two (the
//! scalar's [`Pair`]) or four (`quad.rs`, the two-by-two test).

use crate::{Obb, RelativePose};
use clash_math::lanes::{Lanes, Pair};
use clash_math::{Matrix3, Scalar, Vector3};

/// Two box pairs side by side, in the scalar's [`Pair`] lanes (SSE2 for
/// `f64` on x86_64).
type X2<T> = <T as Scalar>::Pair;

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
/// `coords` is the magnitude of the coordinates `r` and `t` were computed
/// from ([`coordinate_magnitude`]).
#[inline]
pub(crate) fn sat_overlap<T: Scalar>(
    a: &Vector3<T>,
    b: &Vector3<T>,
    r: &Matrix3<T>,
    t: &Vector3<T>,
    coords: T,
) -> bool {
    let v = |x: &Vector3<T>| [x.x, x.y, x.z];
    let m = |i: usize| [r[(i, 0)], r[(i, 1)], r[(i, 2)]];
    !sat_separated::<T, T>(v(a), v(b), [m(0), m(1), m(2)], v(t), coords)
}

/// The magnitude of the coordinates a placement computes from: the largest
/// coordinate of box B's centre before placement plus the largest of the
/// placement's translation `t`. Placing B's centre (`R c_B + t`) rounds by
/// up to about `1.5ε (3 |c_B|∞ + |t|∞)` per coordinate, and placing the other
/// tree's triangles alike, whatever the boxes' own sizes and distance: two
/// boxes brought together by a large translation, or far from the origin,
/// touch across a gap of that rounding. The test's slack takes `16ε` of
/// it.
#[inline(always)]
pub(crate) fn coordinate_magnitude<T: Scalar, L: Lanes<T>>(b_center: [L; 3], translation: T) -> L {
    b_center[0]
        .abs()
        .max_of(b_center[1].abs())
        .max_of(b_center[2].abs())
        + L::splat(translation)
}

/// Which lanes have a separating axis among the 15 of RTCD §4.4.1 (box A
/// with half-widths `a` at the origin, box B with half-widths `b`, rotation
/// `r` (row-major: `r[i][j]` = axis i of A · axis j of B) and centre `t` in
/// A's frame), with the §4.4.2 epsilon. Stops once every lane is separated.
///
/// The hot test of every OBB tree descent: written out axis by axis on
/// local values. Each axis is evaluated with exactly the expressions of
/// [`sat_separation`], so the two agree bit for bit (a test checks it).
#[inline(always)]
pub(crate) fn sat_separated<T: Scalar, L: Lanes<T>>(
    a: [L; 3],
    b: [L; 3],
    r: [[L; 3]; 3],
    t: [L; 3],
    coords: L,
) -> L::Mask {
    let eps = L::splat(sat_epsilon::<T>());
    let zero = L::splat(T::ZERO);
    let amax = |v: [L; 3]| v[0].abs().max_of(v[1].abs()).max_of(v[2].abs());
    let slack = (amax(t) + amax(a) + amax(b) + coords * L::splat(T::lit(0.25))) * eps;
    let [a0, a1, a2] = a;
    let [b0, b1, b2] = b;
    let [t0, t1, t2] = t;
    let [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] = r;
    let (q00, q01, q02) = (r00.abs() + eps, r01.abs() + eps, r02.abs() + eps);
    let (q10, q11, q12) = (r10.abs() + eps, r11.abs() + eps, r12.abs() + eps);
    let (q20, q21, q22) = (r20.abs() + eps, r21.abs() + eps, r22.abs() + eps);
    // Lanes where the axis with projected offset `tl` and radii `ra`, `rb`
    // separates the boxes.
    let separates = |tl: L, ra: L, rb: L| (tl.abs() - (ra + rb) - slack).gt_mask(zero);
    let three = |x: L::Mask, y: L::Mask, z: L::Mask| L::or(L::or(x, y), z);
    // Axes of A.
    let mut done = three(
        separates(t0, a0, b0 * q00 + b1 * q01 + b2 * q02),
        separates(t1, a1, b0 * q10 + b1 * q11 + b2 * q12),
        separates(t2, a2, b0 * q20 + b1 * q21 + b2 * q22),
    );
    if L::all(done) {
        return done;
    }
    // Axes of B.
    done = L::or(
        done,
        three(
            separates(
                t0 * r00 + t1 * r10 + t2 * r20,
                a0 * q00 + a1 * q10 + a2 * q20,
                b0,
            ),
            separates(
                t0 * r01 + t1 * r11 + t2 * r21,
                a0 * q01 + a1 * q11 + a2 * q21,
                b1,
            ),
            separates(
                t0 * r02 + t1 * r12 + t2 * r22,
                a0 * q02 + a1 * q12 + a2 * q22,
                b2,
            ),
        ),
    );
    if L::all(done) {
        return done;
    }
    // Cross products A_i × B_j, as in `sat_separation` with
    // (i1, i2) = (i + 1, i + 2) and (j1, j2) = (j + 1, j + 2) mod 3.
    done = L::or(
        done,
        three(
            separates(
                t2 * r10 - t1 * r20,
                a1 * q20 + a2 * q10,
                b1 * q02 + b2 * q01,
            ),
            separates(
                t2 * r11 - t1 * r21,
                a1 * q21 + a2 * q11,
                b2 * q00 + b0 * q02,
            ),
            separates(
                t2 * r12 - t1 * r22,
                a1 * q22 + a2 * q12,
                b0 * q01 + b1 * q00,
            ),
        ),
    );
    if L::all(done) {
        return done;
    }
    done = L::or(
        done,
        three(
            separates(
                t0 * r20 - t2 * r00,
                a2 * q00 + a0 * q20,
                b1 * q12 + b2 * q11,
            ),
            separates(
                t0 * r21 - t2 * r01,
                a2 * q01 + a0 * q21,
                b2 * q10 + b0 * q12,
            ),
            separates(
                t0 * r22 - t2 * r02,
                a2 * q02 + a0 * q22,
                b0 * q11 + b1 * q10,
            ),
        ),
    );
    if L::all(done) {
        return done;
    }
    L::or(
        done,
        three(
            separates(
                t1 * r00 - t0 * r10,
                a0 * q10 + a1 * q00,
                b1 * q22 + b2 * q21,
            ),
            separates(
                t1 * r01 - t0 * r11,
                a0 * q11 + a1 * q01,
                b2 * q20 + b0 * q22,
            ),
            separates(
                t1 * r02 - t0 * r12,
                a0 * q12 + a1 * q02,
                b0 * q21 + b1 * q20,
            ),
        ),
    )
}

/// Box B (axes `b_axes`, centre `b_center`) moved by `pose` into the frame
/// of box A (axes `a_axes`, centre `a_center`): the rotation `Aᵀ R B` and
/// the centre `Aᵀ (R c_B + t - c_A)` that [`sat_separated`] takes. Matrices
/// are row-major (`m[i][j]` is row i, column j; box axes are columns). Sums
/// of three products are evaluated left to right.
#[inline(always)]
pub(crate) fn relative_lanes<T: Scalar, L: Lanes<T>>(
    a_axes: [[L; 3]; 3],
    a_center: [L; 3],
    b_axes: [[L; 3]; 3],
    b_center: [L; 3],
    pose: &RelativePose<T>,
) -> ([[L; 3]; 3], [L; 3]) {
    let (p, c) = placed_lanes(b_axes, b_center, pose);
    relative_to_placed(a_axes, a_center, p, c)
}

/// The first half of [`relative_lanes`]: box B's axes and centre moved by
/// `pose`, `R B` and `R c_B + t`. A descent that tests two children of A
/// against the same box B places B once.
#[inline(always)]
fn placed_lanes<T: Scalar, L: Lanes<T>>(
    b_axes: [[L; 3]; 3],
    b_center: [L; 3],
    pose: &RelativePose<T>,
) -> ([[L; 3]; 3], [L; 3]) {
    let rm = |i: usize, j: usize| L::splat(pose.rotation[(i, j)]);
    let p = core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            rm(i, 0) * b_axes[0][j] + rm(i, 1) * b_axes[1][j] + rm(i, 2) * b_axes[2][j]
        })
    });
    let c = core::array::from_fn(|i| {
        rm(i, 0) * b_center[0]
            + rm(i, 1) * b_center[1]
            + rm(i, 2) * b_center[2]
            + L::splat(pose.translation[i])
    });
    (p, c)
}

/// The second half of [`relative_lanes`]: placed box B (axes `p`, centre
/// `c`, from [`placed_lanes`]) in the frame of box A, `Aᵀ p` and
/// `Aᵀ (c - c_A)`.
#[inline(always)]
fn relative_to_placed<T: Scalar, L: Lanes<T>>(
    a_axes: [[L; 3]; 3],
    a_center: [L; 3],
    p: [[L; 3]; 3],
    c: [L; 3],
) -> ([[L; 3]; 3], [L; 3]) {
    let r = core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            a_axes[0][i] * p[0][j] + a_axes[1][i] * p[1][j] + a_axes[2][i] * p[2][j]
        })
    });
    let d: [L; 3] = core::array::from_fn(|i| c[i] - a_center[i]);
    let t =
        core::array::from_fn(|i| a_axes[0][i] * d[0] + a_axes[1][i] * d[1] + a_axes[2][i] * d[2]);
    (r, t)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod quad;

/// The four-lane form of [`Obb::overlaps_relative_2x2`]: `f32` boxes in SSE
/// lanes, `f64` boxes in AVX lanes when the CPU has AVX; `None` otherwise.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn quad_2x2<T: Scalar>(
    a: [&Obb<T>; 2],
    b: [&Obb<T>; 2],
    pose: &RelativePose<T>,
) -> Option<[[bool; 2]; 2]> {
    use core::any::Any;
    fn as_box<T: Scalar, U: Scalar>(o: &Obb<T>) -> Option<&Obb<U>> {
        (o as &dyn Any).downcast_ref()
    }
    fn as_pose<T: Scalar, U: Scalar>(p: &RelativePose<T>) -> Option<&RelativePose<U>> {
        (p as &dyn Any).downcast_ref()
    }
    if let Some(pose) = as_pose::<T, f32>(pose) {
        let (a0, a1, b0, b1) = (as_box(a[0])?, as_box(a[1])?, as_box(b[0])?, as_box(b[1])?);
        return Some(quad::overlaps_2x2_f32([a0, a1], [b0, b1], pose));
    }
    let pose = as_pose::<T, f64>(pose)?;
    let (a0, a1, b0, b1) = (as_box(a[0])?, as_box(a[1])?, as_box(b[0])?, as_box(b[1])?);
    if !std::is_x86_feature_detected!("avx") {
        return None;
    }
    // SAFETY: AVX was detected just above, which is `overlaps_2x2_f64`'s contract.
    #[allow(unsafe_code)]
    Some(unsafe { quad::overlaps_2x2_f64([a0, a1], [b0, b1], pose) })
}

impl<T: Scalar> Obb<T> {
    /// The relative-frame SAT (RTCD §4.4.1–4.4.2) of two box pairs at once:
    /// lane `k` tests `a[k]` against `b[k]` placed by `pose`, with exactly
    /// the arithmetic of [`crate::BoundingVolume::overlaps_relative`] (so the
    /// answers are the same bit for bit), on the scalar's
    /// [`Pair`](clash_math::Pair) lanes: one SSE2 register per value for
    /// `f64` on x86_64. Tree descents test the two children of a node this
    /// way, for less than two one-pair tests cost (each instruction serves
    /// both pairs).
    // Internal to the clash crates: clash-bvh's descents test node pairs through it.
    #[doc(hidden)]
    #[inline]
    pub fn overlaps_relative_x2(a: [&Self; 2], b: [&Self; 2], pose: &RelativePose<T>) -> [bool; 2] {
        let (ca, cb) = (Self::center_x2(a), Self::center_x2(b));
        let (p, c) = placed_lanes::<T, X2<T>>(Self::axes_x2(b), cb, pose);
        let (r, t) = relative_to_placed(Self::axes_x2(a), ca, p, c);
        let coords = coordinate_magnitude(cb, pose.translation.amax());
        Self::sat_x2(
            Self::half_extents_x2(a),
            Self::half_extents_x2(b),
            r,
            t,
            coords,
        )
    }

    /// The four tests of two boxes of one tree against two boxes of another
    /// (the children of two nodes a descent opens together): `[i][j]` is
    /// `a[i]` against `b[j]` placed by `pose`, with exactly the arithmetic of
    /// [`overlaps_relative_x2`](Self::overlaps_relative_x2) and so of the
    /// one-pair test, bit for bit. `b`'s two boxes are placed once, in two
    /// lanes, and each box of `a` is tested against both. On x86_64 the
    /// four pairs run in four lanes at once instead: `f32` in SSE, `f64`
    /// in AVX when the CPU has it (detected at run time).
    // Internal to the clash crates: clash-bvh's descents test node pairs through it.
    #[doc(hidden)]
    #[inline]
    pub fn overlaps_relative_2x2(
        a: [&Self; 2],
        b: [&Self; 2],
        pose: &RelativePose<T>,
    ) -> [[bool; 2]; 2] {
        #[cfg(target_arch = "x86_64")]
        if let Some(four) = quad_2x2(a, b, pose) {
            return four;
        }
        let cb = Self::center_x2(b);
        let (p, c) = placed_lanes::<T, X2<T>>(Self::axes_x2(b), cb, pose);
        let hb = Self::half_extents_x2(b);
        let translation = pose.translation.amax();
        a.map(|ai| {
            let ca = Self::center_x2([ai, ai]);
            let (r, t) = relative_to_placed(Self::axes_x2([ai, ai]), ca, p, c);
            let coords = coordinate_magnitude(cb, translation);
            Self::sat_x2(Self::half_extents_x2([ai, ai]), hb, r, t, coords)
        })
    }

    /// The axes of two boxes as lanes (row-major).
    #[inline(always)]
    fn axes_x2(o: [&Self; 2]) -> [[X2<T>; 3]; 3] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| T::Pair::new(o[0].axes[(i, j)], o[1].axes[(i, j)]))
        })
    }

    /// The centres of two boxes as lanes.
    #[inline(always)]
    fn center_x2(o: [&Self; 2]) -> [X2<T>; 3] {
        core::array::from_fn(|i| T::Pair::new(o[0].center[i], o[1].center[i]))
    }

    /// The half-extents of two boxes as lanes.
    #[inline(always)]
    fn half_extents_x2(o: [&Self; 2]) -> [X2<T>; 3] {
        core::array::from_fn(|i| T::Pair::new(o[0].half_extents[i], o[1].half_extents[i]))
    }

    /// [`sat_separated`] on two lanes, as overlap flags.
    #[inline(always)]
    fn sat_x2(
        ha: [X2<T>; 3],
        hb: [X2<T>; 3],
        r: [[X2<T>; 3]; 3],
        t: [X2<T>; 3],
        coords: X2<T>,
    ) -> [bool; 2] {
        let sep = sat_separated::<T, X2<T>>(ha, hb, r, t, coords);
        [!X2::<T>::flag(sep, 0), !X2::<T>::flag(sep, 1)]
    }

    /// [`BoundingVolume::overlaps_relative`] for boxes: `other` placed by
    /// `pose`, then the 15-axis SAT.
    #[inline]
    pub(crate) fn overlaps_relative_lanes(&self, other: &Self, pose: &RelativePose<T>) -> bool {
        let m = |x: &Matrix3<T>| -> [[T; 3]; 3] {
            core::array::from_fn(|i| core::array::from_fn(|j| x[(i, j)]))
        };
        let v = |x: &Vector3<T>| [x.x, x.y, x.z];
        let (r, t) = relative_lanes::<T, T>(
            m(&self.axes),
            v(&self.center.coords),
            m(&other.axes),
            v(&other.center.coords),
            pose,
        );
        let coords = other.placement_magnitude(pose.translation.amax());
        !sat_separated::<T, T>(v(&self.half_extents), v(&other.half_extents), r, t, coords)
    }
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
    coords: T,
    normalise: bool,
) -> T {
    let eps = sat_epsilon::<T>();
    let abs_r = r.abs().add_scalar(eps);
    // The §4.4.2 epsilon pads the radii, but a radius of zero (a flat or
    // zero-extent box) multiplies it away; rounding in the rotated offset `t`
    // is then uncovered. An absolute slack of a few ulps of the magnitudes
    // keeps touching boxes (e.g. crossing segments) overlapping.
    let slack = (t.amax() + a.amax() + b.amax() + coords * T::lit(0.25)) * sat_epsilon::<T>();
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
        sat_overlap(&self.half_extents, &other.half_extents, &r, &t, T::ZERO)
    }

    /// A lower bound on the distance between two boxes: the largest gap
    /// along the 15 SAT axes (0 when none separates).
    pub fn separation_lower_bound(&self, other: &Self) -> T {
        let (r, t) = self.relative(other);
        let (a, b) = (&self.half_extents, &other.half_extents);
        let s = sat_separation(a, b, &r, &t, T::ZERO, true);
        // The epsilon-padded radii only shrink the gap, so `s` stays a bound.
        s.max_of(T::ZERO)
    }

    /// [`coordinate_magnitude`] of this box placed by a translation of
    /// largest coordinate `translation`.
    #[inline]
    pub(crate) fn placement_magnitude(&self, translation: T) -> T {
        let c = &self.center;
        coordinate_magnitude::<T, T>([c.x, c.y, c.z], translation)
    }

    /// `other`'s rotation and centre in `self`'s frame.
    fn relative(&self, other: &Self) -> (Matrix3<T>, Vector3<T>) {
        let r = self.axes.tr_mul(&other.axes);
        let t = self.axes.tr_mul(&(other.center - self.center));
        (r, t)
    }
}

#[cfg(test)]
mod tests;
