//! Empty and non-finite input gives a typed error from every fit, never a
//! panic or a NaN volume.
use clash_bv::{
    Aabb, BoundingVolume, Capsule, FitError, FitVolume, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere,
};
use clash_math::{Point3, Scalar, Triangle};

fn check<T: Scalar>() {
    let good = Point3::new(T::ONE, T::ZERO, T::ZERO);
    let bad_values = [T::lit(f64::NAN), T::INFINITY, T::NEG_INFINITY];
    let tri = |p: Point3<T>| Triangle::new(good, p, good);
    macro_rules! both {
        ($($name:literal => $pf:expr, $tf:expr);+ $(;)?) => {{
            $(
                assert_eq!($pf(&[]).err(), Some(FitError::Empty), "{} empty points", $name);
                assert_eq!($tf(&[]).err(), Some(FitError::Empty), "{} empty triangles", $name);
                for bad in bad_values {
                    for k in 0..3 {
                        let mut p = good;
                        p[k] = bad;
                        assert_eq!($pf(&[good, good, p]).err(), Some(FitError::NonFinite { index: 2 }), "{} {bad}", $name);
                        assert_eq!($tf(&[tri(good), tri(p)]).err(), Some(FitError::NonFinite { index: 1 }), "{} tri {bad}", $name);
                    }
                }
            )+
        }};
    }
    both! {
        "aabb" => Aabb::<T>::fit_points, Aabb::<T>::fit_triangles;
        "sphere" => Sphere::<T>::fit_points, Sphere::<T>::fit_triangles;
        "ritter" => Sphere::<T>::ritter, Sphere::<T>::fit_triangles_tight;
        "ritter_eigen" => Sphere::<T>::ritter_eigen, Sphere::<T>::fit_triangles;
        "ritter_iterative" => |p: &[Point3<T>]| Sphere::<T>::ritter_iterative(p, 3), Sphere::<T>::fit_triangles;
        "welzl" => Sphere::<T>::welzl, Sphere::<T>::fit_triangles;
        "obb" => Obb::<T>::fit_pca_points, Obb::<T>::fit_pca_triangles;
        "obb_hull" => Obb::<T>::fit_pca_hull, Obb::<T>::fit_tight_triangles;
        "obb_tight" => Obb::<T>::fit_tight, Obb::<T>::fit_triangles_tight;
        "capsule" => Capsule::<T>::fit_pca, Capsule::<T>::fit_pca_triangles;
        "rss" => Rss::<T>::fit_pca, Rss::<T>::fit_pca_triangles;
        "kdop14" => Kdop14::<T>::from_points, Kdop14::<T>::fit_triangles;
        "kdop18" => Kdop18::<T>::from_points, Kdop18::<T>::fit_triangles;
        "kdop26" => Kdop26::<T>::from_points, Kdop26::<T>::fit_triangles;
    }
}

#[test]
fn typed_errors_f32() {
    check::<f32>();
}

#[test]
fn typed_errors_f64() {
    check::<f64>();
}

/// Degenerate triangles (all corners equal, collinear corners) give finite volumes.
#[test]
fn degenerate_triangles_give_finite_volumes() {
    let p = Point3::new(1.0_f64, 2.0, 3.0);
    let q = Point3::new(2.0, 4.0, 6.0);
    for tris in [
        vec![Triangle::new(p, p, p)],
        vec![Triangle::new(p, q, clash_math::nalgebra::center(&p, &q))],
    ] {
        let o = Obb::fit_triangles_tight(&tris).unwrap();
        assert!(
            o.half_extents.iter().all(|x| x.is_finite())
                && o.center.coords.iter().all(|x| x.is_finite())
        );
        let c = Capsule::fit_triangles(&tris).unwrap();
        assert!(
            c.radius.is_finite()
                && tris
                    .iter()
                    .all(|t| t.vertices().iter().all(|v| c.contains_point(v)))
        );
        let r = Rss::fit_triangles(&tris).unwrap();
        assert!(r.radius.is_finite() && r.contains_point(&p));
        let s = Sphere::fit_triangles(&tris).unwrap();
        assert!(s.radius.is_finite() && s.contains_point(&p));
        let k = Kdop26::fit_triangles(&tris).unwrap();
        assert!(k.volume() <= 1e-9 && k.surface_area().is_finite());
    }
}

/// k-DOPs deserialize from the two-sequence form (hand-written impl for
/// `[T; N]`) and reject sequences of the wrong length.
#[test]
fn kdop_serde_from_sequences() {
    use serde::de::IntoDeserializer;
    use serde::de::value::Error;
    let k = Kdop14::from_points(&[Point3::new(1.0_f64, 2.0, 3.0), Point3::new(-1.0, 0.5, 2.0)])
        .unwrap();
    let (min, max) = (k.min.to_vec(), k.max.to_vec());
    let d = IntoDeserializer::<Error>::into_deserializer(vec![min.clone(), max.clone()]);
    let back: Kdop14<f64> = serde::Deserialize::deserialize(d).unwrap();
    assert_eq!(back, k);
    let d = IntoDeserializer::<Error>::into_deserializer(vec![min[..3].to_vec(), max]);
    assert!(<Kdop14<f64> as serde::Deserialize>::deserialize(d).is_err());
}
