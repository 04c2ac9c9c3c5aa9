//! The [`Scalar`] trait: everything in clash is generic over `f32` and `f64`.

use core::fmt::{Debug, Display};
use nalgebra::RealField;
use serde::{Serialize, de::DeserializeOwned};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A floating-point scalar: `f32` or `f64` (the trait is sealed).
///
/// It extends nalgebra's [`RealField`] with the constants and conversions that
/// geometric code needs, so that generic code reads `T::ONE` and `T::lit(0.5)`
/// instead of `T::from_f64(0.5).unwrap()`.
///
/// ```
/// use clash_math::Scalar;
/// fn half<T: Scalar>(x: T) -> T { x * T::HALF }
/// assert_eq!(half(3.0_f32), 1.5);
/// assert_eq!(f64::lit(0.25), 0.25);
/// ```
pub trait Scalar:
    RealField
    + Copy
    + Default
    + PartialOrd
    + Debug
    + Display
    + Send
    + Sync
    + Serialize
    + DeserializeOwned
    + sealed::Sealed
    + 'static
{
    /// 0
    const ZERO: Self;
    /// 1
    const ONE: Self;
    /// 2
    const TWO: Self;
    /// 0.5
    const HALF: Self;
    /// Machine epsilon: the gap between 1 and the next representable value.
    const EPSILON: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// Negative infinity.
    const NEG_INFINITY: Self;
    /// Largest finite value.
    const MAX: Self;
    /// Smallest positive normal value.
    const MIN_POSITIVE: Self;
    /// `"f32"` or `"f64"`: the name stored in file headers.
    const NAME: &'static str;
    /// The largest coordinate magnitude (a power of two: `2^26` for `f32`,
    /// `2^128` for `f64`) that meshes, pose translations and ray origins
    /// may hold. The queries' arithmetic multiplies up to about four
    /// coordinate differences (squared norms of cross products, the
    /// closest-point barycentrics of RTCD §5.1.5, orientation
    /// determinants); within this range such products, for points moved by
    /// a pose, stay far from overflow, so every answer is finite. Inputs
    /// beyond it are refused with a typed error ([`crate::RangeError`]).
    const MAX_COORDINATE: Self;

    /// Converts an `f64` literal (rounding to nearest for `f32`).
    fn lit(x: f64) -> Self;
    /// Converts an `f32` value exactly (named apart from `num_traits::FromPrimitive::from_f32`, which nalgebra brings into scope).
    fn from_f32_exact(x: f32) -> Self;
    /// Converts to `f64`; exact for both `f32` and `f64`.
    fn to_f64(self) -> f64;
    /// Converts to `f32`, rounding to nearest.
    fn to_f32(self) -> f32;
    /// `true` when the value is neither NaN nor infinite.
    fn finite(self) -> bool;
    /// The smaller of two values (NaN-free input assumed; branch-free on most targets).
    fn min_of(self, other: Self) -> Self;
    /// The larger of two values (NaN-free input assumed).
    fn max_of(self, other: Self) -> Self;
    /// `self * a + b` with one rounding where the target has fused multiply-add.
    fn mul_add_s(self, a: Self, b: Self) -> Self;
    /// Two values side by side ([`crate::lanes`]): SSE2 for `f64` on x86_64.
    // Internal to the clash crates: the lanes clash-bv's fits run in.
    #[doc(hidden)]
    type Pair: crate::Pair<Self>;
    /// Size in bytes: 4 or 8.
    const BYTES: usize;
    /// Appends the value's little-endian bytes ([`Self::BYTES`] of them) to
    /// `out`: the form tree files store.
    fn write_le(self, out: &mut Vec<u8>);
    /// Fills `out` with the values whose little-endian bytes are `bytes`,
    /// bit for bit; `false` (and `out` untouched) unless `bytes` holds
    /// exactly `out.len()` values.
    ///
    /// ```
    /// use clash_math::Scalar;
    /// let mut bytes = Vec::new();
    /// 1.5_f64.write_le(&mut bytes);
    /// (-0.0_f64).write_le(&mut bytes);
    /// let mut out = [0.0_f64; 2];
    /// assert!(f64::read_le(&bytes, &mut out));
    /// assert_eq!(out[0], 1.5);
    /// assert!(out[1].is_sign_negative());
    /// assert!(!f64::read_le(&bytes[1..], &mut out));
    /// ```
    fn read_le(bytes: &[u8], out: &mut [Self]) -> bool;
}

macro_rules! impl_scalar {
    ($t:ty, $name:literal, $pair:ty, $max_coordinate:expr) => {
        impl Scalar for $t {
            type Pair = $pair;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const HALF: Self = 0.5;
            const EPSILON: Self = <$t>::EPSILON;
            const INFINITY: Self = <$t>::INFINITY;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            const MAX: Self = <$t>::MAX;
            const MIN_POSITIVE: Self = <$t>::MIN_POSITIVE;
            const NAME: &'static str = $name;
            const MAX_COORDINATE: Self = $max_coordinate;

            #[inline(always)]
            fn lit(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn from_f32_exact(x: f32) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_f32(self) -> f32 {
                self as f32
            }
            #[inline(always)]
            fn finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn min_of(self, other: Self) -> Self {
                if other < self { other } else { self }
            }
            #[inline(always)]
            fn max_of(self, other: Self) -> Self {
                if other > self { other } else { self }
            }
            #[inline(always)]
            fn mul_add_s(self, a: Self, b: Self) -> Self {
                self * a + b
            }
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline]
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn read_le(bytes: &[u8], out: &mut [Self]) -> bool {
                const N: usize = core::mem::size_of::<$t>();
                if bytes.len() != N * out.len() {
                    return false;
                }
                for (o, chunk) in out.iter_mut().zip(bytes.chunks_exact(N)) {
                    let mut le = [0u8; N];
                    le.copy_from_slice(chunk);
                    *o = <$t>::from_le_bytes(le);
                }
                true
            }
        }
    };
}

// 2^26 and 2^128.
impl_scalar!(f32, "f32", crate::lanes::ArrayPair<f32>, 67_108_864.0);
impl_scalar!(
    f64,
    "f64",
    crate::lanes::PairF64,
    340_282_366_920_938_463_463_374_607_431_768_211_456.0
);

/// `true` when every coordinate of the point is finite.
#[inline]
pub fn point_is_finite<T: Scalar>(p: &nalgebra::Point3<T>) -> bool {
    p.x.finite() && p.y.finite() && p.z.finite()
}

/// `true` when every number of the pose (translation and rotation
/// quaternion) is finite.
#[inline]
pub fn isometry_is_finite<T: Scalar>(pose: &nalgebra::Isometry3<T>) -> bool {
    pose.translation.vector.iter().all(|x| x.finite())
        && pose.rotation.coords.iter().all(|x| x.finite())
}

#[cfg(test)]
mod range_tests {
    use super::Scalar;

    #[test]
    fn max_coordinates_are_the_powers_of_two_documented() {
        assert_eq!(f32::MAX_COORDINATE, 2f32.powi(26));
        assert_eq!(f64::MAX_COORDINATE, 2f64.powi(128));
    }
}
