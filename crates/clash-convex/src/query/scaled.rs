//! Pairs far from unit size, queried at unit size.
//!
//! GJK's signed volumes and EPA's face distances multiply several lengths
//! together; for shapes and gaps far below or above 1 those products
//! underflow to 0 or overflow to infinity and the answers go wrong without
//! a sign (two boxes of size 1e-60 overlapping read as 7e-62 apart). Such a
//! pair is moved so that the first pose has no translation, multiplied by a
//! power of two that brings it to unit size, queried there, and the answer
//! multiplied and moved back. Multiplying by a power of two rounds nothing
//! while the numbers stay normal, so the answer is the one the query gives
//! at unit size, up to the rounding of the move.
//!
//! Pairs within [`crate::scale`]'s band about unit size are queried as
//! given: there no product of the queries leaves the normal range.

use super::{ContactResult, DistanceResult, QueryRequest, WarmStart};
use crate::scale::{PowerOfTwo, in_band, to_unit};
use crate::shape::{
    Ball, CapsuleShape, Cone, Cuboid, Cylinder, SegmentShape, Shape, ShapeRef, TriangleShape,
};
use crate::support::SupportMap;
use clash_math::{Isometry3, Point3, Scalar, Translation3, Vector3};

/// A shape as its scaled copy (built-in shapes, so that their closed forms
/// still apply) or behind its scaled support map (hulls and user shapes).
enum Side<'a, T: Scalar, S: ?Sized> {
    Builtin(Shape<T>),
    Support { inner: &'a S, factor: PowerOfTwo<T> },
}

impl<'a, T: Scalar, S: SupportMap<T> + ?Sized> Side<'a, T, S> {
    fn new(inner: &'a S, factor: PowerOfTwo<T>) -> Self {
        match inner.shape_ref().and_then(|r| scaled_builtin(r, &factor)) {
            Some(shape) => Side::Builtin(shape),
            None => Side::Support { inner, factor },
        }
    }
}

/// The built-in shape `r` multiplied by `f`; `None` for hulls, which are
/// queried through their support map. Balls and capsules keep their
/// radius as margin, as their queries read it.
fn scaled_builtin<T: Scalar>(r: ShapeRef<'_, T>, f: &PowerOfTwo<T>) -> Option<Shape<T>> {
    let m = f.apply(r.margin());
    let shape = match r {
        ShapeRef::Ball(_) => Ball::new(T::ZERO)
            .and_then(|b| b.with_margin(m))
            .ok()?
            .into(),
        ShapeRef::Cuboid(c) => Cuboid::new(f.vector(&c.half_extents()))
            .and_then(|c| c.with_margin(m))
            .ok()?
            .into(),
        ShapeRef::Capsule(c) => CapsuleShape::new(f.apply(c.half_height()), T::ZERO)
            .and_then(|c| c.with_margin(m))
            .ok()?
            .into(),
        ShapeRef::Cylinder(c) => Cylinder::new(f.apply(c.half_height()), f.apply(c.radius()))
            .and_then(|c| c.with_margin(m))
            .ok()?
            .into(),
        ShapeRef::Cone(c) => Cone::new(f.apply(c.half_height()), f.apply(c.radius()))
            .and_then(|c| c.with_margin(m))
            .ok()?
            .into(),
        ShapeRef::Segment(s) => {
            let seg = s.segment();
            SegmentShape::new(f.point(&seg.a), f.point(&seg.b))
                .and_then(|s| s.with_margin(m))
                .ok()?
                .into()
        }
        ShapeRef::Triangle(t) => {
            let tri = t.triangle();
            TriangleShape::new(f.point(&tri.a), f.point(&tri.b), f.point(&tri.c))
                .and_then(|t| t.with_margin(m))
                .ok()?
                .into()
        }
        ShapeRef::ConvexHull(_) => return None,
    };
    Some(shape)
}

impl<T: Scalar, S: SupportMap<T> + ?Sized> SupportMap<T> for Side<'_, T, S> {
    #[inline]
    fn support_point(&self, dir: &Vector3<T>) -> Point3<T> {
        match self {
            Side::Builtin(s) => s.support_point(dir),
            Side::Support { inner, factor } => factor.point(&inner.support_point(dir)),
        }
    }
    #[inline]
    fn support_point_hinted(&self, dir: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        match self {
            Side::Builtin(s) => s.support_point_hinted(dir, hint),
            Side::Support { inner, factor } => factor.point(&inner.support_point_hinted(dir, hint)),
        }
    }
    #[inline]
    fn margin(&self) -> T {
        match self {
            Side::Builtin(s) => s.margin(),
            Side::Support { inner, factor } => factor.apply(inner.margin()),
        }
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        match self {
            Side::Builtin(s) => s.center(),
            Side::Support { inner, factor } => factor.point(&inner.center()),
        }
    }
    #[inline]
    fn extent(&self) -> T {
        match self {
            Side::Builtin(s) => s.extent(),
            Side::Support { inner, factor } => factor.apply(inner.extent()),
        }
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        match self {
            Side::Builtin(s) => s.shape_ref(),
            Side::Support { .. } => None,
        }
    }
}

/// The size of a shape from its centre and extent (cheap; may underflow
/// to 0 or overflow for shapes far from unit size).
fn quick_size<T: Scalar, S: SupportMap<T> + ?Sized>(s: &S) -> T {
    s.center().coords.amax() + s.extent() + s.margin()
}

/// The size of a shape from its support points along the axes (the largest
/// coordinate of its core's bounding box) and its margin: no product, so
/// neither underflow nor overflow.
fn measured_size<T: Scalar, S: SupportMap<T> + ?Sized>(s: &S) -> T {
    let mut m = T::ZERO;
    for k in 0..3 {
        for sign in [T::ONE, -T::ONE] {
            let mut dir = Vector3::zeros();
            dir[k] = sign;
            m = m.max_of(s.support_point(&dir).coords.amax());
        }
    }
    m.max_of(s.margin())
}

/// The factor that brings the pair to unit size, or `None` when it is
/// within the range the queries handle as given (or has no size at all).
pub(super) fn scaling<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
) -> Option<PowerOfTwo<T>>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let (ta, tb) = (&pose_a.translation.vector, &pose_b.translation.vector);
    let mut gap = (tb - ta).amax();
    if !gap.finite() {
        gap = ta.amax().max_of(tb.amax());
    }
    if in_band(gap.max_of(quick_size(a)).max_of(quick_size(b))) {
        return None;
    }
    to_unit(gap.max_of(measured_size(a)).max_of(measured_size(b)))
}

/// The pair at unit size: the sides, their poses (the first one's without
/// translation) and the request, and the map back.
struct Unit<'a, T: Scalar, A: ?Sized, B: ?Sized> {
    a: Side<'a, T, A>,
    b: Side<'a, T, B>,
    pose_a: Isometry3<T>,
    pose_b: Isometry3<T>,
    request: QueryRequest<T>,
    back: PowerOfTwo<T>,
    origin: Vector3<T>,
}

impl<'a, T, A, B> Unit<'a, T, A, B>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    fn new(
        a: &'a A,
        pose_a: &Isometry3<T>,
        b: &'a B,
        pose_b: &Isometry3<T>,
        request: &QueryRequest<T>,
        f: PowerOfTwo<T>,
    ) -> Self {
        let (ta, tb) = (&pose_a.translation.vector, &pose_b.translation.vector);
        // Growing: the difference first (it is small); shrinking: the
        // factor first (the difference could overflow).
        let t = if f.grows() {
            f.vector(&(tb - ta))
        } else {
            f.vector(tb) - f.vector(ta)
        };
        let mut request = *request;
        request.security_margin = f.apply(request.security_margin);
        request.distance_upper_bound = f.apply(request.distance_upper_bound);
        if let Some(w) = request.warm_start.as_mut() {
            w.direction = f.vector(&w.direction);
        }
        Self {
            a: Side::new(a, f),
            b: Side::new(b, f),
            pose_a: Isometry3::from_parts(Translation3::identity(), pose_a.rotation),
            pose_b: Isometry3::from_parts(Translation3::from(t), pose_b.rotation),
            request,
            back: f.inverse(),
            origin: *ta,
        }
    }

    fn point(&self, p: &Point3<T>) -> Point3<T> {
        self.back.point(p) + self.origin
    }

    fn warm_start(&self, w: WarmStart<T>) -> WarmStart<T> {
        WarmStart {
            direction: self.back.vector(&w.direction),
            hints: w.hints,
        }
    }
}

/// [`super::intersects`] on a pair far from unit size.
pub(super) fn intersects<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
    f: PowerOfTwo<T>,
) -> bool
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let u = Unit::new(a, pose_a, b, pose_b, request, f);
    super::dispatch::intersects(&u.a, &u.pose_a, &u.b, &u.pose_b, &u.request)
}

/// [`super::distance`] on a pair far from unit size.
pub(super) fn distance<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
    f: PowerOfTwo<T>,
) -> DistanceResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let u = Unit::new(a, pose_a, b, pose_b, request, f);
    let d = super::dispatch::distance(&u.a, &u.pose_a, &u.b, &u.pose_b, &u.request);
    DistanceResult {
        distance: u.back.apply(d.distance),
        nearest_points: d.nearest_points.map(|p| u.point(&p)),
        normal: d.normal,
        status: d.status,
        error_bound: u.back.apply(d.error_bound),
        warm_start: u.warm_start(d.warm_start),
    }
}

/// [`super::contact`] on a pair far from unit size.
pub(super) fn contact<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
    f: PowerOfTwo<T>,
) -> ContactResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let u = Unit::new(a, pose_a, b, pose_b, request, f);
    let c = super::dispatch::contact(&u.a, &u.pose_a, &u.b, &u.pose_b, &u.request);
    ContactResult {
        distance: u.back.apply(c.distance),
        normal: c.normal,
        nearest_points: c.nearest_points.map(|p| u.point(&p)),
        status: c.status,
        error_bound: u.back.apply(c.error_bound),
        warm_start: u.warm_start(c.warm_start),
    }
}
