//! A `CollisionWorld<f64, B>` for AABB, OBB or RSS trees (the trees for
//! rays, collision and distance), and the trees it accepts: those of its
//! own volume type in `f64`. Each volume type instantiates the world's
//! queries once more, so the package offers these three.

use crate::error::{Error, Result};
use crate::kind::{AnyTree, TreeKind};
use clash::bv::{Aabb, Obb, Rss};
use clash::math::Isometry3;
use clash::{CollisionWorld, Geometry, ObjectHandle, ObjectSettings, WorldError};
use std::sync::Arc;

/// The list of world types, `[Variant, tree variant, volume]`, handed to
/// `$rule`.
macro_rules! world_types {
    ($rule:ident ! ($($args:tt)*)) => {
        $rule! { ($($args)*)
            [Aabb, F64Aabb, Aabb<f64>]
            [Obb, F64Obb, Obb<f64>]
            [Rss, F64Rss, Rss<f64>]
        }
    };
}

macro_rules! define_any_world {
    (() $([$variant:ident, $tree:ident, $b:ty])*) => {
        /// A world whose mesh trees are AABB, OBB or RSS trees.
        pub enum AnyWorld {
            $(
                #[doc = concat!("A `CollisionWorld<f64, ", stringify!($b), ">`.")]
                $variant(CollisionWorld<f64, $b>),
            )*
        }

        impl AnyWorld {
            /// An empty world for trees of `kind` (an `f64` kind).
            ///
            /// # Errors
            /// [`Error::Value`] for an `f32` kind.
            pub fn new(kind: TreeKind) -> Result<Self> {
                $(
                    if kind == TreeKind::of::<f64, $b>() {
                        return CollisionWorld::new(0.0)
                            .map(Self::$variant)
                            .map_err(world_error);
                    }
                )*
                Err(Error::Value(format!(
                    "a World holds f64 trees only, of type aabb, obb or rss, not {} trees",
                    kind.name()
                )))
            }

            /// The kind of tree the world takes.
            pub fn kind(&self) -> TreeKind {
                match self {
                    $(Self::$variant(_) => TreeKind::of::<f64, $b>(),)*
                }
            }

            /// Inserts a tree (of the world's kind) or a shape.
            ///
            /// # Errors
            /// [`Error::Value`] for a tree of another kind or a world error.
            pub fn insert(
                &mut self,
                body: &Body,
                pose: Isometry3<f64>,
                settings: ObjectSettings,
            ) -> Result<ObjectHandle> {
                let kind = self.kind();
                match (self, body) {
                    $(
                        (Self::$variant(w), Body::Shape(s)) => w
                            .insert_with(Geometry::Convex((**s).clone()), pose, settings)
                            .map_err(world_error),
                        (Self::$variant(w), Body::Tree(t)) => match &**t {
                            AnyTree::$tree(t) => w
                                .insert_with(Geometry::Mesh(Arc::clone(t)), pose, settings)
                                .map_err(world_error),
                            other => Err(Error::Value(format!(
                                "the world holds {} trees, but this tree is of type {}; build \
                                 it with bv=\"{}\", precision=\"f64\", or make the world with \
                                 World(bv=\"{}\")",
                                kind.name(),
                                other.kind().name(),
                                kind.bv,
                                other.kind().bv
                            ))),
                        },
                    )*
                }
            }
        }

    };
}

world_types!(define_any_world!());

/// `$body` with `$x` bound to the `CollisionWorld` inside `$world` (an
/// `AnyWorld`, by reference or by mutable reference).
macro_rules! with_world {
    ($world:expr, $x:ident => $body:expr) => {
        match $world {
            $crate::world::kinds::AnyWorld::Aabb($x) => $body,
            $crate::world::kinds::AnyWorld::Obb($x) => $body,
            $crate::world::kinds::AnyWorld::Rss($x) => $body,
        }
    };
}

pub(crate) use with_world;

use crate::convex::Body;

/// A world error as a `ValueError` with the Rust message.
pub fn world_error(e: WorldError) -> Error {
    Error::Value(e.to_string())
}
