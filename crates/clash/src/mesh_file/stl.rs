//! STL, binary or ASCII. A binary file is an 80-byte header, a triangle
//! count `n` and `n` records of 50 bytes, so its size is exactly
//! `84 + 50 n`; that is how binary is told from ASCII (many binary exporters
//! start the header with `solid`, the keyword of ASCII files).

use super::{Location, ParseError, RawMesh};

pub(crate) fn parse(bytes: &[u8]) -> Result<RawMesh, ParseError> {
    if bytes.len() >= 84 {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
        if bytes.len() as u64 == 84 + 50 * n {
            return Ok(parse_binary(&bytes[84..]));
        }
    }
    let starts_solid = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .is_some_and(|i| bytes[i..].starts_with(b"solid"));
    if starts_solid {
        return parse_ascii(bytes);
    }
    let message = if bytes.len() >= 84 {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
        format!(
            "neither ASCII (no `solid` keyword) nor binary (the header announces {n} triangles, \
             {} bytes, but the file has {} bytes)",
            84 + 50 * n,
            bytes.len()
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

fn parse_binary(records: &[u8]) -> RawMesh {
    let mut mesh = RawMesh::default();
    let f = |r: &[u8], at: usize| f32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]]);
    for (k, r) in records.chunks_exact(50).enumerate() {
        for c in 0..3 {
            let at = 12 + 12 * c;
            mesh.vertices
                .push([f(r, at) as f64, f(r, at + 4) as f64, f(r, at + 8) as f64]);
        }
        let i = 3 * k as u32;
        mesh.triangles.push([i, i + 1, i + 2]);
    }
    mesh
}

/// `solid name` { `facet normal n n n` `outer loop` `vertex x y z` ×3
/// `endloop` `endfacet` } `endsolid name`, keywords case-insensitive.
fn parse_ascii(bytes: &[u8]) -> Result<RawMesh, ParseError> {
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
                *c = t
                    .parse()
                    .map_err(|_| ParseError::line(n, format!("bad number {t:?}")))?;
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
