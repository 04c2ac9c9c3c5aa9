use super::*;
use crate::{BoundingVolume, IndexedPoints, Obb, Rss};
use clash_math::{Rotation3, Scalar, Vector3};

/// The two lanes of a pair.
type Two<T> = <T as Scalar>::Pair;
use rand::{RngExt, SeedableRng};

fn lane_bits<T: Scalar>(x: Two<T>) -> [u64; 2] {
    x.lanes().map(|v| v.to_f64().to_bits())
}

/// Lane results equal the scalar expressions bit for bit, one point at
/// a time and in both lanes of two: `axes.tr_mul(&(p - c))` (what
/// `Obb::contains_point` reads and the fits' bounds assume), for f64 (SSE2 lanes on x86_64) and f32 (array lanes), over random
/// frames, centres far from and near the origin, and points inside and
/// outside.
#[test]
fn lanes_round_as_the_scalar_expressions() {
    fn check<T: Scalar>(seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for round in 0..2000 {
            let scale = [1e-3, 1.0, 1e3][round % 3];
            let shift = if round % 2 == 0 { 0.0 } else { 1e4 };
            let mut r = |s: f64| T::lit(rng.random_range(-s..s));
            let rot = Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0));
            let axes = *rot.matrix();
            let c = Point3::new(r(shift + 1.0), r(1.0), r(shift + 1.0));
            let p = Point3::new(c.x + r(scale), c.y + r(scale), c.z + r(scale));
            let q = Point3::new(c.x + r(2.0 * scale), c.y + r(scale), c.z + r(scale));
            let two = Frame::<Two<T>>::new(&axes);
            let one = Frame::<T>::new(&axes);
            let lanes: [Two<T>; 3] = pair_of(&p, &q);
            let u = two.project(&sub(&lanes, &splat_point(&c)));
            for (lane, x) in [p, q].iter().enumerate() {
                let want = axes.tr_mul(&(x - c));
                let single = [x.x, x.y, x.z];
                let u1 = one.project(&sub(&single, &splat_point(&c)));
                for k in 0..3 {
                    let bits = want[k].to_f64().to_bits();
                    assert_eq!(lane_bits::<T>(u[k])[lane], bits);
                    assert_eq!(u1[k].to_f64().to_bits(), bits);
                }
            }
        }
    }
    check::<f64>(1);
    check::<f32>(2);
}

/// Extents do not depend on the order or repetition of the points,
/// including the sign of a zero extent, nor on the width of the lanes.
#[test]
fn extents_ignore_order_repeats_and_lane_width() {
    let pts = [
        Point3::new(0.0_f64, -0.0, 1.0),
        Point3::new(-0.0, 0.0, 1.0),
        Point3::new(0.0, 0.0, 2.0),
    ];
    let identity = Matrix3::identity();
    let origin = Point3::new(-0.0, -0.0, 0.0);
    fn spans<L: Lanes<f64>>(
        frame: &Frame<L>,
        origin: &Point3<f64>,
        set: &[Point3<f64>],
    ) -> (Vector3<f64>, Vector3<f64>) {
        let (lo, hi, _) = spans_and_reach(frame, origin, set);
        (lo, hi)
    }
    let want = spans(&Frame::<Two<f64>>::new(&identity), &origin, &pts[..]);
    for set in [
        vec![pts[1], pts[0], pts[2]],
        vec![pts[2], pts[1], pts[1], pts[0]],
        vec![pts[0], pts[0], pts[1], pts[2], pts[1]],
    ] {
        for got in [
            spans(&Frame::<Two<f64>>::new(&identity), &origin, &set[..]),
            spans(&Frame::<f64>::new(&identity), &origin, &set[..]),
        ] {
            for k in 0..3 {
                assert_eq!(got.0[k].to_bits(), want.0[k].to_bits());
                assert_eq!(got.1[k].to_bits(), want.1[k].to_bits());
            }
        }
    }
    assert_eq!(want.0[0].to_bits(), 0.0f64.to_bits());
}

/// Whole fits one point at a time and two at a time agree bit for bit
/// (so that a fit does not depend on how many points a set lists), and
/// RSS fits with stored and recomputed coordinates too, on
/// random sets of 1 to 12 points, f64 and f32.
#[test]
fn fits_agree_across_lane_widths() {
    fn check<T: Scalar>(seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = crate::FitScratch::new();
        for round in 0..3000 {
            let n = 1 + round % 12;
            let mut r = |s: f64| T::lit(rng.random_range(-s..s));
            let axes = *Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0)).matrix();
            let flat = T::lit(if round % 4 == 0 { 1e-3 } else { 1.0 });
            let pts: Vec<Point3<T>> = (0..n)
                .map(|_| Point3::new(r(1.0), r(1.0), r(1.0) * flat))
                .collect();
            let (a, b) = (
                Obb::from_axes_in::<T, _>(&axes, &pts[..]),
                Obb::from_axes_in::<Two<T>, _>(&axes, &pts[..]),
            );
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
            let (a, b) = (
                Rss::fit_along_in::<T, _>(&axes, &pts[..]),
                Rss::fit_along_in::<Two<T>, _>(&axes, &pts[..]),
            );
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
            // Coordinates stored by the first pass and read back: the
            // same volume (the scratch keeps its last contents).
            let c = Rss::fit_along_stored(&axes, &pts[..], &mut scratch);
            assert_eq!(format!("{a:?}"), format!("{c:?}"));
        }
    }
    check::<f64>(3);
    check::<f32>(4);
}

fn rss_bits<T: Scalar>(r: &Rss<T>) -> Vec<u64> {
    let mut v: Vec<T> = r.center.iter().copied().collect();
    v.extend(r.axes.iter().copied());
    v.extend(r.half_lengths);
    v.push(r.radius);
    v.iter().map(|x| x.to_f64().to_bits()).collect()
}

fn obb_bits<T: Scalar>(b: &Obb<T>) -> Vec<u64> {
    let v = b
        .center
        .iter()
        .chain(b.axes.iter())
        .chain(b.half_extents.iter());
    v.map(|x| x.to_f64().to_bits()).collect()
}

/// Two sets fitted side by side in lanes ([`Across`]) give, lane by
/// lane, the very box and RSS each set gets alone: sets of 1 to 40 points (both sides of
/// the four-point stack path and the stored path, with sizes that
/// differ, so that the shorter set's last point repeats), flat and
/// round, near the origin and far from it, with repeated points and
/// signed zeros, f64 and f32.
#[test]
fn fits_side_by_side_match_single_fits() {
    fn check<T: Scalar>(seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = crate::FitScratch::new();
        let mut alone = crate::FitScratch::new();
        let sizes = [1, 2, 3, 4, 5, 6, 8, 9, 13, 40];
        for round in 0..4000 {
            let mut r = |s: f64| T::lit(rng.random_range(-s..s));
            let mut make = |round: usize, lane: usize| {
                let n = sizes[(round / 7 + lane * (1 + round % 3)) % sizes.len()];
                let far = if round.is_multiple_of(5) { 1e7 } else { 0.0 };
                let flat = [1.0, 1e-3, 0.0][(round + lane) % 3];
                let c = Vector3::new(r(far + 1.0), r(1.0), r(far + 1.0));
                let mut v: Vec<Point3<T>> = (0..n)
                    .map(|_| Point3::from(c + Vector3::new(r(1.0), r(0.5), r(1.0) * T::lit(flat))))
                    .collect();
                if round.is_multiple_of(11) && n > 1 {
                    v[n - 1] = v[0];
                }
                if round.is_multiple_of(13) {
                    v[0] = Point3::new(T::lit(-0.0), T::ZERO, T::lit(-0.0));
                }
                let axes = *Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0)).matrix();
                (v, axes)
            };
            let (va, aa) = make(round, 0);
            let (vb, ab) = make(round, 1);
            let (ia, ib): (Vec<u32>, Vec<u32>) = (
                (0..va.len() as u32).collect(),
                (0..vb.len() as u32).rev().collect(),
            );
            let pa = IndexedPoints::new(&va, &ia).unwrap();
            let pb = IndexedPoints::new(&vb, &ib).unwrap();
            let two = Rss::fit_along_stored_x2([&aa, &ab], [&pa, &pb], &mut scratch);
            let one = [
                Rss::fit_along_stored(&aa, &pa, &mut alone),
                Rss::fit_along_stored(&ab, &pb, &mut alone),
            ];
            let boxes = Obb::from_axes_x2([&aa, &ab], [&pa, &pb]);
            let alone = [Obb::from_axes_over(&aa, &pa), Obb::from_axes_over(&ab, &pb)];
            for lane in 0..2 {
                let at = format!("round {round} lane {lane}");
                assert_eq!(rss_bits(&two[lane]), rss_bits(&one[lane]), "{at}");
                assert_eq!(obb_bits(&boxes[lane]), obb_bits(&alone[lane]), "{at}");
            }
            for (lane, set) in [&va, &vb].into_iter().enumerate() {
                assert!(set.iter().all(|p| two[lane].contains_point(p)));
                assert!(set.iter().all(|p| boxes[lane].contains_point(p)));
            }
        }
    }
    check::<f64>(5);
    check::<f32>(6);
}
