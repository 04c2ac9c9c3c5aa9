//! Contract tests of `clash_narrow::overlap` beyond the oracle sweeps: the
//! intersection-segment variant, the statistics variants, non-finite and
//! invalid input, symmetry and invariance under exact transformations.

use clash_bv::{Aabb, Capsule, Obb, Sphere};
use clash_math::{Matrix3, Plane, Point3, Segment, Triangle, Vector3};
use clash_narrow::overlap::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rp(rng: &mut ChaCha8Rng) -> Point3<f64> {
    Point3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
}

fn dist_to_tri(p: &Point3<f64>, t: &Triangle<f64>) -> f64 {
    // brute force over a fine barycentric grid plus the plane projection
    let n = t.normal().unwrap();
    let proj = p - n * n.dot(&(p - t.a));
    let (v0, v1, v2) = (t.b - t.a, t.c - t.a, proj - t.a);
    let (d00, d01, d11, d20, d21) = (
        v0.dot(&v0),
        v0.dot(&v1),
        v1.dot(&v1),
        v2.dot(&v0),
        v2.dot(&v1),
    );
    let den = d00 * d11 - d01 * d01;
    let v = (d11 * d20 - d01 * d21) / den;
    let w = (d00 * d21 - d01 * d20) / den;
    let tol = 1e-9;
    if v >= -tol && w >= -tol && v + w <= 1.0 + tol {
        return (p - proj).norm();
    }
    let seg = |a: &Point3<f64>, b: &Point3<f64>| {
        let d = b - a;
        let s = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        (p - (a + d * s)).norm()
    };
    seg(&t.a, &t.b).min(seg(&t.b, &t.c)).min(seg(&t.c, &t.a))
}

#[test]
fn intersection_segment_lies_on_both_triangles() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut segs, mut checked) = (0, 0);
    for _ in 0..20_000 {
        let t1 = Triangle::new(rp(&mut rng), rp(&mut rng), rp(&mut rng));
        let t2 = Triangle::new(rp(&mut rng), rp(&mut rng), rp(&mut rng));
        let r = triangle_triangle_segment(&t1, &t2);
        assert_eq!(r.is_some(), triangle_triangle(&t1, &t2));
        if let Some(TriangleIntersection::Segment(s)) = r {
            segs += 1;
            if t1.area() > 1e-3 && t2.area() > 1e-3 {
                checked += 1;
                for p in [s.a, s.b, s.midpoint()] {
                    assert!(
                        dist_to_tri(&p, &t1) < 1e-9 && dist_to_tri(&p, &t2) < 1e-9,
                        "{t1:?} {t2:?} {s:?}"
                    );
                }
            }
        }
    }
    assert!(segs > 1000 && checked > 1000, "{segs} {checked}");
}

#[test]
fn intersection_segment_special_cases() {
    let t1 = Triangle::new(
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(0.0, 2.0, 0.0),
    );
    // coplanar
    let t2 = Triangle::new(
        Point3::new(0.5, 0.5, 0.0),
        Point3::new(3.0, 0.5, 0.0),
        Point3::new(0.5, 3.0, 0.0),
    );
    assert_eq!(
        triangle_triangle_segment(&t1, &t2),
        Some(TriangleIntersection::Coplanar)
    );
    // touching at a single vertex: a point
    let t3 = Triangle::new(
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(3.0, 0.0, 1.0),
        Point3::new(3.0, 1.0, -1.0),
    );
    match triangle_triangle_segment(&t1, &t3) {
        Some(TriangleIntersection::Segment(s)) => {
            assert_eq!(s.a, Point3::new(2.0, 0.0, 0.0));
            assert_eq!(s.b, Point3::new(2.0, 0.0, 0.0));
        }
        other => panic!("{other:?}"),
    }
    // a degenerate triangle (segment) lying in t1's plane across it
    let seg = Triangle::new(
        Point3::new(-1.0, 0.5, 0.0),
        Point3::new(3.0, 0.5, 0.0),
        Point3::new(-1.0, 0.5, 0.0),
    );
    match triangle_triangle_segment(&t1, &seg) {
        Some(TriangleIntersection::Segment(s)) => {
            let (lo, hi) = if s.a.x < s.b.x {
                (s.a, s.b)
            } else {
                (s.b, s.a)
            };
            assert!((lo - Point3::new(0.0, 0.5, 0.0)).norm() < 1e-12, "{lo}");
            assert!((hi - Point3::new(1.5, 0.5, 0.0)).norm() < 1e-12, "{hi}");
        }
        other => panic!("{other:?}"),
    }
    let far = Triangle::new(
        Point3::new(5.0, 5.0, 5.0),
        Point3::new(6.0, 5.0, 5.0),
        Point3::new(5.0, 6.0, 5.0),
    );
    assert_eq!(triangle_triangle_segment(&t1, &far), None);
}

#[test]
fn stats_variants_agree_and_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut st = OverlapStats::default();
    let mut sb = OverlapStats::default();
    for i in 0..5_000 {
        let t1 = Triangle::new(rp(&mut rng), rp(&mut rng), rp(&mut rng));
        // every fourth pair shares an edge: exact zeros
        let t2 = if i % 4 == 0 {
            Triangle::new(t1.b, t1.a, rp(&mut rng))
        } else {
            Triangle::new(rp(&mut rng), rp(&mut rng), rp(&mut rng))
        };
        assert_eq!(
            triangle_triangle_with_stats(&t1, &t2, &mut st),
            triangle_triangle(&t1, &t2)
        );
        let (a, b) = (rp(&mut rng), rp(&mut rng));
        let bx = Aabb {
            min: a.inf(&b),
            max: a.sup(&b),
        };
        assert_eq!(
            triangle_aabb_with_stats(&t1, &bx, &mut sb),
            triangle_aabb(&t1, &bx)
        );
    }
    assert_eq!(st.calls, 5_000);
    assert_eq!(sb.calls, 5_000);
    assert!(st.exact_calls <= st.calls && st.exact_predicates >= st.exact_calls);
    assert!((0.0..=1.0).contains(&st.exact_share()));
    assert_eq!(OverlapStats::default().exact_share(), 0.0);
}

#[test]
fn non_finite_input_gives_false_and_never_panics() {
    let t = Triangle::new(
        Point3::new(0.0_f32, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
    );
    let bx = Aabb {
        min: Point3::new(-1.0_f32, -1.0, -1.0),
        max: Point3::new(1.0, 1.0, 1.0),
    };
    let obb = Obb {
        center: Point3::origin(),
        axes: Matrix3::identity(),
        half_extents: Vector3::new(1.0_f32, 1.0, 1.0),
    };
    let sp = Sphere {
        center: Point3::origin(),
        radius: 1.0_f32,
    };
    let cap = Capsule {
        segment: Segment::new(Point3::origin(), Point3::new(0.0, 0.0, 1.0)),
        radius: 0.5_f32,
    };
    let pl = Plane {
        normal: Vector3::z(),
        offset: 0.0_f32,
    };
    // sanity: all overlap with finite input
    assert!(
        triangle_triangle(&t, &t)
            && triangle_aabb(&t, &bx)
            && obb_triangle(&obb, &t)
            && sphere_triangle(&sp, &t)
    );
    assert!(
        sphere_aabb(&sp, &bx)
            && sphere_aabb_early_out(&sp, &bx)
            && sphere_obb(&sp, &obb)
            && sphere_plane(&sp, &pl)
    );
    assert!(
        sphere_capsule(&sp, &cap)
            && capsule_triangle(&cap, &t)
            && aabb_plane(&bx, &pl)
            && obb_plane(&obb, &pl)
    );
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let tb = Triangle::new(Point3::new(bad, 0.0, 0.0), t.b, t.c);
        let bb = Aabb {
            min: Point3::new(-1.0, bad, -1.0),
            max: bx.max,
        };
        let ob = Obb {
            center: Point3::new(0.0, 0.0, bad),
            ..obb
        };
        let oa = Obb {
            axes: Matrix3::new(bad, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            ..obb
        };
        let oh = Obb {
            half_extents: Vector3::new(1.0, bad, 1.0),
            ..obb
        };
        let sb = Sphere {
            center: Point3::new(bad, 0.0, 0.0),
            radius: 1.0,
        };
        let sr = Sphere {
            center: Point3::origin(),
            radius: bad,
        };
        let cb = Capsule {
            segment: Segment::new(Point3::new(0.0, bad, 0.0), cap.segment.b),
            radius: 0.5,
        };
        let cr = Capsule { radius: bad, ..cap };
        let pb = Plane {
            normal: Vector3::new(bad, 0.0, 1.0),
            offset: 0.0,
        };
        let po = Plane {
            normal: Vector3::z(),
            offset: bad,
        };
        assert!(!triangle_triangle(&tb, &t) && !triangle_triangle(&t, &tb));
        assert!(triangle_triangle_segment(&tb, &t).is_none());
        assert!(!triangle_aabb(&tb, &bx) && !triangle_aabb(&t, &bb));
        assert!(
            !obb_triangle(&ob, &t)
                && !obb_triangle(&oa, &t)
                && !obb_triangle(&oh, &t)
                && !obb_triangle(&obb, &tb)
        );
        assert!(
            !sphere_triangle(&sb, &t) && !sphere_triangle(&sr, &t) && !sphere_triangle(&sp, &tb)
        );
        assert!(!sphere_aabb(&sb, &bx) && !sphere_aabb(&sr, &bx) && !sphere_aabb(&sp, &bb));
        assert!(
            !sphere_aabb_early_out(&sb, &bx)
                && !sphere_aabb_early_out(&sr, &bx)
                && !sphere_aabb_early_out(&sp, &bb)
        );
        assert!(
            !sphere_obb(&sb, &obb)
                && !sphere_obb(&sr, &obb)
                && !sphere_obb(&sp, &ob)
                && !sphere_obb(&sp, &oa)
                && !sphere_obb(&sp, &oh)
        );
        assert!(
            !sphere_plane(&sb, &pl)
                && !sphere_plane(&sr, &pl)
                && !sphere_plane(&sp, &pb)
                && !sphere_plane(&sp, &po)
        );
        assert!(
            !sphere_capsule(&sb, &cap) && !sphere_capsule(&sp, &cb) && !sphere_capsule(&sp, &cr)
        );
        assert!(
            !capsule_triangle(&cb, &t)
                && !capsule_triangle(&cr, &t)
                && !capsule_triangle(&cap, &tb)
        );
        assert!(!aabb_plane(&bb, &pl) && !aabb_plane(&bx, &pb) && !aabb_plane(&bx, &po));
        assert!(
            !obb_plane(&ob, &pl)
                && !obb_plane(&oa, &pl)
                && !obb_plane(&oh, &pl)
                && !obb_plane(&obb, &pb)
        );
    }
}

#[test]
fn invalid_shapes_are_empty() {
    let t = Triangle::new(
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
    );
    let inverted = Aabb {
        min: Point3::new(1.0, -1.0, -1.0),
        max: Point3::new(-1.0, 1.0, 1.0),
    };
    assert!(!triangle_aabb(&t, &inverted));
    assert!(!sphere_aabb(
        &Sphere {
            center: Point3::origin(),
            radius: 5.0
        },
        &inverted
    ));
    assert!(!aabb_plane(
        &inverted,
        &Plane {
            normal: Vector3::x(),
            offset: 0.0
        }
    ));
    assert!(!sphere_triangle(
        &Sphere {
            center: Point3::origin(),
            radius: -1.0
        },
        &t
    ));
    let neg = Obb {
        center: Point3::origin(),
        axes: Matrix3::identity(),
        half_extents: Vector3::new(1.0, -1.0, 1.0),
    };
    assert!(
        !obb_triangle(&neg, &t)
            && !obb_plane(
                &neg,
                &Plane {
                    normal: Vector3::x(),
                    offset: 0.0
                }
            )
    );
}

#[test]
fn exact_tests_are_symmetric_and_invariant_under_exact_maps() {
    // Swapping, permuting vertices, reversing winding, and exact maps
    // (translation by a power-of-two grid step, axis permutations, sign flips
    // on dyadic input) must not change the exact answers.
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let g = |rng: &mut ChaCha8Rng| {
        Point3::new(
            rng.random_range(-4..=4) as f64 * 0.25,
            rng.random_range(-4..=4) as f64 * 0.25,
            rng.random_range(-4..=4) as f64 * 0.25,
        )
    };
    let mut hits = 0;
    for _ in 0..50_000 {
        let t1 = Triangle::new(g(&mut rng), g(&mut rng), g(&mut rng));
        let t2 = Triangle::new(g(&mut rng), g(&mut rng), g(&mut rng));
        let (a, b) = (g(&mut rng), g(&mut rng));
        let bx = Aabb {
            min: a.inf(&b),
            max: a.sup(&b),
        };
        let r = triangle_triangle(&t1, &t2);
        let rb = triangle_aabb(&t1, &bx);
        hits += usize::from(r);
        assert_eq!(r, triangle_triangle(&t2, &t1));
        assert_eq!(
            r,
            triangle_triangle(
                &Triangle::new(t1.c, t1.b, t1.a),
                &Triangle::new(t2.b, t2.c, t2.a)
            )
        );
        let map = |p: Point3<f64>| Point3::new(-p.z + 8.0, p.x - 2.0, p.y);
        let mt = |t: &Triangle<f64>| Triangle::new(map(t.a), map(t.b), map(t.c));
        assert_eq!(r, triangle_triangle(&mt(&t1), &mt(&t2)));
        let (m1, m2) = (map(bx.min), map(bx.max));
        assert_eq!(
            rb,
            triangle_aabb(
                &mt(&t1),
                &Aabb {
                    min: m1.inf(&m2),
                    max: m1.sup(&m2)
                }
            )
        );
        assert_eq!(rb, triangle_aabb(&Triangle::new(t1.b, t1.a, t1.c), &bx));
        let f32t = |t: &Triangle<f64>| {
            Triangle::new(t.a.cast::<f32>(), t.b.cast::<f32>(), t.c.cast::<f32>())
        };
        assert_eq!(r, triangle_triangle(&f32t(&t1), &f32t(&t2)));
    }
    assert!(hits > 5_000);
}
