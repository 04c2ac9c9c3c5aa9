//! OBB/triangle overlap (Eberly, *Dynamic Collision Detection using Oriented
//! Bounding Boxes*, §3; RTCD §5.2.9 applied in the box frame).

use super::exact::p3;
use super::triangle_aabb::tri_aabb;
use clash_bv::Obb;
use clash_math::{Scalar, Triangle};

/// `true` when the closed oriented box `b` and the closed triangle `t` share a
/// point.
///
/// The triangle's vertices are expressed in the box frame
/// (`u = axesᵀ (v - center)`, in `f64`), where the box is `[-h, h]`; Eberly's
/// 13 separating axes (box axes, triangle normal, edge × box axis) are then
/// decided by the exact triangle/AABB test, so the only error is the rounding
/// of that change of frame (a few ulps of the coordinates): the answer can
/// differ from exact arithmetic only for pairs within that distance of
/// touching. Axes are assumed orthonormal. `false` for non-finite input or a
/// negative half-extent.
///
/// Eberly §3 (triangle/OBB separating axes), RTCD §5.2.9.
///
/// ```
/// use clash_bv::Obb;
/// use clash_math::{Matrix3, Point3, Rotation3, Triangle, Vector3};
/// use clash_narrow::overlap::obb_triangle;
/// let r = Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
/// let b = Obb { center: Point3::origin(), axes: *r.matrix(), half_extents: Vector3::new(1.0, 1.0, 1.0) };
/// // the box reaches sqrt(2) along x
/// let t = |x: f64| Triangle::new(Point3::new(x, -5.0, 0.0), Point3::new(x, 5.0, 0.0), Point3::new(x, 0.0, 5.0));
/// assert!(obb_triangle(&b, &t(1.4)));
/// assert!(!obb_triangle(&b, &t(1.5)));
/// ```
#[inline]
pub fn obb_triangle<T: Scalar>(b: &Obb<T>, t: &Triangle<T>) -> bool {
    let c = p3(&b.center);
    let h = [
        b.half_extents.x.to_f64(),
        b.half_extents.y.to_f64(),
        b.half_extents.z.to_f64(),
    ];
    let axes: [[f64; 3]; 3] = core::array::from_fn(|k| {
        let col = b.axes.column(k);
        [col[0].to_f64(), col[1].to_f64(), col[2].to_f64()]
    });
    let finite = t.is_finite()
        && c.iter()
            .chain(h.iter())
            .chain(axes.iter().flatten())
            .all(|x| x.is_finite());
    if !finite || h.iter().any(|x| *x < 0.0) {
        return false;
    }
    let local = |v: [f64; 3]| {
        let d = [v[0] - c[0], v[1] - c[1], v[2] - c[2]];
        core::array::from_fn(|k| axes[k][0] * d[0] + axes[k][1] * d[1] + axes[k][2] * d[2])
    };
    let tl = [local(p3(&t.a)), local(p3(&t.b)), local(p3(&t.c))];
    if !tl.iter().flatten().all(|x: &f64| x.is_finite()) {
        return false;
    }
    tri_aabb(&mut (), &tl, &[-h[0], -h[1], -h[2]], &h)
}
