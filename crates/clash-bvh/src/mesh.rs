//! [`TriMesh`]: a validated indexed triangle mesh, and vertex welding (RTCD §12.1).

use crate::MeshError;
use clash_math::{Point3, Scalar, Triangle, point_is_finite};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// An indexed triangle mesh: shared vertices and triangles as index triples.
///
/// Construction validates the data (see [`TriMesh::new`]); afterwards every
/// index is known to be in range and every coordinate finite. Degenerate
/// triangles (repeated indices, collinear corners) are kept: they are valid
/// input and take part in every query as the segment or point they are.
/// Triangle `i` is always the `i`-th index triple given at construction,
/// whatever a tree built over the mesh does internally.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct TriMesh<T: Scalar> {
    vertices: Vec<Point3<T>>,
    indices: Vec<[u32; 3]>,
}

impl<T: Scalar> TriMesh<T> {
    /// A mesh from vertices and triangles (each triangle three vertex indices).
    ///
    /// # Errors
    /// - [`MeshError::Empty`] when there are no triangles;
    /// - [`MeshError::NonFiniteVertex`] for a NaN or infinite coordinate;
    /// - [`MeshError::CoordinateOutOfRange`] for a coordinate beyond
    ///   [`Scalar::MAX_COORDINATE`] in magnitude;
    /// - [`MeshError::TooSmall`] when every coordinate is below
    ///   `1 / MAX_COORDINATE` in magnitude (and not all are 0);
    /// - [`MeshError::IndexOutOfRange`] for an index `>= vertices.len()`;
    /// - [`MeshError::TooLarge`] when the vertex or triangle count exceeds `u32`.
    ///
    /// ```
    /// use clash_bvh::TriMesh;
    /// use clash_math::Point3;
    /// let mesh = TriMesh::new(
    ///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )
    /// .unwrap();
    /// assert_eq!(mesh.num_triangles(), 1);
    /// assert!(TriMesh::<f64>::new(vec![], vec![]).is_err());
    /// ```
    pub fn new(vertices: Vec<Point3<T>>, indices: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if indices.is_empty() {
            return Err(MeshError::Empty);
        }
        if vertices.len() > u32::MAX as usize || indices.len() >= u32::MAX as usize {
            return Err(MeshError::TooLarge);
        }
        if let Some(vertex) = vertices.iter().position(|p| !point_is_finite(p)) {
            return Err(MeshError::NonFiniteVertex { vertex });
        }
        check_range(&vertices)?;
        let n = vertices.len() as u32;
        for (triangle, tri) in indices.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i >= n) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    num_vertices: vertices.len(),
                });
            }
        }
        Ok(Self { vertices, indices })
    }

    /// A mesh from a triangle soup: every triangle gets three vertices of its own
    /// (use [`TriMesh::welded`] to share them).
    ///
    /// # Errors
    /// As [`TriMesh::new`].
    pub fn from_triangles(triangles: &[Triangle<T>]) -> Result<Self, MeshError> {
        let vertices = triangles.iter().flat_map(|t| t.vertices()).collect();
        let indices = (0..triangles.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        Self::new(vertices, indices)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point3<T>] {
        &self.vertices
    }

    /// The triangles as vertex index triples.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// Number of triangles.
    pub fn num_triangles(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `i` (panics if `i >= num_triangles()`, like slice indexing).
    #[inline]
    pub fn triangle(&self, i: usize) -> Triangle<T> {
        let [a, b, c] = self.indices[i];
        Triangle::new(
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        )
    }

    /// All triangles in order.
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = Triangle<T>> + '_ {
        (0..self.indices.len()).map(|i| self.triangle(i))
    }

    /// Replaces the vertex positions, keeping the topology (for refitting a
    /// deformed mesh).
    ///
    /// # Errors
    /// [`MeshError::VertexCountMismatch`], [`MeshError::NonFiniteVertex`] or
    /// [`MeshError::CoordinateOutOfRange`];
    /// on error the mesh is unchanged.
    pub fn set_vertices(&mut self, vertices: &[Point3<T>]) -> Result<(), MeshError> {
        if vertices.len() != self.vertices.len() {
            return Err(MeshError::VertexCountMismatch {
                expected: self.vertices.len(),
                found: vertices.len(),
            });
        }
        if let Some(vertex) = vertices.iter().position(|p| !point_is_finite(p)) {
            return Err(MeshError::NonFiniteVertex { vertex });
        }
        check_range(vertices)?;
        self.vertices.copy_from_slice(vertices);
        Ok(())
    }

    /// Vertex welding (RTCD §12.1): vertices closer than `tolerance` in every
    /// coordinate (`tolerance = 0` welds only bit-identical positions) are
    /// merged into the first of them, and unused vertices are dropped.
    /// Triangles keep their order and count, so triangle `i` of the result is
    /// triangle `i` of `self`; triangles that become degenerate are kept.
    ///
    /// Positions are hashed into a grid of cell size `2 * tolerance` and each
    /// vertex is compared with the vertices already kept in its neighbouring
    /// cells, so the result is deterministic and independent of hashing order.
    pub fn welded(&self, tolerance: T) -> Self {
        let tol = if tolerance.finite() && tolerance > T::ZERO {
            tolerance
        } else {
            T::ZERO
        };
        let mut remap = vec![u32::MAX; self.vertices.len()];
        let mut kept: Vec<Point3<T>> = Vec::new();
        if tol == T::ZERO {
            let mut seen: HashMap<[u64; 3], u32> = HashMap::new();
            for (i, p) in self.vertices.iter().enumerate() {
                // +0.0 and -0.0 are the same position.
                let key = [p.x, p.y, p.z].map(|c| {
                    if c == T::ZERO {
                        0
                    } else {
                        c.to_f64().to_bits()
                    }
                });
                remap[i] = *seen.entry(key).or_insert_with(|| {
                    kept.push(*p);
                    (kept.len() - 1) as u32
                });
            }
        } else {
            let cell = tol * T::TWO;
            let key = |p: &Point3<T>| [p.x, p.y, p.z].map(|c| (c / cell).floor().to_f64() as i64);
            let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
            for (i, p) in self.vertices.iter().enumerate() {
                let k = key(p);
                let mut found: Option<u32> = None;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        for dz in -1..=1 {
                            let Some(list) = grid.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) else {
                                continue;
                            };
                            for &j in list {
                                if (kept[j as usize] - p).abs().max() <= tol
                                    && found.is_none_or(|f| j < f)
                                {
                                    found = Some(j);
                                }
                            }
                        }
                    }
                }
                remap[i] = match found {
                    Some(j) => j,
                    None => {
                        kept.push(*p);
                        let j = (kept.len() - 1) as u32;
                        grid.entry(k).or_default().push(j);
                        j
                    }
                };
            }
        }
        // Drop vertices no triangle uses, keeping first-use order stable.
        let mut used = vec![u32::MAX; kept.len()];
        let mut vertices = Vec::with_capacity(kept.len());
        let indices = self
            .indices
            .iter()
            .map(|tri| {
                tri.map(|v| {
                    let w = remap[v as usize] as usize;
                    if used[w] == u32::MAX {
                        used[w] = vertices.len() as u32;
                        vertices.push(kept[w]);
                    }
                    used[w]
                })
            })
            .collect();
        Self { vertices, indices }
    }

    /// The convex hull of the vertices the triangles use, as a convex shape
    /// of clash-convex (robotics users model nearly convex links this way).
    ///
    /// ```
    /// use clash_bvh::TriMesh;
    /// use clash_math::Point3;
    /// let v = vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
    ///              Point3::new(0.0, 1.0, 0.0), Point3::new(0.2, 0.2, 0.0)];
    /// let mesh = TriMesh::new(v, vec![[0, 1, 3], [1, 2, 3], [2, 0, 3]])?;
    /// // A flat hull: the inner vertex is not one of its corners.
    /// assert_eq!(mesh.convex_hull().vertices().len(), 3);
    /// # Ok::<(), clash_bvh::MeshError>(())
    /// ```
    pub fn convex_hull(&self) -> clash_convex::ConvexHull<T> {
        clash_convex::ConvexHull::from_triangles(&self.vertices, &self.indices)
            .expect("a valid mesh has triangles, indices in range and finite vertices")
    }

    /// `true` when every edge is shared by exactly two triangles with opposite
    /// orientation (by vertex index): the mesh bounds a volume. Weld first if
    /// the mesh is a soup.
    pub fn is_closed(&self) -> bool {
        // (uses, orientation balance) per undirected edge
        let mut edges: HashMap<(u32, u32), (u32, i32)> = HashMap::new();
        for &[a, b, c] in &self.indices {
            if a == b || b == c || c == a {
                continue;
            }
            for (u, v) in [(a, b), (b, c), (c, a)] {
                let (key, s) = if u < v { ((u, v), 1) } else { ((v, u), -1) };
                let e = edges.entry(key).or_insert((0, 0));
                e.0 += 1;
                e.1 += s;
            }
        }
        !edges.is_empty() && edges.values().all(|&e| e == (2, 0))
    }
}

/// [`MeshError::CoordinateOutOfRange`] for the first vertex with a
/// coordinate beyond [`Scalar::MAX_COORDINATE`], and [`MeshError::TooSmall`]
/// when every coordinate is below `1 / MAX_COORDINATE` but not all are 0.
fn check_range<T: Scalar>(vertices: &[Point3<T>]) -> Result<(), MeshError> {
    let mut magnitude = T::ZERO;
    for (vertex, p) in vertices.iter().enumerate() {
        clash_math::check_point(p)
            .map_err(|source| MeshError::CoordinateOutOfRange { vertex, source })?;
        magnitude = magnitude.max_of(p.coords.amax());
    }
    let min = T::ONE / T::MAX_COORDINATE;
    if magnitude > T::ZERO && magnitude < min {
        return Err(MeshError::TooSmall {
            magnitude: magnitude.to_f64(),
            min: min.to_f64(),
            precision: T::NAME,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tet() -> TriMesh<f64> {
        TriMesh::new(
            vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
                Point3::new(0.0, 0.0, 1.0),
            ],
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        )
        .unwrap()
    }

    #[test]
    fn validation_errors() {
        let v = vec![Point3::new(0.0_f32, 0.0, 0.0); 3];
        assert_eq!(TriMesh::new(v.clone(), vec![]), Err(MeshError::Empty));
        assert_eq!(
            TriMesh::new(v.clone(), vec![[0, 1, 3]]),
            Err(MeshError::IndexOutOfRange {
                triangle: 0,
                index: 3,
                num_vertices: 3
            })
        );
        let mut bad = v.clone();
        bad[1].y = f32::INFINITY;
        assert_eq!(
            TriMesh::new(bad, vec![[0, 1, 2]]),
            Err(MeshError::NonFiniteVertex { vertex: 1 })
        );
        // degenerate triangles are fine
        assert!(TriMesh::new(v, vec![[0, 0, 0], [0, 1, 2]]).is_ok());
    }

    #[test]
    fn welding_keeps_triangle_order_and_closes_a_soup() {
        let m = tet();
        let soup = TriMesh::from_triangles(&m.triangles().collect::<Vec<_>>()).unwrap();
        assert_eq!(soup.vertices().len(), 12);
        assert!(!soup.is_closed());
        let w = soup.welded(0.0);
        assert_eq!(w.vertices().len(), 4);
        assert!(w.is_closed());
        for i in 0..4 {
            assert_eq!(w.triangle(i), m.triangle(i));
        }
        // tolerance welding merges nearby copies
        let mut tris: Vec<_> = m.triangles().collect();
        tris[3].a.x += 1e-9;
        let w = TriMesh::from_triangles(&tris).unwrap().welded(1e-6);
        assert_eq!(w.vertices().len(), 4);
        assert!(w.is_closed());
        assert!(tet().is_closed());
    }

    #[test]
    fn set_vertices_validates() {
        let mut m = tet();
        assert!(m.set_vertices(&[Point3::origin(); 3]).is_err());
        let mut v = m.vertices().to_vec();
        v[0].x = f64::NAN;
        assert_eq!(
            m.set_vertices(&v),
            Err(MeshError::NonFiniteVertex { vertex: 0 })
        );
        assert_eq!(m, tet());
    }
}
