//! The sixteen tree types a Python `Tree` can hold (eight volume types in
//! two precisions), the names Python passes for them, and the dispatch from
//! a run-time choice to the generic Rust code.
//!
//! The command line's `tree_kind.rs` dispatches a run-time kind to a generic
//! function once per command; the package must also *hold* a tree of any
//! kind between calls, so it keeps an enum with one variant per type, and
//! the macros here turn a `match` on it into a call of generic code.

use crate::error::{Error, Result};
use clash::bv::FlatVolume;
use clash::bvh::Bvh;
use clash::math::Scalar;

/// The list of tree types, `[Variant, scalar, volume]`, and what is made of
/// it: `tree_types!(@NAME (ARGS))` expands the rule `NAME` with `ARGS` and the
/// list. The public faces are [`with_kind!`](crate::with_kind),
/// [`with_tree!`](crate::with_tree) and [`with_tree_pair!`](crate::with_tree_pair).
#[doc(hidden)]
#[macro_export]
macro_rules! tree_types {
    (@$rule:ident ($($args:tt)*)) => {
        $crate::tree_types! { @$rule ($($args)*) list
            [F64Aabb, f64, ::clash::bv::Aabb<f64>]
            [F64Obb, f64, ::clash::bv::Obb<f64>]
            [F64Rss, f64, ::clash::bv::Rss<f64>]
            [F64Sphere, f64, ::clash::bv::Sphere<f64>]
            [F64Capsule, f64, ::clash::bv::Capsule<f64>]
            [F64Kdop14, f64, ::clash::bv::Kdop14<f64>]
            [F64Kdop18, f64, ::clash::bv::Kdop18<f64>]
            [F64Kdop26, f64, ::clash::bv::Kdop26<f64>]
            [F32Aabb, f32, ::clash::bv::Aabb<f32>]
            [F32Obb, f32, ::clash::bv::Obb<f32>]
            [F32Rss, f32, ::clash::bv::Rss<f32>]
            [F32Sphere, f32, ::clash::bv::Sphere<f32>]
            [F32Capsule, f32, ::clash::bv::Capsule<f32>]
            [F32Kdop14, f32, ::clash::bv::Kdop14<f32>]
            [F32Kdop18, f32, ::clash::bv::Kdop18<f32>]
            [F32Kdop26, f32, ::clash::bv::Kdop26<f32>]
        }
    };

    (@define () list $([$variant:ident, $t:ty, $b:ty])*) => {
        /// A tree of any of the sixteen types, shared (a `clash.World` holds
        /// the same tree as the `clash.Tree` it was given).
        pub enum AnyTree {
            $(
                #[doc = concat!("A `Bvh<", stringify!($t), ", ", stringify!($b), ">`.")]
                $variant(::std::sync::Arc<Bvh<$t, $b>>),
            )*
        }

        $(
            impl From<Bvh<$t, $b>> for AnyTree {
                fn from(tree: Bvh<$t, $b>) -> Self {
                    Self::$variant(::std::sync::Arc::new(tree))
                }
            }
        )*

        /// The tree types, in the order of the enum.
        pub const KINDS: &[TreeKind] = &[$(TreeKind::of::<$t, $b>(),)*];
    };

    (@kind ($kind:expr, $T:ident, $B:ident, $body:expr) list $([$variant:ident, $t:ty, $b:ty])*) => {{
        let kind: $crate::kind::TreeKind = $kind;
        $(
            if kind == $crate::kind::TreeKind::of::<$t, $b>() {
                type $T = $t;
                type $B = $b;
                $body
            } else
        )*
        {
            unreachable!("every TreeKind is one of the listed types")
        }
    }};

    (@tree ($tree:expr, $x:ident, $body:expr) list $([$variant:ident, $t:ty, $b:ty])*) => {
        match $tree {
            $($crate::kind::AnyTree::$variant(shared) => {
                let $x: &::clash::bvh::Bvh<$t, $b> = shared;
                $body
            })*
        }
    };

    (@pair ($a:expr, $b:expr, $x:ident, $y:ident, $body:expr, $mismatch:expr)
     list $([$variant:ident, $t:ty, $b_ty:ty])*) => {
        match ($a, $b) {
            $(($crate::kind::AnyTree::$variant(first), $crate::kind::AnyTree::$variant(second)) => {
                let ($x, $y): (&::clash::bvh::Bvh<$t, $b_ty>, &::clash::bvh::Bvh<$t, $b_ty>) = (first, second);
                $body
            })*
            _ => $mismatch,
        }
    };
}

tree_types!(@define ());

/// `$body` with the type names `$T` and `$B` standing for the scalar and
/// volume types of `$kind` (a [`TreeKind`]).
#[macro_export]
macro_rules! with_kind {
    ($kind:expr, |$T:ident, $B:ident| $body:expr) => {
        $crate::tree_types!(@kind ($kind, $T, $B, $body))
    };
}

/// `$body` with `$x` bound to the tree inside `$tree` (an `&AnyTree`).
#[macro_export]
macro_rules! with_tree {
    ($tree:expr, $x:ident => $body:expr) => {
        $crate::tree_types!(@tree ($tree, $x, $body))
    };
}

/// `$body` with `$x` and `$y` bound to the trees inside `$a` and `$b` (two
/// `&AnyTree`s), or `$mismatch` when they are of different kinds.
#[macro_export]
macro_rules! with_tree_pair {
    ($a:expr, $b:expr, ($x:ident, $y:ident) => $body:expr, _ => $mismatch:expr) => {
        $crate::tree_types!(@pair ($a, $b, $x, $y, $body, $mismatch))
    };
}

/// `$body` with `$x` bound to the tree inside `$tree` (an `&AnyTree`) when
/// it is an `f64` tree (of any volume type), else `$other`: the queries with
/// convex shapes and the world, which are `f64` only.
#[macro_export]
macro_rules! with_f64_tree {
    ($tree:expr, $x:ident => $body:expr, _ => $other:expr) => {{
        use ::clash::bv::*;
        use $crate::kind::AnyTree as K;
        match $tree {
            K::F64Aabb(t) => {
                let $x: &::clash::bvh::Bvh<f64, Aabb<f64>> = t;
                $body
            }
            K::F64Obb(t) => {
                let $x: &::clash::bvh::Bvh<f64, Obb<f64>> = t;
                $body
            }
            K::F64Rss(t) => {
                let $x: &::clash::bvh::Bvh<f64, Rss<f64>> = t;
                $body
            }
            K::F64Sphere(t) => {
                let $x: &::clash::bvh::Bvh<f64, Sphere<f64>> = t;
                $body
            }
            K::F64Capsule(t) => {
                let $x: &::clash::bvh::Bvh<f64, Capsule<f64>> = t;
                $body
            }
            K::F64Kdop14(t) => {
                let $x: &::clash::bvh::Bvh<f64, Kdop14<f64>> = t;
                $body
            }
            K::F64Kdop18(t) => {
                let $x: &::clash::bvh::Bvh<f64, Kdop18<f64>> = t;
                $body
            }
            K::F64Kdop26(t) => {
                let $x: &::clash::bvh::Bvh<f64, Kdop26<f64>> = t;
                $body
            }
            _ => $other,
        }
    }};
}

/// A scalar type and a volume type, named as Python names them:
/// `bv="obb"`, `precision="f64"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeKind {
    /// `"f32"` or `"f64"` (`Scalar::NAME`).
    pub precision: &'static str,
    /// `"aabb"`, `"obb"`, ... (`FlatVolume::NAME`).
    pub bv: &'static str,
}

impl TreeKind {
    /// The kind of `Bvh<T, B>`.
    pub const fn of<T: Scalar, B: FlatVolume<T>>() -> Self {
        Self {
            precision: T::NAME,
            bv: B::NAME,
        }
    }

    /// The kind named by `bv` and `precision`.
    ///
    /// # Errors
    /// [`Error::Value`] naming the accepted values when either is unknown.
    pub fn parse(bv: &str, precision: &str) -> Result<Self> {
        // Each name once, in the order of the list.
        let known = |pick: fn(&TreeKind) -> &'static str| {
            let mut names: Vec<&str> = Vec::new();
            for n in KINDS.iter().map(pick) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            names
        };
        let bvs = known(|k| k.bv);
        let bv = *bvs.iter().find(|&&n| n == bv).ok_or_else(|| {
            Error::Value(format!(
                "unknown bounding volume {bv:?} (expected one of {})",
                bvs.join(", ")
            ))
        })?;
        let mut precisions = known(|k| k.precision);
        precisions.sort_unstable();
        let precision = *precisions
            .iter()
            .find(|&&n| n == precision)
            .ok_or_else(|| {
                Error::Value(format!(
                    "unknown precision {precision:?} (expected one of {})",
                    precisions.join(", ")
                ))
            })?;
        Ok(Self { precision, bv })
    }

    /// The kind written in a tree file's header, with the command line's
    /// messages for unknown names.
    ///
    /// # Errors
    /// [`Error::Value`] when the header names an unknown scalar or volume type.
    pub fn from_header(scalar: &str, volume: &str) -> Result<Self> {
        if !KINDS.iter().any(|k| k.precision == scalar) {
            return Err(Error::Value(format!(
                "unknown scalar type {scalar:?} in the tree header"
            )));
        }
        match KINDS
            .iter()
            .find(|k| k.precision == scalar && k.bv == volume)
        {
            Some(&k) => Ok(k),
            None => Err(Error::Value(format!(
                "unknown volume type {volume:?} in the tree header"
            ))),
        }
    }

    /// `obb/f64` and the like, as the command line names tree types.
    pub fn name(&self) -> String {
        format!("{}/{}", self.bv, self.precision)
    }
}

impl AnyTree {
    /// The kind of the tree inside.
    pub fn kind(&self) -> TreeKind {
        fn of<T: Scalar, B: FlatVolume<T>>(_: &Bvh<T, B>) -> TreeKind {
            TreeKind::of::<T, B>()
        }
        with_tree!(self, t => of(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_volume_and_precision_parses_to_its_own_kind() {
        let bvs = [
            "aabb", "obb", "rss", "sphere", "capsule", "kdop14", "kdop18", "kdop26",
        ];
        let mut seen = Vec::new();
        for precision in ["f64", "f32"] {
            for bv in bvs {
                let k = TreeKind::parse(bv, precision).unwrap();
                assert_eq!((k.bv, k.precision), (bv, precision));
                assert_eq!(k.name(), format!("{bv}/{precision}"));
                assert_eq!(TreeKind::from_header(precision, bv).unwrap(), k);
                seen.push(k);
            }
        }
        assert_eq!(seen, KINDS);
    }

    #[test]
    fn unknown_names_list_the_accepted_ones() {
        let e = TreeKind::parse("kdop", "f64").unwrap_err();
        assert_eq!(
            e,
            Error::Value(
                "unknown bounding volume \"kdop\" (expected one of aabb, obb, rss, sphere, \
                 capsule, kdop14, kdop18, kdop26)"
                    .into()
            )
        );
        let e = TreeKind::parse("obb", "f16").unwrap_err();
        assert_eq!(
            e,
            Error::Value("unknown precision \"f16\" (expected one of f32, f64)".into())
        );
        assert_eq!(
            TreeKind::from_header("f16", "obb").unwrap_err(),
            Error::Value("unknown scalar type \"f16\" in the tree header".into())
        );
        assert_eq!(
            TreeKind::from_header("f64", "cone").unwrap_err(),
            Error::Value("unknown volume type \"cone\" in the tree header".into())
        );
    }

    #[test]
    fn dispatch_reaches_the_generic_code_of_each_kind() {
        fn name<T: Scalar, B: FlatVolume<T>>(x: u8) -> String {
            format!("{x} {}/{}", B::NAME, T::NAME)
        }
        fn dispatch(kind: TreeKind) -> String {
            with_kind!(kind, |T, B| name::<T, B>(7))
        }
        for &k in KINDS {
            assert_eq!(dispatch(k), format!("7 {}", k.name()));
        }
    }
}
