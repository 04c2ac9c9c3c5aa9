//! Fuzz harness checks, shared by the cargo-fuzz targets in `fuzz/` and by
//! the `fuzz_seeds` test of the main workspace: decode bytes into shapes, run
//! the library, compare with the exact oracle, panic on a disagreement.
//!
//! Input format: a leading control byte, then little-endian `f64`s (missing
//! bytes read as zero). Control bits make the second shape reuse vertices of
//! the first (shared vertices and edges), and select an extra `f32` run.
//! The exact tests are checked for every finite input, subnormal and
//! near-overflow coordinates included; non-finite values must give `false`.

use super::{tri_box_f64, tri_tri_f64};
use clash_bv::{Aabb, BoundingVolume, Obb};
use clash_math::{Matrix3, Point3, Triangle, Vector3};

fn read_f64s(data: &[u8], n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let mut b = [0u8; 8];
            for (k, x) in b.iter_mut().enumerate() {
                *x = data.get(1 + 8 * i + k).copied().unwrap_or(0);
            }
            f64::from_le_bytes(b)
        })
        .collect()
}

/// Inputs the exact tests are checked on: every finite value.
fn in_domain(x: f64) -> bool {
    x.is_finite()
}

fn tri(v: &[f64]) -> [[f64; 3]; 3] {
    [[v[0], v[1], v[2]], [v[3], v[4], v[5]], [v[6], v[7], v[8]]]
}

fn to_tri(t: &[[f64; 3]; 3]) -> Triangle<f64> {
    Triangle::new(Point3::from(t[0]), Point3::from(t[1]), Point3::from(t[2]))
}

fn to_tri32(t: &[[f64; 3]; 3]) -> Triangle<f32> {
    let p = |v: [f64; 3]| Point3::new(v[0] as f32, v[1] as f32, v[2] as f32);
    Triangle::new(p(t[0]), p(t[1]), p(t[2]))
}

fn f32_round(t: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    t.map(|v| v.map(|x| x as f32 as f64))
}

/// `clash_narrow::overlap::triangle_triangle` against the exact oracle.
pub fn check_triangle_triangle(data: &[u8]) {
    let ctl = data.first().copied().unwrap_or(0);
    let v = read_f64s(data, 18);
    let t1 = tri(&v[0..9]);
    let mut t2 = tri(&v[9..18]);
    for i in 0..3 {
        if ctl >> i & 1 == 1 {
            t2[i] = t1[(i + (ctl as usize >> 3)) % 3];
        }
    }
    let (a, b) = (to_tri(&t1), to_tri(&t2));
    let got = clash_narrow::overlap::triangle_triangle(&a, &b);
    if t1.iter().chain(t2.iter()).flatten().any(|x| !x.is_finite()) {
        assert!(!got, "non-finite input must give false");
        return;
    }
    if !t1.iter().chain(t2.iter()).flatten().all(|&x| in_domain(x)) {
        return;
    }
    let expect = tri_tri_f64(&t1, &t2);
    assert_eq!(got, expect, "triangle_triangle({t1:?}, {t2:?})");
    assert_eq!(
        clash_narrow::overlap::triangle_triangle(&b, &a),
        expect,
        "swapped"
    );
    assert_eq!(
        clash_narrow::overlap::triangle_triangle_segment(&a, &b).is_some(),
        expect,
        "segment variant"
    );
    if ctl & 0x80 != 0 {
        let (s1, s2) = (f32_round(&t1), f32_round(&t2));
        if s1.iter().chain(s2.iter()).flatten().all(|&x| in_domain(x)) {
            let e32 = tri_tri_f64(&s1, &s2);
            assert_eq!(
                clash_narrow::overlap::triangle_triangle(&to_tri32(&t1), &to_tri32(&t2)),
                e32,
                "f32"
            );
        }
    }
}

/// `clash_narrow::overlap::triangle_aabb` against the exact oracle.
pub fn check_triangle_aabb(data: &[u8]) {
    let ctl = data.first().copied().unwrap_or(0);
    let v = read_f64s(data, 15);
    let mut t = tri(&v[0..9]);
    let (mut lo, mut hi) = ([v[9], v[10], v[11]], [v[12], v[13], v[14]]);
    if ctl & 1 == 0 {
        // usually a valid box
        for k in 0..3 {
            if lo[k] > hi[k] {
                core::mem::swap(&mut lo[k], &mut hi[k]);
            }
        }
    }
    // snap vertex coordinates onto box planes
    for (i, v) in t.iter_mut().enumerate() {
        for k in 0..3 {
            match (ctl >> (1 + (i * 3 + k) % 6)) & 3 {
                1 if ctl & 0x40 != 0 => v[k] = lo[k],
                2 if ctl & 0x40 != 0 => v[k] = hi[k],
                _ => {}
            }
        }
    }
    let b = Aabb {
        min: Point3::from(lo),
        max: Point3::from(hi),
    };
    let got = clash_narrow::overlap::triangle_aabb(&to_tri(&t), &b);
    let all: Vec<f64> = t
        .iter()
        .flatten()
        .chain(lo.iter())
        .chain(hi.iter())
        .copied()
        .collect();
    if all.iter().any(|x| !x.is_finite()) {
        assert!(!got, "non-finite input must give false");
        return;
    }
    if !all.iter().all(|&x| in_domain(x)) {
        return;
    }
    let expect = tri_box_f64(&t, &lo, &hi);
    assert_eq!(got, expect, "triangle_aabb({t:?}, [{lo:?}, {hi:?}])");
    if ctl & 0x80 != 0 {
        let (t32, lo32, hi32) = (
            f32_round(&t),
            lo.map(|x| x as f32 as f64),
            hi.map(|x| x as f32 as f64),
        );
        if t32
            .iter()
            .flatten()
            .chain(lo32.iter())
            .chain(hi32.iter())
            .all(|&x| in_domain(x))
        {
            let b32 = Aabb {
                min: Point3::from(lo32).cast::<f32>(),
                max: Point3::from(hi32).cast::<f32>(),
            };
            assert_eq!(
                clash_narrow::overlap::triangle_aabb(&to_tri32(&t), &b32),
                tri_box_f64(&t32, &lo32, &hi32),
                "f32"
            );
        }
    }
}

/// `BoundingVolume::overlaps` of `clash_bv::Obb` against the exact oracle on
/// the boxes' exact corners. The contract is conservative ("false only when
/// certainly disjoint"), so only a `false` for boxes that overlap even after
/// shrinking by a relative `2^-30` (beyond rounding of the axes) is a failure.
pub fn check_obb_obb(data: &[u8]) {
    let v = read_f64s(data, 14);
    // Finite, bounded, and on a 2^-20 grid: keeps the rational oracle fast.
    let clampv = |x: f64, lim: f64| {
        if x.is_finite() {
            (x.clamp(-lim, lim) * 1048576.0).round() / 1048576.0
        } else {
            0.0
        }
    };
    let mk = |w: &[f64]| -> Obb<f64> {
        let axis = Vector3::new(clampv(w[0], 1.0), clampv(w[1], 1.0), clampv(w[2], 1.0));
        let angle = clampv(w[3], 4.0);
        let rot = clash_math::Rotation3::new(axis * angle);
        Obb {
            center: Point3::new(clampv(w[4], 1e3), clampv(w[5], 1e3), clampv(w[6], 1e3)),
            axes: *rot.matrix(),
            half_extents: Vector3::new(
                clampv(w[0] * 7.0, 1e3).abs(),
                clampv(w[1] * 5.0, 1e3).abs(),
                clampv(w[2] * 3.0, 1e3).abs(),
            ),
        }
    };
    let (a, b) = (mk(&v[0..7]), mk(&v[7..14]));
    let got = a.overlaps(&b);
    // The tree descents' forms (two pairs in lanes, four pairs two by two,
    // four-lane SIMD where the target has it) decide each pair as the
    // one-pair relative test does.
    let id = clash_bv::RelativePose::from_matrix(clash_math::Matrix3::identity(), Vector3::zeros());
    let one = |x: &Obb<f64>, y: &Obb<f64>| clash_bv::BoundingVolume::overlaps_relative(x, y, &id);
    assert_eq!(
        Obb::overlaps_relative_x2([&a, &b], [&b, &a], &id),
        [one(&a, &b), one(&b, &a)]
    );
    let four = Obb::overlaps_relative_2x2([&a, &b], [&b, &a], &id);
    assert_eq!(
        four,
        [[one(&a, &b), one(&a, &a)], [one(&b, &b), one(&b, &a)]]
    );
    let shrink = 1.0 - 2f64.powi(-30); // dyadic, about 1e-9
    if obb_corners_overlap(&a, &b, shrink) {
        assert!(got, "overlaps() = false for overlapping boxes {a:?} {b:?}");
        assert!(
            four[0][0] && four[1][1],
            "2x2 test: false for overlapping boxes {a:?} {b:?}"
        );
    }
}

/// Exact: do the parallelepipeds `center + Σ u_k axis_k, |u_k| <= f h_k` overlap?
pub fn obb_corners_overlap(a: &Obb<f64>, b: &Obb<f64>, f: f64) -> bool {
    use super::{Q, convex_overlap, q};
    let pts = |o: &Obb<f64>| -> (Vec<[Q; 3]>, Vec<[Q; 3]>) {
        let m: Matrix3<f64> = o.axes;
        let dirs: Vec<[Q; 3]> = (0..3)
            .map(|k| core::array::from_fn(|r| q(m[(r, k)]) * q(o.half_extents[k]) * q(f)))
            .collect();
        let c = [q(o.center.x), q(o.center.y), q(o.center.z)];
        let corners = (0..8u32)
            .map(|s| {
                core::array::from_fn(|r| {
                    let mut x = c[r].clone();
                    for (k, d) in dirs.iter().enumerate() {
                        if s >> k & 1 == 0 {
                            x -= &d[r];
                        } else {
                            x += &d[r];
                        }
                    }
                    x
                })
            })
            .collect();
        (corners, dirs)
    };
    let (pa, da) = pts(a);
    let (pb, db) = pts(b);
    // All values are dyadic: scale by the largest denominator (a power of two,
    // hence a multiple of every other) and run the SAT on integers.
    let all = pa
        .iter()
        .chain(da.iter())
        .chain(pb.iter())
        .chain(db.iter())
        .flatten();
    let den = all
        .map(|x| x.denom().clone())
        .max()
        .unwrap_or_else(|| 1.into());
    let ints = |v: &[[Q; 3]]| -> Vec<[num_bigint::BigInt; 3]> {
        v.iter()
            .map(|p| core::array::from_fn(|r| p[r].numer() * (&den / p[r].denom())))
            .collect()
    };
    convex_overlap(&ints(&pa), &ints(&da), &ints(&pb), &ints(&db))
}
