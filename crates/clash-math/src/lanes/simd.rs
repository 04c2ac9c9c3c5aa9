//! [`simd_lanes!`](crate::simd_lanes): a [`Lanes`](super::Lanes) type over
//! one x86_64 SIMD register, from the names of the register's intrinsics.
//! clash-math makes its SSE2 pair with it ([`F64x2`](super::F64x2));
//! clash-bv its four-lane AVX and SSE types, private to the module that
//! runs them only where the CPU has the instructions.

/// Defines `$name`, `$n` lanes of `$t` in one register of type `$reg`,
/// and implements [`Lanes`](crate::lanes::Lanes) for it with the given
/// intrinsics: `set` builds the register from an array `$x` of the lanes,
/// lowest first; the comparisons must be ordered (false where either
/// operand is NaN).
///
/// Each lane computes what the scalar expression computes: IEEE add,
/// subtract, multiply, divide and square root round the same in a SIMD
/// lane, `abs` clears the sign bit and negation flips it, and `max`/`min`
/// return their second operand unless the first is larger/smaller, so with
/// the operands swapped they are [`Scalar::max_of`](crate::Scalar::max_of)
/// and [`Scalar::min_of`](crate::Scalar::min_of).
///
/// Safety, at the invocation: the intrinsics compute on registers and touch
/// no memory, but need their instruction set; the invoking module must
/// make values of `$name` only where the CPU has it (for SSE2 and SSE:
/// every x86_64 CPU).
#[doc(hidden)]
#[macro_export]
macro_rules! simd_lanes {
    (
        $(#[$doc:meta])*
        $vis:vis struct $name:ident($reg:ty) of $t:ty, $n:literal;
        add: $add:expr, sub: $sub:expr, mul: $mul:expr, div: $div:expr,
        and: $and:expr, andnot: $andnot:expr, or: $or:expr, xor: $xor:expr,
        set1: $set1:expr, sqrt: $sqrt:expr, max: $max:expr, min: $min:expr,
        gt: $gt:expr, ge: $ge:expr, lt: $lt:expr, eq: $eq:expr,
        movemask: $movemask:expr, set: |$x:ident| $set:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name($reg);

        impl $name {
            /// The lanes `x`, lowest first.
            #[inline(always)]
            $vis fn from_array($x: [$t; $n]) -> Self {
                // SAFETY: the instruction set is available wherever values
                // of this type are made (see `simd_lanes!`); the intrinsics
                // compute on registers and touch no memory.
                Self(unsafe { $set })
            }
            /// The lanes, lowest first.
            #[inline(always)]
            $vis fn to_array(self) -> [$t; $n] {
                // SAFETY: a register of `$n` lanes of `$t` has the size and
                // layout of the array, and every bit pattern is a value.
                unsafe { core::mem::transmute::<$reg, [$t; $n]>(self.0) }
            }
            /// Bit `l` set when lane `l` of the mask is.
            #[inline(always)]
            fn bits(m: $reg) -> i32 {
                // SAFETY: as in `from_array`.
                unsafe { ($movemask)(m) }
            }
        }

        impl core::ops::Add for $name {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($add)(self.0, o.0) })
            }
        }
        impl core::ops::Sub for $name {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($sub)(self.0, o.0) })
            }
        }
        impl core::ops::Mul for $name {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($mul)(self.0, o.0) })
            }
        }
        impl core::ops::Div for $name {
            type Output = Self;
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($div)(self.0, o.0) })
            }
        }
        impl core::ops::Neg for $name {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                // Flips the sign bit, as scalar negation does (NaN included).
                // SAFETY: as in `from_array`.
                Self(unsafe { ($xor)(self.0, ($set1)(-0.0)) })
            }
        }

        impl $crate::lanes::Lanes<$t> for $name {
            type Mask = $reg;
            const N: usize = $n;
            #[inline(always)]
            fn splat(x: $t) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($set1)(x) })
            }
            #[inline(always)]
            fn from_fn(mut f: impl FnMut(usize) -> $t) -> Self {
                let mut x = [0.0; $n];
                for (l, v) in x.iter_mut().enumerate() {
                    *v = f(l);
                }
                Self::from_array(x)
            }
            #[inline(always)]
            fn lane(self, l: usize) -> $t {
                self.to_array()[l]
            }
            #[inline(always)]
            fn with_lane(self, l: usize, x: $t) -> Self {
                let mut v = self.to_array();
                v[l] = x;
                Self::from_array(v)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($andnot)(($set1)(-0.0), self.0) })
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                // SAFETY: as in `from_array`.
                Self(unsafe { ($sqrt)(self.0) })
            }
            #[inline(always)]
            fn max_of(self, o: Self) -> Self {
                // `if o > self { o } else { self }`: `max` with `o` first.
                // SAFETY: as in `from_array`.
                Self(unsafe { ($max)(o.0, self.0) })
            }
            #[inline(always)]
            fn min_of(self, o: Self) -> Self {
                // `if o < self { o } else { self }`: `min` with `o` first.
                // SAFETY: as in `from_array`.
                Self(unsafe { ($min)(o.0, self.0) })
            }
            #[inline(always)]
            fn gt_mask(self, o: Self) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($gt)(self.0, o.0) }
            }
            #[inline(always)]
            fn ge_mask(self, o: Self) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($ge)(self.0, o.0) }
            }
            #[inline(always)]
            fn lt_mask(self, o: Self) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($lt)(self.0, o.0) }
            }
            #[inline(always)]
            fn eq_mask(self, o: Self) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($eq)(self.0, o.0) }
            }
            #[inline(always)]
            fn and(m: $reg, n: $reg) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($and)(m, n) }
            }
            #[inline(always)]
            fn or(m: $reg, n: $reg) -> $reg {
                // SAFETY: as in `from_array`.
                unsafe { ($or)(m, n) }
            }
            #[inline(always)]
            fn all(m: $reg) -> bool {
                Self::bits(m) == (1 << $n) - 1
            }
            #[inline(always)]
            fn any(m: $reg) -> bool {
                Self::bits(m) != 0
            }
            #[inline(always)]
            fn flag(m: $reg, l: usize) -> bool {
                Self::bits(m) & (1 << l) != 0
            }
            #[inline(always)]
            fn select(m: $reg, a: Self, b: Self) -> Self {
                // (m & a) | (!m & b): a mask is all ones or all zeros per lane.
                // SAFETY: as in `from_array`.
                Self(unsafe { ($or)(($and)(m, a.0), ($andnot)(m, b.0)) })
            }
        }
    };
}
