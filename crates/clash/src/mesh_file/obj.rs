//! Wavefront OBJ: `v x y z [w]` and `f a b c ...` statements, where a corner
//! is `v`, `v/vt`, `v//vn` or `v/vt/vn` and negative indices count back from
//! the last vertex read. Every other statement (normals, texture
//! coordinates, groups, materials, lines, points) is skipped.

use super::{Coordinates, ParseError, RawMesh};
use clash_math::Scalar;

pub(crate) fn parse<T: Scalar>(
    bytes: &[u8],
    coordinates: Coordinates<T>,
) -> Result<RawMesh, ParseError> {
    let text = super::utf8_text(bytes)?;
    let mut mesh = RawMesh::default();
    // Face corners are checked against the vertex count at the end (a file
    // may refer forward), so remember the line of each face's largest index.
    let mut max_ref: Option<(u64, usize)> = None;
    let mut corners: Vec<u32> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        let line = line.split('#').next().unwrap_or("");
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("v") => {
                let mut xyz = [0.0f64; 3];
                for (i, c) in xyz.iter_mut().enumerate() {
                    let t = tokens.next().ok_or_else(|| {
                        ParseError::line(n, format!("vertex has {i} coordinates, expected 3"))
                    })?;
                    let v = t
                        .parse()
                        .map_err(|_| ParseError::line(n, format!("bad number {t:?}")))?;
                    *c = coordinates
                        .check(v, t)
                        .map_err(|m| ParseError::line(n, m))?;
                }
                mesh.vertices.push(xyz);
            }
            Some("f") => {
                corners.clear();
                for t in tokens {
                    let index = t.split('/').next().unwrap_or("");
                    let i: i64 = index
                        .parse()
                        .map_err(|_| ParseError::line(n, format!("bad vertex index {t:?}")))?;
                    let count = mesh.vertices.len() as i64;
                    let absolute = match i {
                        0 => return Err(ParseError::line(n, "vertex index 0 (OBJ counts from 1)")),
                        i if i > 0 => i - 1,
                        i => count + i,
                    };
                    if absolute < 0 || absolute >= u32::MAX as i64 {
                        return Err(ParseError::line(
                            n,
                            format!("vertex index {i} is out of range ({count} vertices so far)"),
                        ));
                    }
                    if max_ref.is_none_or(|(m, _)| absolute as u64 > m) {
                        max_ref = Some((absolute as u64, n));
                    }
                    corners.push(absolute as u32);
                }
                if corners.len() < 3 {
                    return Err(ParseError::line(
                        n,
                        format!("face has {} corners, expected at least 3", corners.len()),
                    ));
                }
                mesh.push_polygon(&corners);
            }
            _ => {}
        }
    }
    if let Some((m, line)) = max_ref
        && m >= mesh.vertices.len() as u64
    {
        return Err(ParseError::line(
            line,
            format!(
                "vertex index {} is out of range (the file has {} vertices)",
                m + 1,
                mesh.vertices.len()
            ),
        ));
    }
    Ok(mesh)
}
