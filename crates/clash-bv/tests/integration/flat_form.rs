//! The flat form saved trees store (`write_flat` / `read_flat`, through
//! `Scalar::write_le` / `read_le`), and `is_well_formed`, which a loader
//! checks on every node.
//!
//! - Round trips are bit for bit, for fitted volumes and for arbitrary
//!   values (NaN, infinities, signed zeros, subnormals), and a flat form of
//!   the wrong length is refused.
//! - `is_well_formed` gives the answer of its definition, the examination of
//!   `bounding_obb` written out here (finite centre, half-extents and axes,
//!   half-extents not negative, `AᵀA - I` within `16ε`, positive
//!   determinant), on fitted volumes and on volumes with one coordinate
//!   moved or replaced by a special value. RSS is stricter by design: it
//!   also refuses a negative half-length that its radius outweighs.
use crate::common;

use clash_bv::{
    Aabb, BoundingVolume, Capsule, FitVolume, FlatVolume, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere,
};
use clash_math::{Matrix3, Point3, Scalar};
use common::{cloud, pt, rng};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// `is_well_formed` as its documentation defines it, apart from the code
/// under test.
fn reference_well_formed<T: Scalar, B: BoundingVolume<T>>(b: &B) -> bool {
    let o = b.bounding_obb();
    let tol = 16.0 * T::EPSILON.to_f64();
    let gram = o.axes.transpose() * o.axes - Matrix3::identity();
    o.center.iter().all(|x| x.finite())
        && o.half_extents.iter().all(|&e| e.finite() && e >= T::ZERO)
        && o.axes.iter().all(|x| x.finite())
        && gram.iter().all(|x| x.abs().to_f64() <= tol)
        && o.axes.determinant() > T::ZERO
}

/// Volumes of type `B` fitted to every kind of cloud of `common`.
fn fitted<T: Scalar, B: FitVolume<T>>() -> Vec<B> {
    (0..28u8)
        .map(|k| {
            let pts: Vec<Point3<T>> = cloud(k, 3 + 5 * k as usize, u64::from(k))
                .iter()
                .map(pt)
                .collect();
            B::fit_points(&pts).unwrap()
        })
        .collect()
}

fn flat_of<T: Scalar, B: FlatVolume<T>>(b: &B) -> Vec<T> {
    let mut flat = Vec::new();
    b.write_flat(&mut flat);
    flat
}

/// The flat form through little-endian bytes, as a tree file holds it.
fn through_bytes<T: Scalar>(flat: &[T]) -> Vec<T> {
    let mut bytes = Vec::new();
    for &x in flat {
        x.write_le(&mut bytes);
    }
    assert_eq!(bytes.len(), flat.len() * T::BYTES);
    let mut back = vec![T::ZERO; flat.len()];
    assert!(T::read_le(&bytes, &mut back));
    assert!(!T::read_le(&bytes[1..], &mut back));
    back
}

fn bits<T: Scalar>(flat: &[T]) -> Vec<u64> {
    flat.iter().map(|x| x.to_f64().to_bits()).collect()
}

/// A value a tree file could hold in place of `x`.
fn odd_value<T: Scalar>(x: T, r: &mut ChaCha8Rng) -> T {
    match r.random_range(0..9) {
        0 => T::lit(f64::NAN),
        1 => T::INFINITY,
        2 => T::NEG_INFINITY,
        3 => -x,
        4 => T::lit(-0.0),
        5 => T::MIN_POSITIVE * T::lit(0.25),
        6 => x * T::lit(1e30),
        7 => x + T::EPSILON * T::lit(r.random_range(-64.0..64.0)),
        _ => x * (T::ONE + T::EPSILON * T::lit(r.random_range(-64.0..64.0))),
    }
}

fn check_type<T: Scalar, B: FitVolume<T> + FlatVolume<T>>(strict_rss: bool) {
    let mut r = rng(7);
    let (mut refused, mut accepted) = (0, 0);
    for b in fitted::<T, B>() {
        let flat = flat_of(&b);
        assert_eq!(flat.len(), B::FLAT_LEN, "{}", B::NAME);
        assert_eq!(B::read_flat(&flat), Some(b.clone()), "{}", B::NAME);
        assert_eq!(B::read_flat(&through_bytes(&flat)), Some(b.clone()));
        assert_eq!(B::read_flat(&flat[1..]), None);
        let mut longer = flat.clone();
        longer.push(T::ONE);
        assert_eq!(B::read_flat(&longer), None);
        assert!(
            b.is_well_formed(),
            "a fitted {} is well formed: {b:?}",
            B::NAME
        );
        assert!(reference_well_formed(&b));
        for _ in 0..40 {
            let mut odd = flat.clone();
            let k = r.random_range(0..odd.len());
            odd[k] = odd_value(odd[k], &mut r);
            let v = B::read_flat(&odd).unwrap();
            // Bit for bit, NaN payloads and signed zeros included.
            assert_eq!(bits(&flat_of(&v)), bits(&odd), "{}", B::NAME);
            assert_eq!(bits(&through_bytes(&odd)), bits(&odd));
            let (ours, theirs) = (v.is_well_formed(), reference_well_formed(&v));
            if strict_rss {
                assert!(!ours || theirs, "{}: {v:?}", B::NAME);
            } else {
                assert_eq!(ours, theirs, "{}: {v:?}", B::NAME);
            }
            if ours {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    // Both answers occur.
    assert!(
        refused > 50 && accepted > 50,
        "{}: {refused} refused, {accepted} accepted",
        B::NAME
    );
}

#[test]
fn flat_forms_round_trip_and_well_formed_matches_its_definition() {
    check_type::<f64, Aabb<f64>>(false);
    check_type::<f32, Aabb<f32>>(false);
    check_type::<f64, Sphere<f64>>(false);
    check_type::<f32, Sphere<f32>>(false);
    check_type::<f64, Obb<f64>>(false);
    check_type::<f32, Obb<f32>>(false);
    check_type::<f64, Capsule<f64>>(false);
    check_type::<f32, Capsule<f32>>(false);
    check_type::<f64, Rss<f64>>(true);
    check_type::<f32, Rss<f32>>(true);
    check_type::<f64, Kdop14<f64>>(false);
    check_type::<f32, Kdop18<f32>>(false);
    check_type::<f64, Kdop26<f64>>(false);
}

/// RSS is stricter than the definition only where a half-length is
/// negative.
#[test]
fn rss_refuses_negative_half_lengths_the_radius_outweighs() {
    let b = Rss::fit_points(&[Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.2, 0.1)]).unwrap();
    let mut neg = b;
    neg.half_lengths[1] = -1e-3;
    neg.radius = b.radius + 1.0;
    assert!(reference_well_formed(&neg) && !neg.is_well_formed());
}
