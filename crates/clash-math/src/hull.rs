//! 3D convex hull (placeholder, being written).
use crate::{MathError, Scalar, Triangle};
use nalgebra::Point3;

/// The convex hull of a point set.
#[derive(Debug, Clone)]
pub struct ConvexHull<T: Scalar> {
    vertices: Vec<Point3<T>>,
    faces: Vec<[u32; 3]>,
}

impl<T: Scalar> ConvexHull<T> {
    /// Computes the hull.
    pub fn new(points: &[Point3<T>]) -> Result<Self, MathError> {
        Ok(Self { vertices: points.to_vec(), faces: Vec::new() })
    }
    /// Hull vertices.
    pub fn vertices(&self) -> &[Point3<T>] {
        &self.vertices
    }
    /// Hull faces as triangles.
    pub fn triangles(&self) -> Vec<Triangle<T>> {
        self.faces.iter().map(|f| Triangle::new(self.vertices[f[0] as usize], self.vertices[f[1] as usize], self.vertices[f[2] as usize])).collect()
    }
}
