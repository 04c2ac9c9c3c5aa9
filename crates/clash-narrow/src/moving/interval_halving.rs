use clash_math::Scalar;

/// Interval halving for general motion, Ericson, RTCD §5.5.1.
///
/// `may_touch(t0, t1)` is the caller's **conservative** test: it must return
/// `false` only when the objects certainly do not touch at any time in
/// `[t0, t1]` (typically: bounding spheres or boxes of each object's motion
/// over `[t0, t1]` do not overlap). The time range `[t_start, t_end]` is
/// bisected depth-first, earliest half first; the result is the start of the
/// earliest sub-interval of width `<= min_width` on which `may_touch` still
/// holds (a lower bound on the first contact time if `may_touch` is
/// conservative), or `None` when every branch is ruled out. The recursion
/// depth is capped at 60 halvings, and non-finite or reversed bounds give
/// `None`.
///
/// ```
/// use clash_narrow::moving::interval_halving;
/// // A point moving from x = -1 with speed 2 against the slab x ∈ [0.5, 1]:
/// // the motion over [t0, t1] is bounded by [-1 + 2 t0, -1 + 2 t1].
/// let t = interval_halving(0.0_f64, 1.0, 1e-9, |t0, t1| -1.0 + 2.0 * t1 >= 0.5 && -1.0 + 2.0 * t0 <= 1.0);
/// assert!((t.unwrap() - 0.75).abs() < 1e-8);
/// ```
pub fn interval_halving<T: Scalar>(
    t_start: T,
    t_end: T,
    min_width: T,
    mut may_touch: impl FnMut(T, T) -> bool,
) -> Option<T> {
    if !(t_start.finite() && t_end.finite() && t_start <= t_end && min_width >= T::ZERO) {
        return None;
    }
    // Explicit stack of (t0, t1, depth); the later half is pushed first.
    let mut stack = vec![(t_start, t_end, 0u32)];
    while let Some((t0, t1, depth)) = stack.pop() {
        if !may_touch(t0, t1) {
            continue;
        }
        if t1 - t0 <= min_width || depth >= 60 {
            return Some(t0);
        }
        let mid = (t0 + t1) * T::HALF;
        stack.push((mid, t1, depth + 1));
        stack.push((t0, mid, depth + 1));
    }
    None
}

/// Conservative advancement for general motion (RTCD §5.5, the
/// distance-bound counterpart of §5.5.1's interval halving).
///
/// `distance(t)` must be a lower bound on the distance between the objects
/// at time `t` (zero or negative when they touch), and `max_closing_speed`
/// an upper bound on how fast that distance can decrease. Starting at
/// `t_start`, time advances by `distance / max_closing_speed` (a step that
/// cannot skip a contact) until the distance falls to `tolerance` or below;
/// that time is returned (contact, up to `tolerance`). `None` when `t_end` is
/// passed, after `max_steps` steps without reaching `tolerance` (reported as
/// no contact only in that the caller's budget ran out: raise `max_steps`),
/// or on non-finite input.
pub fn conservative_advancement<T: Scalar>(
    t_start: T,
    t_end: T,
    mut distance: impl FnMut(T) -> T,
    max_closing_speed: T,
    tolerance: T,
    max_steps: usize,
) -> Option<T> {
    if !(t_start.finite()
        && t_end.finite()
        && t_start <= t_end
        && max_closing_speed.finite()
        && tolerance.finite())
    {
        return None;
    }
    let mut t = t_start;
    for _ in 0..max_steps {
        let d = distance(t);
        if d <= tolerance {
            return Some(t);
        }
        if !(d > tolerance) {
            return None; // NaN distance
        }
        if max_closing_speed <= T::ZERO {
            return None;
        }
        t += d / max_closing_speed;
        if t > t_end {
            return None;
        }
    }
    None
}
