//! PLY (ASCII, binary little and big endian) through the `ply-rs` crate:
//! the `x`, `y`, `z` properties of the `vertex` element and the
//! `vertex_indices` (or `vertex_index`) list of the `face` element.

use super::{Location, ParseError, RawMesh};
use ply_rs::parser::Parser;
use ply_rs::ply::{DefaultElement, Property};

pub(crate) fn parse(bytes: &[u8]) -> Result<RawMesh, ParseError> {
    let mut reader = std::io::BufReader::new(bytes);
    let ply = Parser::<DefaultElement>::new()
        .read_ply(&mut reader)
        .map_err(|e| from_ply_rs(&e.to_string()))?;
    let error = |message: String| ParseError {
        location: Location::File,
        message,
    };
    let vertices = ply
        .payload
        .get("vertex")
        .ok_or_else(|| error("no `vertex` element".into()))?;
    let faces = ply
        .payload
        .get("face")
        .ok_or_else(|| error("no `face` element".into()))?;
    let mut mesh = RawMesh {
        vertices: Vec::with_capacity(vertices.len()),
        triangles: Vec::with_capacity(faces.len()),
    };
    for (k, v) in vertices.iter().enumerate() {
        let mut xyz = [0.0f64; 3];
        for (c, name) in xyz.iter_mut().zip(["x", "y", "z"]) {
            *c = v.get(name).and_then(scalar).ok_or_else(|| {
                error(format!(
                    "vertex {k}: property `{name}` is missing or not a number"
                ))
            })?;
        }
        mesh.vertices.push(xyz);
    }
    let mut corners = Vec::new();
    for (k, f) in faces.iter().enumerate() {
        let list = f
            .get("vertex_indices")
            .or_else(|| f.get("vertex_index"))
            .ok_or_else(|| error(format!("face {k}: no `vertex_indices` list")))?;
        corners.clear();
        list_indices(list, &mut corners).ok_or_else(|| {
            error(format!(
                "face {k}: `vertex_indices` is not a list of integers"
            ))
        })?;
        if corners.len() < 3 {
            return Err(error(format!(
                "face {k} has {} corners, expected at least 3",
                corners.len()
            )));
        }
        let mut polygon = Vec::with_capacity(corners.len());
        for &i in &corners {
            match u32::try_from(i) {
                Ok(i) if (i as usize) < mesh.vertices.len() => polygon.push(i),
                _ => {
                    return Err(error(format!(
                        "face {k} refers to vertex {i}, but the file has {} vertices",
                        mesh.vertices.len()
                    )));
                }
            }
        }
        mesh.push_polygon(&polygon);
    }
    Ok(mesh)
}

/// ply-rs reports text errors as `Line N: message` over several lines; keep
/// the line number and fold the message onto one line.
fn from_ply_rs(text: &str) -> ParseError {
    let one_line = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    if let Some(rest) = one_line.strip_prefix("Line ")
        && let Some((n, message)) = rest.split_once(':')
        && let Ok(n) = n.trim().parse::<usize>()
    {
        // ply-rs counts lines from 0.
        return ParseError::line(n + 1, message.trim());
    }
    ParseError {
        location: Location::File,
        message: one_line,
    }
}

fn scalar(p: &Property) -> Option<f64> {
    Some(match *p {
        Property::Char(x) => x as f64,
        Property::UChar(x) => x as f64,
        Property::Short(x) => x as f64,
        Property::UShort(x) => x as f64,
        Property::Int(x) => x as f64,
        Property::UInt(x) => x as f64,
        Property::Float(x) => x as f64,
        Property::Double(x) => x,
        _ => return None,
    })
}

fn list_indices(p: &Property, out: &mut Vec<i64>) -> Option<()> {
    match p {
        Property::ListChar(v) => out.extend(v.iter().map(|&x| x as i64)),
        Property::ListUChar(v) => out.extend(v.iter().map(|&x| x as i64)),
        Property::ListShort(v) => out.extend(v.iter().map(|&x| x as i64)),
        Property::ListUShort(v) => out.extend(v.iter().map(|&x| x as i64)),
        Property::ListInt(v) => out.extend(v.iter().map(|&x| x as i64)),
        Property::ListUInt(v) => out.extend(v.iter().map(|&x| x as i64)),
        _ => return None,
    }
    Some(())
}
