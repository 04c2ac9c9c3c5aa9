//! Regression (found by the `obb_obb` fuzz target): two OBBs of zero extent
//! in two directions (segments) crossing at an interior point were reported
//! disjoint. On the edge/edge axis both projected radii are zero, so the
//! RTCD §4.4.2 epsilon (which pads `|R|`) was multiplied away and a rounding
//! residue of ~1e-16 in the rotated centre offset separated them. Fixed by an
//! absolute slack of a few ulps of the magnitudes on every axis.

use clash_bv::{BoundingVolume, Obb};
use clash_math::{Isometry3, Matrix3, Point3, Rotation3, Vector3};

#[test]
fn crossing_segments_as_obbs_overlap() {
    for angle in [0.3_f64, 1.0, 1.2345, 2.0, 2.9] {
        let a = Obb {
            center: Point3::new(2.02, 0.0, 0.0),
            axes: Matrix3::identity(),
            half_extents: Vector3::new(1.0, 0.0, 0.0),
        };
        let rot = *Rotation3::from_axis_angle(&Vector3::z_axis(), angle).matrix();
        let b = Obb {
            center: Point3::new(2.02, 0.0, 0.0),
            axes: rot,
            half_extents: Vector3::new(0.7, 0.0, 0.0),
        };
        assert!(a.overlaps(&b), "angle {angle}");
        assert!(b.overlaps(&a), "angle {angle}");
        // the same in the relative-frame form
        let local_b = Obb {
            center: Point3::origin(),
            ..b
        };
        assert!(a.overlaps_transformed(&local_b, &Isometry3::translation(2.02, 0.0, 0.0)));
        // and in f32
        let a32 = Obb {
            center: a.center.cast::<f32>(),
            axes: a.axes.cast(),
            half_extents: a.half_extents.cast(),
        };
        let b32 = Obb {
            center: b.center.cast::<f32>(),
            axes: b.axes.cast(),
            half_extents: b.half_extents.cast(),
        };
        assert!(a32.overlaps(&b32));
    }
}
