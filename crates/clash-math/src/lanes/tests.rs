use super::{ArrayLanes, ArrayPair, Lanes, Pair, PairF64};

/// The mask's two flags.
fn flags<P: Pair<f64>>(m: P::Mask) -> [bool; 2] {
    [P::flag(m, 0), P::flag(m, 1)]
}

/// Each lane of a pair computes exactly the scalar expression, including
/// signed zeros, subnormals, infinities and huge values, for the target's
/// `f64` pair (SSE2 on x86_64) and the portable array form.
#[test]
fn lanes_match_scalar_arithmetic() {
    let vals = [
        0.0,
        -0.0,
        1.0,
        -1.5,
        1e-310,
        -1e-310,
        3.0e300,
        -7.25e-300,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.1,
        2.0f64.sqrt(),
    ];
    fn check<P: Pair<f64>>(a: f64, b: f64, c: f64) {
        let bits = |x: P| x.lanes().map(f64::to_bits);
        let (p, q) = (P::new(a, b), P::new(c, a));
        assert_eq!(p.lanes().map(f64::to_bits), [a.to_bits(), b.to_bits()]);
        assert_eq!(P::splat(c).lanes().map(f64::to_bits), [c.to_bits(); 2]);
        assert_eq!(bits(p + q), [(a + c).to_bits(), (b + a).to_bits()]);
        assert_eq!(bits(p - q), [(a - c).to_bits(), (b - a).to_bits()]);
        assert_eq!(bits(p * q), [(a * c).to_bits(), (b * a).to_bits()]);
        let d = (p / q).lanes();
        for (got, want) in d.into_iter().zip([a / c, b / a]) {
            assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
        }
        assert_eq!(bits(p.abs()), [a.abs().to_bits(), b.abs().to_bits()]);
        let m = |x: f64, y: f64| if y > x { y } else { x };
        assert_eq!(bits(p.max_of(q)), [m(a, c).to_bits(), m(b, a).to_bits()]);
        let n = |x: f64, y: f64| if y < x { y } else { x };
        assert_eq!(bits(p.min_of(q)), [n(a, c).to_bits(), n(b, a).to_bits()]);
        let r = p.sqrt().lanes();
        for (got, x) in r.into_iter().zip([a, b]) {
            let want = x.sqrt();
            assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
        }
        let zero = P::splat(0.0);
        assert_eq!(flags::<P>(p.gt_mask(zero)), [a > 0.0, b > 0.0]);
        let (mp, mq) = (p.gt_mask(zero), q.gt_mask(zero));
        let or = flags::<P>(P::or(mp, mq));
        assert_eq!(or, [a > 0.0 || c > 0.0, b > 0.0 || a > 0.0]);
        assert_eq!(P::all(mp), a > 0.0 && b > 0.0);
    }
    /// Division, negation, the comparisons and selection, NaN included
    /// (NaN results compared as NaN, their payload aside).
    fn check_more<P: Pair<f64>>(a: f64, b: f64, c: f64) {
        let same = |got: P, want: [f64; 2]| {
            for (g, w) in got.lanes().into_iter().zip(want) {
                assert!(
                    g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                    "{g:e} vs {w:e} for {a:e} {b:e} {c:e}"
                );
            }
        };
        let (p, q) = (P::new(a, b), P::new(c, a));
        same(p / q, [a / c, b / a]);
        same(-p, [-a, -b]);
        assert_eq!(
            (-p).lanes().map(f64::to_bits),
            [(-a).to_bits(), (-b).to_bits()]
        );
        let lanes = flags::<P>;
        assert_eq!(lanes(p.gt_mask(q)), [a > c, b > a]);
        assert_eq!(lanes(p.ge_mask(q)), [a >= c, b >= a]);
        assert_eq!(lanes(p.lt_mask(q)), [a < c, b < a]);
        assert_eq!(lanes(p.eq_mask(q)), [a == c, b == a]);
        let (g, l) = (p.gt_mask(q), p.lt_mask(q));
        assert_eq!(lanes(P::and(g, l)), [false, false]);
        assert_eq!(P::any(g), a > c || b > a);
        assert_eq!(
            flags::<P>(P::and(p.ge_mask(q), q.ge_mask(p))),
            [a == c, b == a]
        );
        let s = P::select(g, p, q).lanes().map(f64::to_bits);
        let want = [if a > c { a } else { c }, if b > a { b } else { a }];
        assert_eq!(s, want.map(f64::to_bits));
        let m = |x: f64, y: f64| if y > x { y } else { x };
        same(p.max_of(q), [m(a, c), m(b, a)]);
        let n = |x: f64, y: f64| if y < x { y } else { x };
        same(p.min_of(q), [n(a, c), n(b, a)]);
    }
    let more: Vec<f64> = vals.iter().copied().chain([f64::NAN, -2.0, 0.5]).collect();
    for &a in &more {
        for &b in &more {
            for &c in &more {
                check_more::<PairF64>(a, b, c);
                check_more::<ArrayPair<f64>>(a, b, c);
            }
        }
    }
    for &a in &vals {
        for &b in &vals {
            for &c in &vals {
                check::<PairF64>(a, b, c);
                check::<ArrayPair<f64>>(a, b, c);
            }
        }
    }
}

/// Building lanes, reading and replacing one lane, and the masks' flags,
/// for one lane (the scalar), the target's pair and four plain lanes: each
/// lane holds exactly the value put there, and a mask's flags are the
/// scalar comparisons of its lanes.
#[test]
fn lanes_build_read_and_flag_alike() {
    fn check<L: Lanes<f64>>(vals: [f64; 4]) {
        let x = L::from_fn(|l| vals[l]);
        let y = L::from_fn(|l| vals[3 - l]);
        for l in 0..L::N {
            assert_eq!(x.lane(l).to_bits(), vals[l].to_bits());
            let z = x.with_lane(l, -7.5);
            for (k, &v) in vals.iter().enumerate().take(L::N) {
                let want = if k == l { -7.5 } else { v };
                assert_eq!(z.lane(k).to_bits(), want.to_bits());
            }
            let gt = x.gt_mask(y);
            assert_eq!(L::flag(gt, l), vals[l] > vals[3 - l]);
            let sel = L::select(gt, x, y).lane(l);
            let want = if vals[l] > vals[3 - l] {
                vals[l]
            } else {
                vals[3 - l]
            };
            assert_eq!(sel.to_bits(), want.to_bits());
        }
        let (gt, lt) = (x.gt_mask(y), x.lt_mask(y));
        let n = L::N;
        let flags = |m: L::Mask| (0..n).map(|l| L::flag(m, l)).collect::<Vec<_>>();
        assert_eq!(L::all(gt), flags(gt).iter().all(|&f| f));
        assert_eq!(L::any(gt), flags(gt).iter().any(|&f| f));
        let or = flags(L::or(gt, lt));
        let (x, y) = (|l: usize| vals[l], |l: usize| vals[3 - l]);
        let want: Vec<bool> = (0..n).map(|l| x(l) > y(l) || x(l) < y(l)).collect();
        assert_eq!(or, want);
        assert!(!L::any(L::and(gt, lt)));
    }
    let cases = [
        [1.0, -2.0, 0.0, -0.0],
        [f64::NAN, 3.0, 3.0, 1e-310],
        [f64::INFINITY, -1.0, 2.5, f64::NEG_INFINITY],
        [4.0, 4.0, 4.0, 4.0],
    ];
    for vals in cases {
        check::<f64>(vals);
        check::<PairF64>(vals);
        check::<ArrayPair<f64>>(vals);
        check::<ArrayLanes<f64, 4>>(vals);
    }
}
