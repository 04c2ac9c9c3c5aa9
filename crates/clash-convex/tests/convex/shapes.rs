//! Shapes: validation, serde, hulls (flat ones, merged polygons, hill
//! climbing against a scan) and bounding volumes against support points.

use crate::common::{Gen, Kind, cases};
use clash_bv::BoundingVolume;
use clash_convex::shape::bounding;
use clash_convex::*;
use clash_math::{Point3, Vector3};
use std::sync::Arc;

#[test]
fn bad_parameters_are_typed_errors() {
    assert_eq!(
        Ball::new(-1.0_f64),
        Err(ShapeError::NegativeSize { what: "radius" })
    );
    assert_eq!(
        Ball::new(f64::NAN),
        Err(ShapeError::NonFinite { what: "radius" })
    );
    assert!(matches!(
        Ball::new(1.0_f64).unwrap().with_margin(-0.1),
        Err(ShapeError::NegativeSize { what: "margin" })
    ));
    assert!(Cuboid::new(Vector3::new(1.0_f64, -2.0, 1.0)).is_err());
    assert!(Cuboid::new(Vector3::new(1.0_f64, f64::INFINITY, 1.0)).is_err());
    assert!(CapsuleShape::new(-1.0_f32, 1.0).is_err());
    assert!(Cylinder::new(1.0_f64, f64::NAN).is_err());
    assert!(Cone::new(f64::NEG_INFINITY, 1.0).is_err());
    let p = Point3::new(0.0_f64, 0.0, 0.0);
    assert!(SegmentShape::new(p, Point3::new(f64::NAN, 0.0, 0.0)).is_err());
    assert!(TriangleShape::new(p, p, Point3::new(0.0, f64::INFINITY, 0.0)).is_err());
    assert_eq!(
        ConvexHull::<f64>::new(&[]).unwrap_err(),
        ShapeError::EmptyHull
    );
    assert_eq!(
        ConvexHull::new(&[p, Point3::new(1.0, f64::NAN, 0.0)]).unwrap_err(),
        ShapeError::NonFinitePoint { index: 1 }
    );
    assert_eq!(
        ConvexHull::from_triangles(&[p, p], &[[0, 1, 2]]).unwrap_err(),
        ShapeError::IndexOutOfRange {
            triangle: 0,
            index: 2,
            vertices: 2
        }
    );
    assert_eq!(
        ConvexHull::<f64>::from_triangles(&[p], &[]).unwrap_err(),
        ShapeError::EmptyHull
    );
    // Zero sizes are valid: points, flat boxes.
    assert!(Ball::new(0.0_f64).is_ok());
    assert!(Cuboid::new(Vector3::new(1.0_f64, 0.0, 0.0)).is_ok());
}

#[test]
fn serde_round_trips_and_validates() {
    let hull = ConvexHull::new(&Gen::new(1).points(Kind::Round, 20))
        .unwrap()
        .with_margin(0.01)
        .unwrap();
    let shapes: Vec<Shape<f64>> = vec![
        Ball::new(0.5).unwrap().with_margin(0.1).unwrap().into(),
        Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).unwrap().into(),
        CapsuleShape::new(1.0, 0.2).unwrap().into(),
        Cylinder::new(1.0, 0.5).unwrap().into(),
        Cone::new(1.0, 0.5).unwrap().into(),
        SegmentShape::new(Point3::origin(), Point3::new(1.0, 2.0, 3.0))
            .unwrap()
            .into(),
        TriangleShape::new(
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        )
        .unwrap()
        .into(),
        Arc::new(hull).into(),
    ];
    let json = serde_json::to_string(&shapes).unwrap();
    let back: Vec<Shape<f64>> = serde_json::from_str(&json).unwrap();
    let mut g = Gen::new(2);
    for (s, t) in shapes.iter().zip(&back) {
        assert_eq!(s.margin(), t.margin());
        for _ in 0..20 {
            let d = g.unit();
            assert_eq!(s.support_point(&d), t.support_point(&d));
        }
    }
    let bad = r#"{"Ball":{"radius":-1.0,"margin":0.0}}"#;
    assert!(serde_json::from_str::<Shape<f64>>(bad).is_err());
    let bad = r#"{"ConvexHull":{"points":[],"margin":0.0}}"#;
    assert!(serde_json::from_str::<Shape<f64>>(bad).is_err());
}

#[test]
fn flat_hulls_are_valid() {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let point = ConvexHull::new(&[p(1.0, 2.0, 3.0), p(1.0, 2.0, 3.0)]).unwrap();
    assert_eq!(point.vertices().len(), 1);
    assert_eq!(point.support_point(&Vector3::x()), p(1.0, 2.0, 3.0));
    let seg = ConvexHull::new(&[p(0.0, 0.0, 0.0), p(0.5, 0.0, 0.0), p(1.0, 0.0, 0.0)]).unwrap();
    assert_eq!(seg.vertices().len(), 2);
    assert_eq!(seg.neighbours(0), &[1]);
    let square = ConvexHull::new(&[
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(1.0, 1.0, 0.0),
        p(0.0, 1.0, 0.0),
        p(0.5, 0.5, 0.0),
    ])
    .unwrap();
    assert!(square.is_flat());
    assert_eq!(square.vertices().len(), 4);
    assert_eq!(square.polygon_count(), 2);
    let (ring, n) = square.polygon(0);
    assert_eq!(ring.len(), 4);
    assert!((n.z.abs() - 1.0).abs() < 1e-15);
}

#[test]
fn coplanar_triangles_merge_into_polygons() {
    let cube = ConvexHull::new(&Gen::new(3).points(Kind::Box, 8)).unwrap();
    assert_eq!(cube.polygon_count(), 6);
    for f in 0..6 {
        let (ring, n) = cube.polygon(f);
        assert_eq!(ring.len(), 4);
        let v = cube.vertices();
        // Counter-clockwise seen from outside.
        let e = (v[ring[1] as usize] - v[ring[0] as usize])
            .cross(&(v[ring[2] as usize] - v[ring[1] as usize]));
        assert!(e.dot(&n) > 0.0);
    }
}

#[test]
fn hill_climbing_finds_the_extreme_vertex() {
    let mut g = Gen::new(4);
    for n in [30, 100, 1000] {
        for kind in [Kind::Round, Kind::Blob, Kind::Flat] {
            let hull = ConvexHull::new(&g.points(kind, n)).unwrap();
            let mut hint = 0;
            for _ in 0..cases(200) {
                let d = g.unit();
                let p = hull.support_point_hinted(&d, &mut hint);
                let best = hull
                    .vertices()
                    .iter()
                    .map(|v| v.coords.dot(&d))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(p.coords.dot(&d), best, "n {n} {kind:?}");
                assert_eq!(hull.vertices()[hint as usize], p);
            }
        }
    }
}

#[test]
fn from_triangles_takes_the_hull_of_the_used_vertices() {
    let mut g = Gen::new(6);
    let pts = g.points(Kind::Blob, 50);
    let tris: Vec<[u32; 3]> = (0..48).map(|i| [i, i + 1, i + 2]).collect();
    let a = ConvexHull::from_triangles(&pts, &tris).unwrap();
    let b = ConvexHull::new(&pts).unwrap();
    assert_eq!(a.vertices().len(), b.vertices().len());
}

/// Every shape kind, at a random size, with and without a margin.
pub fn random_shape(g: &mut Gen, i: usize) -> Shape<f64> {
    let m = if g.below(2) == 0 { 0.0 } else { g.f(0.0, 0.3) };
    let s: Shape<f64> = match i % 8 {
        0 => Ball::new(g.f(0.0, 1.0))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        1 => Cuboid::new(Vector3::new(g.f(0.0, 1.0), g.f(0.0, 1.0), g.f(0.0, 1.0)))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        2 => CapsuleShape::new(g.f(0.0, 1.0), g.f(0.0, 1.0))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        3 => Cylinder::new(g.f(0.0, 1.0), g.f(0.0, 1.0))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        4 => Cone::new(g.f(0.0, 1.0), g.f(0.0, 1.0))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        5 => SegmentShape::new(Point3::from(g.unit()), Point3::from(g.unit()))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        6 => TriangleShape::new(
            Point3::from(g.unit()),
            Point3::from(g.unit()),
            Point3::from(g.unit()),
        )
        .unwrap()
        .with_margin(m)
        .unwrap()
        .into(),
        _ => {
            let k = g.kind();
            let pts: Vec<_> = g.points(k, 20).iter().map(|p| p + g.unit() * 0.0).collect();
            Arc::new(ConvexHull::new(&pts).unwrap().with_margin(m).unwrap()).into()
        }
    };
    s
}

#[test]
fn bounding_volumes_contain_the_shape() {
    let mut g = Gen::new(7);
    for i in 0..cases(400) {
        let s = random_shape(&mut g, i);
        let t = g.unit() * g.f(0.0, 100.0);
        let pose = g.pose(t);
        let aabb = bounding::aabb(&s, &pose);
        let obb = bounding::obb(&s, &pose);
        let sphere = bounding::bounding_sphere(&s, &pose);
        for _ in 0..64 {
            let d = g.unit();
            let local = pose.rotation.inverse() * d;
            let p = pose * s.support_point_with_margin(&local);
            assert!(aabb.contains_point(&p), "{s:?} aabb {aabb:?} {p}");
            assert!(obb.contains_point(&p), "{s:?} obb {obb:?} {p}");
            assert!(sphere.contains_point(&p), "{s:?} sphere {sphere:?} {p}");
        }
        // The box is tight: its faces touch the shape.
        for k in 0..3 {
            let mut e = Vector3::zeros();
            e[k] = 1.0;
            let hi = (pose * s.support_point_with_margin(&(pose.rotation.inverse() * e)))[k];
            assert!(
                (aabb.max[k] - hi).abs() <= 1e-12 * (1.0 + t.norm()),
                "{s:?}"
            );
        }
    }
}
