use super::{RayHit, inside_hit, valid_query, vec_finite};
use clash_math::{Plane, Ray, Scalar};

/// First hit of `ray` on the solid convex polyhedron `∩ { x : n·x <= offset }`
/// over `planes` (outward unit normals) in `[t_min, t_max]`, by clipping the
/// parameter interval against each half-space (Cyrus–Beck, RTCD §5.3.8).
///
/// The normal is that of the plane entered last. An empty `planes` slice or a
/// non-finite plane gives `None`; an unbounded intersection is fine.
pub fn ray_convex_polyhedron<T: Scalar>(
    ray: &Ray<T>,
    planes: &[Plane<T>],
    t_min: T,
    t_max: T,
) -> Option<RayHit<T>> {
    if planes.is_empty() || !valid_query(ray, t_min, t_max) {
        return None;
    }
    let mut enter = t_min;
    let mut exit = t_max;
    let mut entered: Option<usize> = None;
    for (i, p) in planes.iter().enumerate() {
        if !vec_finite(&p.normal) || !p.offset.finite() {
            return None;
        }
        let denom = p.normal.dot(&ray.dir);
        let dist = p.offset - p.normal.dot(&ray.origin.coords);
        if denom == T::ZERO {
            if dist < T::ZERO {
                return None;
            }
            continue;
        }
        let t = dist / denom;
        if denom < T::ZERO {
            if t > enter {
                enter = t;
                entered = Some(i);
            }
        } else if t < exit {
            exit = t;
        }
        if enter > exit {
            return None;
        }
    }
    match entered {
        None => Some(inside_hit(ray, t_min)),
        Some(i) => Some(RayHit {
            t: enter,
            point: ray.at(enter),
            normal: planes[i].normal,
        }),
    }
}
