//! The GJK iteration (RTCD §9.5.1) with van den Bergen's bounds: `|v|` is an
//! upper bound on the distance between the cores and every support plane
//! `v·w / |v|` a lower bound; the loop stops when they meet within
//! tolerance, when a bound crosses a threshold the caller set, when the
//! simplex encloses the origin, or at the iteration limit. It never loops
//! forever: a support point already in the simplex, or a projection that
//! does not shrink `|v|`, ends it.

use super::GjkVariant;
use super::minkowski::{MinkowskiPair, SupportPoint};
use super::simplex::Simplex;
use crate::support::SupportMap;
use clash_math::{Scalar, Vector3};

/// Nesterov's momentum hands over to the plain rule once the duality gap
/// it sees falls below this fraction of `|v|`...
const NESTEROV_GAP: f64 = 1e-3;
/// ...or after this many iterations.
const NESTEROV_ITERATIONS: u32 = 32;

/// When to stop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GjkParams<T: Scalar> {
    /// Stop once the lower bound exceeds this (the cores are proven farther
    /// apart).
    pub stop_above: T,
    /// Stop once `|v|` is at most this (the cores are proven this close).
    pub stop_below: T,
    /// Stop once `|v| - lower <= eps`.
    pub eps: T,
    /// `|v|` at or below which the origin counts as reached (rounding).
    pub touch: T,
    pub max_iterations: u32,
    pub variant: GjkVariant,
}

/// Why the loop stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GjkEnd {
    /// `|v|` is the distance within `eps` (or cannot be improved).
    Converged,
    /// The origin is in the simplex, or within `touch` of it.
    Overlap,
    /// The lower bound exceeded `stop_above`.
    Above,
    /// `|v|` fell to `stop_below`.
    Below,
    /// The iteration limit was reached.
    IterationLimit,
}

/// The state GJK ends in: the simplex, its closest point `v` (`a - b` in
/// `A`'s frame) and the best support plane `lower`: a lower bound on the
/// signed distance of the cores (negative when no plane separated them;
/// minus infinity before the first).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GjkOutput<T: Scalar> {
    pub simplex: Simplex<T>,
    pub v: Vector3<T>,
    pub lower: T,
    pub end: GjkEnd,
}

impl<T: Scalar> GjkOutput<T> {
    /// `|v|`: the upper bound on the distance between the cores.
    #[inline]
    pub fn upper(&self) -> T {
        self.v.norm()
    }
}

/// Runs GJK from the support point opposite `dir` (any non-zero direction;
/// the zero vector falls back to the x axis).
pub(crate) fn run<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    dir: Vector3<T>,
    params: &GjkParams<T>,
) -> GjkOutput<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let dir = if dir.norm_squared() > T::ZERO && dir.iter().all(|x| x.finite()) {
        dir
    } else {
        Vector3::x()
    };
    let first = pair.support(&-dir);
    let mut simplex = Simplex::single(first);
    let mut v = first.w;
    let mut vv = v.norm_squared();
    // The best support plane so far; negative while no plane separates the
    // origin from the difference (it is then not a bound on the distance,
    // and must not end the loop when `|v|` happens to be small).
    let mut lower = T::NEG_INFINITY;
    let mut variant = params.variant;
    let mut last_w = first.w;
    let touch2 = params.touch * params.touch;
    let mut end = GjkEnd::IterationLimit;
    let mut k = 0;
    while k < params.max_iterations {
        if vv <= touch2 {
            end = GjkEnd::Overlap;
            break;
        }
        let norm = vv.sqrt();
        if norm <= params.stop_below {
            end = GjkEnd::Below;
            break;
        }
        let (d, dn) = match variant {
            GjkVariant::Plain => (v, norm),
            GjkVariant::Nesterov => {
                let kk = T::lit(f64::from(k));
                let delta = (kk + T::ONE) / (kk + T::lit(3.0));
                let y = v * delta + last_w * (T::ONE - delta);
                let yy = y.norm_squared();
                if yy > touch2 {
                    (y, yy.sqrt())
                } else {
                    (v, norm)
                }
            }
        };
        let w: SupportPoint<T> = pair.support(&-d);
        k += 1;
        let plane = d.dot(&w.w) / dn;
        if !plane.finite() {
            // A support map answered NaN or infinity: keep the last state.
            break;
        }
        if plane > lower {
            lower = plane;
        }
        if lower > params.stop_above {
            end = GjkEnd::Above;
            break;
        }
        if norm - lower <= params.eps {
            end = GjkEnd::Converged;
            break;
        }
        if variant == GjkVariant::Nesterov
            && (norm - v.dot(&w.w) / norm <= params.eps.max_of(norm * T::lit(NESTEROV_GAP))
                || k > NESTEROV_ITERATIONS)
        {
            // Montaut et al.'s switch (coal's): once the momentum point's
            // support says `v` is nearly optimal, momentum only blurs the
            // last digits, which the plain rule proves; finish with it.
            variant = GjkVariant::Plain;
            continue;
        }
        let stalled = simplex.contains(&w.w) || simplex.len == 4;
        let next = if stalled {
            None
        } else {
            let proj = simplex.project_with(&w.w);
            (proj.vv < vv).then_some(proj)
        };
        match next {
            Some(proj) => {
                simplex.commit(w, &proj);
                last_w = w.w;
                if proj.set == 0b1111 {
                    v = Vector3::zeros();
                    end = GjkEnd::Overlap;
                    break;
                }
                v = proj.v;
                vv = proj.vv;
            }
            None if variant == GjkVariant::Nesterov => {
                // Momentum stopped paying: finish with the plain rule.
                variant = GjkVariant::Plain;
            }
            None => {
                end = GjkEnd::Converged;
                break;
            }
        }
    }
    GjkOutput {
        simplex,
        v,
        lower,
        end,
    }
}
