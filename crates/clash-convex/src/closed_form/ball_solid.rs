//! A ball against a box, a cylinder or a cone: the ball's centre against
//! the solid's core in closed form (RTCD §5.1.3–5.1.4 for the box, by
//! clash-narrow's closest point on a box; the round solids in the plane
//! through their axis), including the nearest boundary point when the
//! centre is inside.

use super::{common_point, from_cores};
use crate::query::{ContactResult, DistanceResult, QueryStatus, WarmStart};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_bv::Aabb;
use clash_math::{Isometry3, Point3, Scalar, Vector3};
use clash_narrow::closest::point_aabb;

/// The core point of `solid` nearest to `p` (solid frame), the signed
/// distance of `p` to the core (negative inside), and the unit normal from
/// the core towards `p`. `None` for shapes other than boxes, cylinders and
/// cones.
pub(crate) fn point_solid<T: Scalar>(
    solid: ShapeRef<'_, T>,
    p: &Point3<T>,
) -> Option<(Point3<T>, T, Vector3<T>)> {
    match solid {
        ShapeRef::Cuboid(c) => Some(point_box(p, &c.half_extents())),
        ShapeRef::Cylinder(c) => Some(point_cylinder(p, c.half_height(), c.radius())),
        ShapeRef::Cone(c) => Some(point_cone(p, c.half_height(), c.radius())),
        _ => None,
    }
}

/// Point against a box of half-extents `h`.
fn point_box<T: Scalar>(p: &Point3<T>, h: &Vector3<T>) -> (Point3<T>, T, Vector3<T>) {
    let q = point_aabb(p, &Aabb::new(Point3::from(-h), Point3::from(*h)));
    let d = (p - q).norm();
    if d > T::ZERO {
        return (q, d, (p - q) / d);
    }
    // Inside (or on) the box: the face nearest to p.
    let mut best = 0;
    let mut gap = T::INFINITY;
    for i in 0..3 {
        let g = h[i] - p[i].abs();
        if g < gap {
            gap = g;
            best = i;
        }
    }
    let mut n = Vector3::zeros();
    n[best] = if p[best] >= T::ZERO { T::ONE } else { -T::ONE };
    let mut q = *p;
    q[best] = n[best] * h[best];
    (q, -gap, n)
}

/// The unit radial direction of `p` about the z axis (x on the axis) and
/// `p`'s distance from the axis.
#[inline]
fn radial<T: Scalar>(p: &Point3<T>) -> (Vector3<T>, T) {
    let rho = (p.x * p.x + p.y * p.y).sqrt();
    if rho > T::ZERO {
        (Vector3::new(p.x / rho, p.y / rho, T::ZERO), rho)
    } else {
        (Vector3::x(), T::ZERO)
    }
}

/// Point against the cylinder of half-height `h` and radius `r` along z.
fn point_cylinder<T: Scalar>(p: &Point3<T>, h: T, r: T) -> (Point3<T>, T, Vector3<T>) {
    let (e, rho) = radial(p);
    let z = p.z;
    let sz = if z >= T::ZERO { T::ONE } else { -T::ONE };
    if rho > r || z.abs() > h {
        let q = Point3::from(e * rho.min_of(r) + Vector3::z() * z.max_of(-h).min_of(h));
        let d = (p - q).norm();
        return (q, d, (p - q) / d);
    }
    let side = r - rho;
    let cap = h - z.abs();
    if side < cap {
        (Point3::from(e * r + Vector3::z() * z), -side, e)
    } else {
        (Point3::new(p.x, p.y, sz * h), -cap, Vector3::z() * sz)
    }
}

/// The closest point to `(x, y)` on the plane segment `a b`.
#[inline]
fn on_segment<T: Scalar>(x: T, y: T, a: (T, T), b: (T, T)) -> (T, T) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > T::ZERO {
        (((x - a.0) * dx + (y - a.1) * dy) / len2)
            .max_of(T::ZERO)
            .min_of(T::ONE)
    } else {
        T::ZERO
    };
    (a.0 + dx * t, a.1 + dy * t)
}

/// Point against the cone with apex `(0, 0, h)` and base of radius `r` at
/// `z = -h`, in the half-plane `(rho, z)` through the axis and the point.
fn point_cone<T: Scalar>(p: &Point3<T>, h: T, r: T) -> (Point3<T>, T, Vector3<T>) {
    let (e, rho) = radial(p);
    let z = p.z;
    let apex = (T::ZERO, h);
    let rim = (r, -h);
    let base = (T::ZERO, -h);
    let lift = |(u, w): (T, T)| Point3::from(e * u + Vector3::z() * w);
    // A cone without volume (no height or no radius) is all boundary: the
    // segments of its half-section below cover it.
    let inside = h > T::ZERO && r > T::ZERO && z >= -h && rho * (h + h) <= r * (h - z);
    if !inside {
        let s = on_segment(rho, z, apex, rim);
        let b = on_segment(rho, z, rim, base);
        let ds = (s.0 - rho) * (s.0 - rho) + (s.1 - z) * (s.1 - z);
        let db = (b.0 - rho) * (b.0 - rho) + (b.1 - z) * (b.1 - z);
        let q = lift(if ds <= db { s } else { b });
        let d = (p - q).norm();
        if d > T::ZERO {
            return (q, d, (p - q) / d);
        }
        // On a cone without volume: a disk's normal, or across its axis.
        let n = if h == T::ZERO { Vector3::z() } else { e };
        return (q, d, n);
    }
    // Inside: the slanted side or the base, whichever is nearer.
    let (nu, nw) = (h + h, r);
    let len = (nu * nu + nw * nw).sqrt();
    let (nu, nw) = (nu / len, nw / len);
    let side = (apex.0 - rho) * nu + (apex.1 - z) * nw;
    let bottom = z + h;
    if side < bottom {
        let q = lift((rho + nu * side, z + nw * side));
        (q, -side, e * nu + Vector3::z() * nw)
    } else {
        (Point3::new(p.x, p.y, -h), -bottom, -Vector3::z())
    }
}

/// The solid's core point nearest to the ball's centre, in the world:
/// [`point_solid`] answers `p - q = n d` for the local centre `p` and core
/// point `q`, so the world point is the centre moved back along the world
/// normal `n`, which spares a rotation.
#[inline]
fn core_point<T: Scalar>(centre: &Point3<T>, n: &Vector3<T>, d: T) -> Point3<T> {
    centre - n * d
}

/// A ball's centre (world) with margin `ball_margin` against a solid at
/// `pose`, solid first; `None` when `solid` is not a box, cylinder or cone.
/// The flag says the centre is inside the solid's core.
pub(crate) fn contact<T: Scalar>(
    centre: &Point3<T>,
    ball_margin: T,
    solid: ShapeRef<'_, T>,
    pose: &Isometry3<T>,
) -> Option<(ContactResult<T>, bool)> {
    let local = pose.inverse_transform_point(centre);
    let (_, d, n) = point_solid(solid, &local)?;
    let n = pose.rotation * n;
    let c = from_cores(
        core_point(centre, &n, d),
        *centre,
        d,
        n,
        solid.margin(),
        ball_margin,
    );
    Some((c, d < T::ZERO))
}

/// The distance of a ball (centre in the world, margin `ball_margin`) to a
/// solid at `pose`, straight from the closest core point, without the
/// contact's intermediate result; the ball is the first shape when
/// `ball_first`. `None` when `solid` is not a box, cylinder or cone.
/// Equal to the distance made from [`contact`], placed in the world the
/// same way.
pub(crate) fn distance<T: Scalar>(
    centre: &Point3<T>,
    ball_margin: T,
    solid: ShapeRef<'_, T>,
    pose: &Isometry3<T>,
    ball_first: bool,
    upper_bound: T,
) -> Option<DistanceResult<T>> {
    let local = pose.inverse_transform_point(centre);
    let (_, d, n) = point_solid(solid, &local)?;
    let ms = solid.margin();
    // From the solid towards the ball, world frame.
    let n = pose.rotation * n;
    let core = core_point(centre, &n, d);
    let warm_start = if ball_first {
        WarmStart::default()
    } else {
        WarmStart {
            direction: -n,
            hints: [0, 0],
        }
    };
    let gap = d - ms - ball_margin;
    if gap > T::ZERO {
        let (on_solid, on_ball) = (core + n * ms, centre - n * ball_margin);
        let (nearest_points, normal) = if ball_first {
            ([on_ball, on_solid], -n)
        } else {
            ([on_solid, on_ball], n)
        };
        let status = if gap > upper_bound {
            QueryStatus::UpperBoundExceeded
        } else {
            QueryStatus::Converged
        };
        return Some(DistanceResult {
            distance: gap,
            nearest_points,
            normal,
            status,
            error_bound: T::ZERO,
            warm_start,
        });
    }
    let common = if d < T::ZERO {
        *centre
    } else if ball_first {
        common_point(*centre, core, ball_margin, ms)
    } else {
        common_point(core, *centre, ms, ball_margin)
    };
    Some(DistanceResult {
        distance: T::ZERO,
        nearest_points: [common, common],
        normal: Vector3::zeros(),
        status: QueryStatus::Converged,
        error_bound: T::ZERO,
        warm_start,
    })
}
