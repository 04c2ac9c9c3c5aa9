use super::node4::{block_portable, row_portable};
use super::*;

fn next_u64(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[test]
fn rounding_is_outward_and_tight() {
    let special = [
        0.0,
        -0.0,
        1e-300,
        -1e-300,
        f64::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1.0 + f64::EPSILON,
        -(1.0 + f64::EPSILON),
        f64::from(f32::MAX),
        -f64::from(f32::MAX),
        f64::from(f32::MAX) * (1.0 + f64::EPSILON),
        1e39,
        -1e39,
        1e300,
        -1e300,
        f64::MAX,
        -f64::MAX,
        0.1,
        -0.1,
        16_777_217.0,
        -16_777_217.0,
        1e-50,
        -1e-50,
        -f64::MIN_POSITIVE,
        f64::from(f32::from_bits(1)),
        -f64::from(f32::from_bits(1)),
        f64::from(f32::from_bits(1)) * 1.5,
        -f64::from(f32::from_bits(1)) * 1.5,
        f64::from(f32::MIN_POSITIVE) * (1.0 - f64::EPSILON),
        -f64::from(f32::MIN_POSITIVE) * (1.0 - f64::EPSILON),
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut seed2 = 0x9e37_79b9_7f4a_7c15u64;
    let random = (0..100_000)
        .map(|_| f64::from_bits(next_u64(&mut seed)))
        .filter(|x| x.is_finite())
        // Values within the range of f32, on and between its steps.
        .chain((0..100_000).map(|i| {
            let f = f32::from_bits(next_u64(&mut seed2) as u32);
            let x = f64::from(if f.is_finite() { f } else { 1.0 });
            match i % 3 {
                0 => x,
                1 => x.next_up(),
                _ => x.next_down(),
            }
        }));
    for x in special.into_iter().chain(random) {
        let (lo, hi) = (round_down(x), round_up(x));
        // The same as stepping with `next_down` / `next_up`.
        let f = x as f32;
        let lo_ref = if f64::from(f) > x { f.next_down() } else { f };
        let hi_ref = if f64::from(f) < x { f.next_up() } else { f };
        assert_eq!(lo.to_bits(), lo_ref.to_bits(), "{x:e} down");
        assert_eq!(hi.to_bits(), hi_ref.to_bits(), "{x:e} up");
        assert!(
            f64::from(lo) <= x && x <= f64::from(hi),
            "{x:e}: {lo:e} {hi:e}"
        );
        assert!(lo != f32::INFINITY && hi != f32::NEG_INFINITY, "{x:e}");
        // Tight: no f32 between the rounded value and `x`.
        if lo.is_finite() && f64::from(lo) < x {
            assert!(f64::from(lo.next_up()) > x, "{x:e} down");
        }
        if hi.is_finite() && f64::from(hi) > x {
            assert!(f64::from(hi.next_down()) < x, "{x:e} up");
        }
        // f32 values are kept exactly.
        let y = x as f32;
        if y.is_finite() {
            assert_eq!(round_down(y).to_bits(), y.to_bits());
            assert_eq!(round_up(y).to_bits(), y.to_bits());
        }
    }
}

/// The SSE2 row and block tests answer as the comparisons, on touching boxes,
/// zeros of both signs, infinities from rounding, subnormals, huge
/// coordinates and random ones.
#[test]
fn row_and_block_tests_equal_comparisons() {
    let values = [
        f32::NEG_INFINITY,
        -f32::MAX,
        -3.0,
        -1.0,
        -1e-40,
        -0.0,
        0.0,
        1e-40,
        1.0,
        3.0,
        f32::MAX,
        f32::INFINITY,
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let pick = |seed: &mut u64| {
        let r = next_u64(seed);
        if r.is_multiple_of(3) {
            values[(r >> 8) as usize % values.len()]
        } else {
            ((r >> 8) % 2001) as f32 * 0.01 - 10.0
        }
    };
    let mut hits = 0;
    for _ in 0..20_000 {
        let mut n = Node4::default();
        for c in 0..4 {
            for k in 0..3 {
                let (a, b) = (pick(&mut seed), pick(&mut seed));
                n.lo[k][c] = a.min(b);
                n.hi[k][c] = a.max(b);
            }
        }
        let mut lo = [0.0; 3];
        let mut hi = [0.0; 3];
        for k in 0..3 {
            let (a, b) = (pick(&mut seed), pick(&mut seed));
            lo[k] = a.min(b);
            hi[k] = a.max(b);
        }
        let m = row(&lo, &hi, &n);
        assert_eq!(m, row_portable(&lo, &hi, &n), "{lo:?} {hi:?} {n:?}");
        hits += m.count_ones();
        // The block test of the node against a node made of this box
        // and three others.
        let mut o = Node4::default();
        for c in 0..4 {
            for k in 0..3 {
                let (a, b) = if c == 0 {
                    (lo[k], hi[k])
                } else {
                    let (a, b) = (pick(&mut seed), pick(&mut seed));
                    (a.min(b), a.max(b))
                };
                o.lo[k][c] = a;
                o.hi[k][c] = b;
            }
        }
        assert_eq!(block(&o, &n), block_portable(&o, &n), "{o:?} {n:?}");
        assert_eq!(block(&n, &o), block_portable(&n, &o), "{n:?} {o:?}");
        assert_eq!(block(&o, &n) & 0xF, m);
    }
    assert!(hits > 5_000, "too few overlaps to test: {hits}");
}
