//! The orientation determinants in big integers, for inputs outside the
//! range in which the adaptive expansions are exact.
//!
//! Every finite `f64` is an integer multiple of `2^-1074`, so scaling all
//! coordinates by `2^1074` gives integers (of up to 2,098 bits) whose
//! determinant has the sign of the original one: a determinant of degree
//! `k` is scaled by `2^(1074 k) > 0`.

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

/// The exponent of the smallest subnormal: `x * 2^SCALE` is an integer.
const SCALE: i64 = 1074;

/// `x * 2^1074` as an integer, exactly (`x` finite).
fn scaled(x: f64) -> BigInt {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as u32;
    let fraction = bits & ((1 << 52) - 1);
    // Normal: x = (2^52 + fraction) * 2^(exponent - 1075); subnormal:
    // x = fraction * 2^-1074.
    let (mantissa, shift) = if exponent == 0 {
        (fraction, 0)
    } else {
        (fraction | 1 << 52, exponent - 1)
    };
    let magnitude = BigInt::from(mantissa) << shift;
    if x.is_sign_negative() {
        -magnitude
    } else {
        magnitude
    }
}

/// `2^e` for `e` in the range of normal `f64` exponents.
fn power_of_two(e: i64) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// `x * 2^e`, rounding once per step of at most `2^1000`.
fn times_power_of_two(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 && x.is_finite() {
        x *= power_of_two(1000);
        e -= 1000;
    }
    while e < -1000 && x != 0.0 {
        x *= power_of_two(-1000);
        e += 1000;
    }
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    x * power_of_two(e)
}

/// `value * 2^(-1074 degree)` rounded to an `f64` of the same sign: a
/// nonzero value too small for an `f64` becomes the smallest subnormal of
/// its sign, one too large `±f64::MAX`, so that the sign is never lost.
fn unscaled(value: &BigInt, degree: i64) -> f64 {
    let sign = match value.sign() {
        Sign::Minus => -1.0,
        Sign::NoSign => return 0.0,
        Sign::Plus => 1.0,
    };
    let dropped = value.bits().saturating_sub(64);
    let top = (value.magnitude() >> dropped).to_u64().unwrap_or(u64::MAX) as f64;
    let magnitude = times_power_of_two(top, dropped as i64 - SCALE * degree);
    if magnitude == 0.0 {
        sign * f64::from_bits(1)
    } else if magnitude.is_infinite() {
        sign * f64::MAX
    } else {
        sign * magnitude
    }
}

/// The difference `p - o` of two scaled points of `N` coordinates.
fn difference<const N: usize>(p: &[BigInt], o: &[BigInt]) -> [BigInt; N] {
    std::array::from_fn(|k| &p[k] - &o[k])
}

/// `((b - a) × (c - a)) · (d - a)` for `coords = [a, b, c, d]` (x, y, z
/// each), with its exact sign.
pub(super) fn orient3d(coords: &[f64; 12]) -> f64 {
    let s: Vec<BigInt> = coords.iter().map(|&x| scaled(x)).collect();
    let (a, b, c, d) = (&s[0..3], &s[3..6], &s[6..9], &s[9..12]);
    let u: [BigInt; 3] = difference(b, a);
    let v: [BigInt; 3] = difference(c, a);
    let w: [BigInt; 3] = difference(d, a);
    let det = (&u[1] * &v[2] - &u[2] * &v[1]) * &w[0]
        + (&u[2] * &v[0] - &u[0] * &v[2]) * &w[1]
        + (&u[0] * &v[1] - &u[1] * &v[0]) * &w[2];
    unscaled(&det, 3)
}

/// `(b - a) × (c - a)` for `coords = [a, b, c]` (x, y each), with its exact
/// sign.
pub(super) fn orient2d(coords: &[f64; 6]) -> f64 {
    let s: Vec<BigInt> = coords.iter().map(|&x| scaled(x)).collect();
    let (a, b, c) = (&s[0..2], &s[2..4], &s[4..6]);
    let u: [BigInt; 2] = difference(b, a);
    let v: [BigInt; 2] = difference(c, a);
    unscaled(&(&u[0] * &v[1] - &u[1] * &v[0]), 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_is_exact_from_the_smallest_subnormal_to_the_largest_double() {
        for x in [
            0.0,
            -0.0,
            f64::from_bits(1),
            -f64::from_bits(1),
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE - f64::from_bits(1),
            1.0,
            -1.5,
            f64::MAX,
            -f64::MAX,
        ] {
            let back = unscaled(&scaled(x), 1);
            assert_eq!(
                back.to_bits() & !(1 << 63),
                x.to_bits() & !(1 << 63),
                "{x:e}"
            );
            if x != 0.0 {
                assert_eq!(back.signum(), x.signum(), "{x:e}");
            }
        }
    }

    #[test]
    fn unscaled_values_keep_their_sign_beyond_the_range_of_doubles() {
        // 2^-1074 * 2^-1074: far below the smallest subnormal.
        assert_eq!(unscaled(&BigInt::from(-1), 2), -f64::from_bits(1));
        // 2^(3 * 1100) / 2^(3 * 1074): 2^78.
        let big = BigInt::from(1) << 3300u32;
        assert_eq!(unscaled(&big, 3), power_of_two(78));
        assert_eq!(unscaled(&(BigInt::from(1) << 5000u32), 1), f64::MAX);
    }
}
