//! The queries on two support maps by GJK (and EPA for depths), with the
//! margins added exactly.

use super::{ContactResult, DistanceResult, QueryRequest, QueryStatus, WarmStart};
use crate::epa;
use crate::gjk::minkowski::MinkowskiPair;
use crate::gjk::solver::{self, GjkEnd, GjkOutput, GjkParams};
use crate::support::SupportMap;
use clash_math::{Isometry3, Point3, Scalar, Vector3};

/// The pair in `A`'s frame, with the warm start's hints.
#[inline]
pub(crate) fn pair<'a, T, A, B>(
    a: &'a A,
    pose_a: &Isometry3<T>,
    b: &'a B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> MinkowskiPair<'a, T, A, B>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let hints = request.warm_start.map_or([0, 0], |w| w.hints);
    MinkowskiPair::new(a, pose_a, b, pose_b, hints)
}

/// GJK's stopping rules for `pair` under `request`, with the two thresholds
/// on the distance between the cores.
#[inline]
pub(crate) fn params<T, A, B>(
    pair: &MinkowskiPair<'_, T, A, B>,
    request: &QueryRequest<T>,
    stop_above: T,
    stop_below: T,
) -> GjkParams<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let touch = T::EPSILON * T::lit(16.0) * pair.magnitude();
    let tol = if request.tolerance.finite() && request.tolerance > T::ZERO {
        request.tolerance
    } else {
        super::request::default_tolerance()
    };
    GjkParams {
        stop_above,
        stop_below,
        eps: (tol * pair.size()).max_of(touch),
        touch,
        max_iterations: request.max_iterations.max(1),
        variant: request.gjk_variant,
    }
}

/// The first direction: the warm start's, else the centres' difference.
#[inline]
pub(crate) fn first_direction<T, A, B>(
    pair: &MinkowskiPair<'_, T, A, B>,
    request: &QueryRequest<T>,
) -> Vector3<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    match request.warm_start {
        Some(w) if w.direction.norm_squared() > T::ZERO => w.direction,
        _ => pair.center_difference(),
    }
}

/// GJK on the cores of the pair.
pub(crate) fn run_gjk<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    request: &QueryRequest<T>,
    stop_above: T,
    stop_below: T,
) -> GjkOutput<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let p = params(pair, request, stop_above, stop_below);
    let dir = first_direction(pair, request);
    solver::run(pair, dir, &p)
}

/// [`super::intersects`] by GJK.
pub(crate) fn intersects<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> bool
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    if request.security_margin < T::ZERO {
        // Asking for that much penetration: the depth decides.
        return contact(a, pose_a, b, pose_b, request).distance <= request.security_margin;
    }
    let mut pair = pair(a, pose_a, b, pose_b, request);
    let threshold = request.security_margin + pair.margins();
    if threshold.partial_cmp(&threshold).is_none() {
        return false;
    }
    // Decided up to rounding, not up to the distance tolerance: distances
    // within rounding of the threshold count as touching.
    let mut p = params(&pair, request, threshold, threshold);
    p.eps = p.touch;
    p.stop_above = threshold + p.touch;
    p.stop_below = threshold + p.touch;
    let dir = first_direction(&pair, request);
    let out = solver::run(&mut pair, dir, &p);
    match out.end {
        GjkEnd::Overlap | GjkEnd::Below => true,
        GjkEnd::Above => false,
        // Undecided within rounding (or out of iterations): touching, or
        // possibly so.
        GjkEnd::Converged | GjkEnd::IterationLimit => out.lower <= p.stop_above,
    }
}

/// [`super::distance`] by GJK, in `A`'s frame.
pub(crate) fn distance_local<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    request: &QueryRequest<T>,
) -> DistanceResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let margins = pair.margins();
    let out = run_gjk(
        pair,
        request,
        request.distance_upper_bound + margins,
        margins,
    );
    let (ca, cb) = out.simplex.witnesses();
    let warm = |direction: Vector3<T>| WarmStart {
        direction,
        hints: [pair.hint_a, pair.hint_b],
    };
    let upper = out.upper();
    match out.end {
        GjkEnd::Overlap | GjkEnd::Below => {
            // The cores are within the margins: a point of both shapes lies
            // on the segment between the core points.
            let p = if margins > T::ZERO && upper > T::ZERO {
                let t = (upper + pair.a.margin() - pair.b.margin()) * T::HALF / upper;
                let t = t.max_of(T::ZERO).min_of(T::ONE);
                Point3::from(ca.coords + (cb - ca) * t)
            } else {
                ca
            };
            DistanceResult {
                distance: T::ZERO,
                nearest_points: [p, p],
                normal: Vector3::zeros(),
                status: QueryStatus::Converged,
                error_bound: T::ZERO,
                warm_start: warm(out.v),
            }
        }
        end => {
            let n = -out.v / upper;
            let status = match end {
                GjkEnd::Above => QueryStatus::UpperBoundExceeded,
                GjkEnd::IterationLimit => QueryStatus::IterationLimit,
                _ => QueryStatus::Converged,
            };
            let lower = out.lower.max_of(T::ZERO);
            let distance = if end == GjkEnd::Above {
                lower - margins
            } else {
                upper - margins
            };
            DistanceResult {
                distance: distance.max_of(T::ZERO),
                nearest_points: [ca + n * pair.a.margin(), cb - n * pair.b.margin()],
                normal: n,
                status,
                error_bound: (upper - lower).max_of(T::ZERO),
                warm_start: warm(out.v),
            }
        }
    }
}

/// [`super::distance`] by GJK.
pub(crate) fn distance<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> DistanceResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let mut pair = pair(a, pose_a, b, pose_b, request);
    distance_local(&mut pair, request).placed(pose_a)
}

/// [`super::contact`] by GJK and EPA, in `A`'s frame.
pub(crate) fn contact_local<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    request: &QueryRequest<T>,
) -> ContactResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let margins = pair.margins();
    let p = params(
        pair,
        request,
        request.distance_upper_bound + margins,
        T::NEG_INFINITY,
    );
    let dir = first_direction(pair, request);
    let out = solver::run(pair, dir, &p);
    let (ma, mb) = (pair.a.margin(), pair.b.margin());
    if out.end == GjkEnd::Overlap {
        let epa = epa::penetration(pair, &out.simplex, p.eps, p.touch, request.max_iterations);
        let n = epa.normal;
        let distance = -(epa.depth + margins);
        return ContactResult {
            distance: snap(distance, p.touch),
            normal: n,
            nearest_points: [epa.a + n * ma, epa.b - n * mb],
            status: if epa.converged {
                QueryStatus::Converged
            } else {
                QueryStatus::IterationLimit
            },
            error_bound: (epa.upper - epa.depth).max_of(T::ZERO),
            warm_start: WarmStart {
                direction: -n,
                hints: [pair.hint_a, pair.hint_b],
            },
        };
    }
    let (ca, cb) = out.simplex.witnesses();
    let upper = out.upper();
    let n = -out.v / upper;
    let (distance, status) = match out.end {
        GjkEnd::Above => (out.lower - margins, QueryStatus::UpperBoundExceeded),
        GjkEnd::IterationLimit => (upper - margins, QueryStatus::IterationLimit),
        _ => (upper - margins, QueryStatus::Converged),
    };
    ContactResult {
        distance: snap(distance, p.touch),
        normal: n,
        nearest_points: [ca + n * ma, cb - n * mb],
        status,
        error_bound: (upper - out.lower).max_of(T::ZERO),
        warm_start: WarmStart {
            direction: out.v,
            hints: [pair.hint_a, pair.hint_b],
        },
    }
}

/// A signed distance within rounding of 0 is 0: touching.
#[inline]
pub(crate) fn snap<T: Scalar>(d: T, touch: T) -> T {
    if d.abs() <= touch { T::ZERO } else { d }
}

/// [`super::contact`] by GJK and EPA.
pub(crate) fn contact<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> ContactResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let mut pair = pair(a, pose_a, b, pose_b, request);
    contact_local(&mut pair, request).placed(pose_a)
}
