//! [`ConvexHull`]: a convex polytope with vertex adjacency, so that support
//! points of large hulls are found by hill climbing (RTCD §9.5.4).

mod build;
mod polygons;

use crate::error::{ShapeError, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_bv::{Obb, Sphere};
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// Hulls with at most this many vertices find support points by scanning
/// every vertex, which beats hill climbing on so few.
pub(crate) const LINEAR_SCAN_MAX: usize = 24;

/// The convex hull of a point set, as a shape.
///
/// Built by clash-math's Quickhull with exact predicates, so duplicated,
/// coplanar and nearly coplanar points are handled. Fewer than four
/// non-coplanar points make a valid flat hull: a convex polygon, a segment or
/// a point. Each vertex knows its neighbours along the hull's edges; hulls of
/// more than a couple dozen vertices find support points by steepest-ascent
/// hill climbing from a hint (RTCD §9.5.4), and the queries carry that hint
/// from one support call to the next and, through their warm start, from one
/// query to the next (RTCD §9.5.5).
///
/// Coplanar triangles are merged into polygons ([`Self::polygon`]) for
/// contact manifolds.
///
/// ```
/// use clash_convex::{ConvexHull, SupportMap};
/// use clash_math::{Point3, Vector3};
/// let pts = [
///     Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
///     Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0),
///     Point3::new(0.1, 0.1, 0.1), // inside: not a vertex
/// ];
/// let hull = ConvexHull::new(&pts)?;
/// assert_eq!(hull.vertices().len(), 4);
/// assert_eq!(hull.support_point(&Vector3::new(1.0, 0.2, 0.3)), Point3::new(1.0, 0.0, 0.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
///
/// Serialized as its vertices and margin; deserializing rebuilds (and so
/// validates) the hull.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "HullParams<T>",
    into = "HullParams<T>"
)]
pub struct ConvexHull<T: Scalar> {
    vertices: Vec<Point3<T>>,
    /// Triangles, counter-clockwise seen from outside; empty for flat hulls.
    triangles: Vec<[u32; 3]>,
    /// `neighbours[neighbour_start[i]..neighbour_start[i + 1]]` are the
    /// vertices joined to vertex `i` by an edge.
    neighbour_start: Vec<u32>,
    neighbours: Vec<u32>,
    /// `polygon_vertices[polygon_start[f]..polygon_start[f + 1]]`:
    /// coplanar triangles merged, counter-clockwise seen from outside.
    polygon_start: Vec<u32>,
    polygon_vertices: Vec<u32>,
    polygon_normals: Vec<Vector3<T>>,
    center: Point3<T>,
    extent: T,
    local_obb: Obb<T>,
    local_sphere: Sphere<T>,
    margin: T,
}

/// The serialized form of a [`ConvexHull`].
#[derive(Clone, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct HullParams<T: Scalar> {
    points: Vec<Point3<T>>,
    #[serde(default)]
    margin: T,
}

impl<T: Scalar> TryFrom<HullParams<T>> for ConvexHull<T> {
    type Error = ShapeError;
    fn try_from(p: HullParams<T>) -> Result<Self, ShapeError> {
        Self::new(&p.points)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<ConvexHull<T>> for HullParams<T> {
    fn from(h: ConvexHull<T>) -> Self {
        Self {
            points: h.vertices,
            margin: h.margin,
        }
    }
}

impl<T: Scalar> ConvexHull<T> {
    /// The convex hull of `points` (Quickhull with exact predicates).
    ///
    /// # Errors
    /// [`ShapeError::EmptyHull`] for no points, [`ShapeError::NonFinitePoint`]
    /// for a NaN or infinite coordinate.
    pub fn new(points: &[Point3<T>]) -> Result<Self, ShapeError> {
        build::from_points(points)
    }

    /// The convex hull of the vertices that the triangles of a triangle soup
    /// use (a mesh's convex hull; unused vertices are ignored).
    ///
    /// ```
    /// use clash_convex::ConvexHull;
    /// use clash_math::Point3;
    /// let v = [Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
    ///          Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0), Point3::new(9.0, 9.0, 9.0)];
    /// let hull = ConvexHull::from_triangles(&v, &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])?;
    /// assert_eq!(hull.vertices().len(), 4); // vertex 4 is used by no triangle
    /// # Ok::<(), clash_convex::ShapeError>(())
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::EmptyHull`] for no triangles,
    /// [`ShapeError::IndexOutOfRange`] for an index past the vertices,
    /// [`ShapeError::NonFinitePoint`] for a NaN or infinite used vertex.
    pub fn from_triangles(
        vertices: &[Point3<T>],
        triangles: &[[u32; 3]],
    ) -> Result<Self, ShapeError> {
        build::from_triangles(vertices, triangles)
    }

    /// The same hull grown by `margin` (rounded edges and corners).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(mut self, margin: T) -> Result<Self, ShapeError> {
        self.margin = check_size(margin, "margin")?;
        Ok(self)
    }

    /// The hull's vertices: the corners of a solid hull or of a flat
    /// polygon (in order around it), the two ends of a segment, or one point.
    pub fn vertices(&self) -> &[Point3<T>] {
        &self.vertices
    }

    /// The boundary triangles, counter-clockwise seen from outside (empty
    /// when the hull is flat).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// `true` when the hull has no volume (a polygon, a segment or a point).
    pub fn is_flat(&self) -> bool {
        self.triangles.is_empty()
    }

    /// The vertices joined to vertex `i` by an edge of the hull.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        let s = self.neighbour_start[i] as usize;
        let e = self.neighbour_start[i + 1] as usize;
        &self.neighbours[s..e]
    }

    /// Number of polygonal faces (coplanar triangles merged; a flat polygon
    /// counts twice, once per side; segments and points have none).
    pub fn polygon_count(&self) -> usize {
        self.polygon_normals.len()
    }

    /// Polygon `f`: its vertex indices counter-clockwise seen from outside,
    /// and its unit outward normal.
    pub fn polygon(&self, f: usize) -> (&[u32], Vector3<T>) {
        let s = self.polygon_start[f] as usize;
        let e = self.polygon_start[f + 1] as usize;
        (&self.polygon_vertices[s..e], self.polygon_normals[f])
    }

    /// A tight box around the core in the local frame (fitted once).
    pub fn local_obb(&self) -> &Obb<T> {
        &self.local_obb
    }

    /// The smallest ball around the core in the local frame (Welzl).
    pub fn local_sphere(&self) -> &Sphere<T> {
        &self.local_sphere
    }

    /// The vertex farthest along `d` by steepest ascent from `start`:
    /// on a convex polytope a vertex with no better neighbour is a best one.
    #[inline]
    fn hill_climb(&self, d: &Vector3<T>, start: u32) -> u32 {
        let mut cur = start as usize;
        let mut best = self.vertices[cur].coords.dot(d);
        loop {
            let mut next = cur;
            for &nb in self.neighbours(cur) {
                let s = self.vertices[nb as usize].coords.dot(d);
                if s > best {
                    best = s;
                    next = nb as usize;
                }
            }
            if next == cur {
                return cur as u32;
            }
            cur = next;
        }
    }

    /// The vertex farthest along `d` by scanning every vertex.
    #[inline]
    fn scan(&self, d: &Vector3<T>) -> u32 {
        let mut best = 0;
        let mut best_s = T::NEG_INFINITY;
        for (i, v) in self.vertices.iter().enumerate() {
            let s = v.coords.dot(d);
            if s > best_s {
                best_s = s;
                best = i;
            }
        }
        best as u32
    }
}

impl<T: Scalar> SupportMap<T> for ConvexHull<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let mut hint = 0;
        self.support_point_hinted(d, &mut hint)
    }
    #[inline]
    fn support_point_hinted(&self, d: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        let i = if self.vertices.len() <= LINEAR_SCAN_MAX {
            self.scan(d)
        } else {
            let start = if (*hint as usize) < self.vertices.len() {
                *hint
            } else {
                0
            };
            self.hill_climb(d, start)
        };
        *hint = i;
        self.vertices[i as usize]
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        self.center
    }
    #[inline]
    fn extent(&self) -> T {
        self.extent
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::ConvexHull(self))
    }
}
