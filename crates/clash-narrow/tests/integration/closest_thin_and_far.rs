//! Closest points of triangles whose own rounding is the difficulty:
//! collinear and nearly collinear triangles, whose computed normals are
//! rounding noise, and a corner far from a tiny triangle, in or near its
//! plane. The oracles are those of `closest_oracle` (ternary search and
//! dense sampling).

use crate::closest_oracle::{
    P, check_pair_on_triangles, rng, rp, rtri, samples, scale_of, tri_point_oracle,
};
use clash_math::{Point3, Triangle, Vector3};
use clash_narrow::closest::triangle_triangle;
use rand::RngExt;

/// Against collinear triangles (a corner at the rounded midpoint of the
/// other two) and nearly collinear ones (that corner off the line by
/// 1e-9 to 1e-3 of the size), whose computed normals are rounding noise:
/// the points stay on their triangles and no sampled pair is closer. The
/// recorded pair is one where a corner projected on such a normal's plane
/// landed 0.9 off the collinear triangle.
#[test]
fn closest_triangle_collinear_triangle() {
    let p = |x: f64, y: f64, z: f64| P::new(x, y, z);
    let recorded = (
        Triangle::new(
            p(0.21520017108790795, 0.8031379722975875, -0.555570233019602),
            p(0.18301270189221933, 0.6830127018922194, -0.7071067811865475),
            p(
                4.329780281177467e-17,
                std::f64::consts::FRAC_1_SQRT_2,
                -0.7071067811865475,
            ),
        ),
        Triangle::new(
            p(
                -0.023886751853630428,
                0.2283161560958426,
                0.23548341279197038,
            ),
            p(
                0.006417372306899594,
                0.31560955651005806,
                0.09751777557307265,
            ),
            p(
                -0.00873468977336539,
                0.27196285630295036,
                0.16650059418252153,
            ),
        ),
    );
    let mut r = rng(9);
    let mut cases = vec![recorded];
    for i in 0..3000 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let (a, b) = (rp(&mut r, &c, s), rp(&mut r, &c, s));
        let mid = P::from((a.coords + b.coords) * 0.5);
        let off = if i % 2 == 0 {
            Vector3::zeros()
        } else {
            let k = 10f64.powi(-r.random_range(3..=9));
            (rp(&mut r, &P::origin(), s) - P::origin()) * k
        };
        let thin = Triangle::new(a, b, mid + off);
        cases.push((rtri(&mut r, &c, s), thin));
    }
    for (t1, t2) in cases {
        let s = t1
            .vertices()
            .iter()
            .chain(t2.vertices().iter())
            .map(|v| v.coords.amax())
            .fold(1e-300, f64::max);
        let tol = 1e-8 * s;
        for (x, y, swapped) in [(&t1, &t2, false), (&t2, &t1, true)] {
            let cp = triangle_triangle(x, y);
            check_pair_on_triangles(&cp, x, y, tol);
            let d = cp.distance();
            for q in samples(x, 8) {
                for w in samples(y, 8) {
                    assert!(
                        (q - w).norm() >= d - tol,
                        "swapped {swapped}: sample pair closer than {d}"
                    );
                }
            }
        }
    }
}

/// A corner far from a tiny triangle, in or near its plane: the
/// orientation test of the projected corner once measured the corner from
/// the triangle's corners, which rounds the triangle away at that distance
/// and placed the corner inside it (distance 0 at 192 apart, in f32, the
/// recorded pair). Points stay on their triangles and the distance is the
/// corner's distance to the triangle.
#[test]
fn closest_far_corner_in_a_tiny_triangles_plane() {
    let point = |x: f32| Point3::new(x, x, x);
    let corner = Triangle::new(point(-192.0), point(-192.0), point(-192.0));
    let tiny = Triangle::new(
        Point3::new(-4.741141e-24_f32, -2.5809568e-8, 1.4901161e-8),
        Point3::new(-4.741141e-24, -2.5809568e-8, -1.4901161e-8),
        Point3::new(2.5809568e-8, 0.0, -1.4901161e-8),
    );
    for (x, y) in [(&corner, &tiny), (&tiny, &corner)] {
        let cp = triangle_triangle(x, y);
        let d = cp.distance_squared.sqrt();
        assert!((d - 192.0 * 3f32.sqrt()).abs() < 1e-3, "f32: distance {d}");
    }
    let mut r = rng(10);
    for _ in 0..2000 {
        let s = 10f64.powf(r.random_range(-9.0..-3.0));
        let t = rtri(&mut r, &P::origin(), s);
        let Some(n) = t.normal() else { continue };
        // A direction in the plane, tilted out of it by up to 1e-3.
        let w = rp(&mut r, &P::origin(), 1.0) - P::origin();
        let in_plane = (w - n * n.dot(&w)).normalize();
        let far = r.random_range(10.0..1e3);
        let tilt = n * (far * r.random_range(-1e-3..1e-3));
        let v = P::from(in_plane * far + tilt);
        let lone = Triangle::new(v, v, v);
        let exact = tri_point_oracle(&v, &t);
        for (x, y) in [(&lone, &t), (&t, &lone)] {
            let cp = triangle_triangle(x, y);
            check_pair_on_triangles(&cp, x, y, 1e-9 * far);
            assert!(
                (cp.distance() - exact).abs() <= 1e-9 * far,
                "distance {} against {exact}",
                cp.distance()
            );
        }
    }
}
