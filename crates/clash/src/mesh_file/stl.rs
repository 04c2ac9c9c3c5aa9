//! STL, binary or ASCII. A binary file is an 80-byte header, a triangle
//! count `n` and `n` records of 50 bytes, so its size is exactly
//! `84 + 50 n`; that is how binary is told from ASCII (many binary exporters
//! start the header with `solid`, the keyword of ASCII files). A file that
//! starts with `solid`, fails to read as ASCII and holds NUL bytes (which no
//! text holds, and binary records nearly always do) is reported as a binary
//! file whose triangle count does not match its size.

use super::{Coordinates, Location, ParseError, RawMesh};
use clash_math::Scalar;

pub(crate) fn parse<T: Scalar>(
    bytes: &[u8],
    coordinates: Coordinates<T>,
) -> Result<RawMesh, ParseError> {
    let announced = (bytes.len() >= 84)
        .then(|| u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64);
    if let Some(n) = announced
        && bytes.len() as u64 == 84 + 50 * n
    {
        return parse_binary(bytes, coordinates);
    }
    // What the size says when the file is read as binary.
    let size_mismatch = |n: u64| {
        format!(
            "the header announces {n} triangles, {} bytes, but the file has {} bytes",
            84 + 50 * n,
            bytes.len()
        )
    };
    let starts_solid = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .is_some_and(|i| bytes[i..].starts_with(b"solid"));
    if starts_solid {
        return parse_ascii(bytes, coordinates).map_err(|ascii_error| match announced {
            Some(n) if bytes.contains(&0) => ParseError {
                location: Location::File,
                message: format!(
                    "a binary STL file (its 80-byte header starts with `solid`, but the rest is \
                     not text) of the wrong size: {}",
                    size_mismatch(n)
                ),
            },
            _ => ascii_error,
        });
    }
    let message = if let Some(n) = announced {
        format!(
            "neither ASCII (no `solid` keyword) nor binary ({})",
            size_mismatch(n)
        )
    } else {
        format!(
            "neither ASCII (no `solid` keyword) nor binary ({} bytes, shorter than the 84-byte header)",
            bytes.len()
        )
    };
    Err(ParseError {
        location: Location::File,
        message,
    })
}

/// The records after the 84-byte header: a normal (skipped), three corners
/// of three little-endian `f32` each, and a 2-byte attribute.
fn parse_binary<T: Scalar>(
    bytes: &[u8],
    coordinates: Coordinates<T>,
) -> Result<RawMesh, ParseError> {
    let mut mesh = RawMesh::default();
    for (k, r) in bytes[84..].chunks_exact(50).enumerate() {
        for corner in 0..3 {
            let mut p = [0.0f64; 3];
            for (axis, c) in p.iter_mut().enumerate() {
                let at = 12 + 12 * corner + 4 * axis;
                let v = f32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]]) as f64;
                if !coordinates.fits(v) {
                    return Err(ParseError {
                        location: Location::Byte((84 + 50 * k + at) as u64),
                        message: Coordinates::<T>::problem(v, &format!("{v:e}")),
                    });
                }
                *c = v;
            }
            mesh.vertices.push(p);
        }
        let i = 3 * k as u32;
        mesh.triangles.push([i, i + 1, i + 2]);
    }
    Ok(mesh)
}

/// `solid name` { `facet normal n n n` `outer loop` `vertex x y z` ×3
/// `endloop` `endfacet` } `endsolid name`, keywords case-insensitive.
fn parse_ascii<T: Scalar>(
    bytes: &[u8],
    coordinates: Coordinates<T>,
) -> Result<RawMesh, ParseError> {
    let text = super::utf8_text(bytes)?;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let last_line = text.lines().count().max(1);
    let mut mesh = RawMesh::default();
    let mut expect = |keyword: &str| -> Result<(usize, Vec<&str>), ParseError> {
        let (n, l) = lines
            .next()
            .ok_or_else(|| ParseError::line(last_line, format!("file ends before `{keyword}`")))?;
        let tokens: Vec<&str> = l.split_whitespace().collect();
        if starts_with_words(&tokens, keyword) {
            let words = keyword.split(' ').count();
            Ok((n, tokens[words..].to_vec()))
        } else {
            Err(ParseError::line(
                n,
                format!("expected `{keyword}`, found {l:?}"),
            ))
        }
    };
    expect("solid")?;
    loop {
        let (n, rest) = expect("facet normal").or_else(|e| match e.location {
            super::Location::Line(n) if is_endsolid(text, n) => Ok((0, Vec::new())),
            _ => Err(e),
        })?;
        if n == 0 {
            return Ok(mesh);
        }
        let _normal = rest;
        expect("outer loop")?;
        let first = u32::try_from(mesh.vertices.len())
            .ok()
            .filter(|&i| i <= u32::MAX - 3)
            .ok_or_else(|| ParseError::line(n, "more vertices than 32-bit indices can address"))?;
        for _ in 0..3 {
            let (n, xyz) = expect("vertex")?;
            if xyz.len() != 3 {
                return Err(ParseError::line(
                    n,
                    format!("vertex has {} coordinates, expected 3", xyz.len()),
                ));
            }
            let mut p = [0.0f64; 3];
            for (c, t) in p.iter_mut().zip(&xyz) {
                let v = t
                    .parse()
                    .map_err(|_| ParseError::line(n, format!("bad number {t:?}")))?;
                *c = coordinates
                    .check(v, t)
                    .map_err(|m| ParseError::line(n, m))?;
            }
            mesh.vertices.push(p);
        }
        expect("endloop")?;
        expect("endfacet")?;
        mesh.triangles.push([first, first + 1, first + 2]);
    }
}

fn starts_with_words(tokens: &[&str], keyword: &str) -> bool {
    let words: Vec<&str> = keyword.split(' ').collect();
    tokens.len() >= words.len()
        && words
            .iter()
            .zip(tokens)
            .all(|(a, b)| a.eq_ignore_ascii_case(b))
}

/// `true` when line `n` (1-based) of `text` is `endsolid ...`.
fn is_endsolid(text: &str, n: usize) -> bool {
    text.lines().nth(n - 1).is_some_and(|l| {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        starts_with_words(&tokens, "endsolid")
    })
}
