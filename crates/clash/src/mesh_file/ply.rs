//! PLY, ASCII or binary (little or big endian): the `x`, `y`, `z` properties
//! of the `vertex` element and the `vertex_indices` (or `vertex_index`) list
//! of the `face` element; other elements and properties are read past.
//!
//! Parsed here rather than by the `ply-rs` crate, which panics on some
//! malformed headers (an element count that overflows, found by the
//! `mesh_file` fuzz target): every error here is a [`ParseError`] with the
//! line (header and ASCII data) or the byte offset (binary data).

use super::{Coordinates, Location, ParseError, RawMesh};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "char" | "int8" => Self::I8,
            "uchar" | "uint8" => Self::U8,
            "short" | "int16" => Self::I16,
            "ushort" | "uint16" => Self::U16,
            "int" | "int32" => Self::I32,
            "uint" | "uint32" => Self::U32,
            "float" | "float32" => Self::F32,
            "double" | "float64" => Self::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Self::F32 | Self::F64)
    }

    /// Decodes one binary value.
    fn decode(self, b: &[u8], enc: Encoding) -> f64 {
        macro_rules! num {
            ($t:ty, $n:literal) => {{
                let mut a = [0u8; $n];
                a.copy_from_slice(&b[..$n]);
                (if enc == Encoding::Big {
                    <$t>::from_be_bytes(a)
                } else {
                    <$t>::from_le_bytes(a)
                }) as f64
            }};
        }
        match self {
            Self::I8 => b[0] as i8 as f64,
            Self::U8 => b[0] as f64,
            Self::I16 => num!(i16, 2),
            Self::U16 => num!(u16, 2),
            Self::I32 => num!(i32, 4),
            Self::U32 => num!(u32, 4),
            Self::F32 => num!(f32, 4),
            Self::F64 => num!(f64, 8),
        }
    }
}

#[derive(Debug, Clone)]
enum Property {
    Scalar(Scalar, String),
    List(Scalar, Scalar, String),
}

#[derive(Debug, Clone)]
struct Element {
    name: String,
    count: u64,
    properties: Vec<Property>,
}

/// What the mesh needs from an element's properties.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Skip,
    Coordinate(usize),
    Corners,
}

fn role(element: &str, property: &Property) -> Role {
    match (element, property) {
        ("vertex", Property::Scalar(_, n)) if n == "x" => Role::Coordinate(0),
        ("vertex", Property::Scalar(_, n)) if n == "y" => Role::Coordinate(1),
        ("vertex", Property::Scalar(_, n)) if n == "z" => Role::Coordinate(2),
        ("face", Property::List(_, _, n)) if n == "vertex_indices" || n == "vertex_index" => {
            Role::Corners
        }
        _ => Role::Skip,
    }
}

struct Header {
    encoding: Encoding,
    elements: Vec<Element>,
    /// Byte offset of the data.
    data_start: usize,
    /// Line number of the first data line.
    data_line: usize,
}

fn parse_header(bytes: &[u8]) -> Result<Header, ParseError> {
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut offset = 0;
    let mut n = 0;
    loop {
        n += 1;
        let rest = &bytes[offset..];
        let len = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| ParseError::line(n, "the header ends without `end_header`"))?;
        let line = std::str::from_utf8(&rest[..len])
            .map_err(|_| ParseError::line(n, "the header is not ASCII text"))?
            .trim();
        offset += len + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        let err = |m: String| ParseError::line(n, m);
        match words.as_slice() {
            ["ply"] if n == 1 => {}
            _ if n == 1 => return Err(err("not a PLY file (the first line is not `ply`)".into())),
            ["format", f, _version] => {
                encoding = Some(match *f {
                    "ascii" => Encoding::Ascii,
                    "binary_little_endian" => Encoding::Little,
                    "binary_big_endian" => Encoding::Big,
                    _ => return Err(err(format!("unknown format {f:?}"))),
                });
            }
            ["comment", ..] | ["obj_info", ..] | [] => {}
            ["element", name, count] => {
                let count = count
                    .parse::<u64>()
                    .map_err(|_| err(format!("bad element count {count:?}")))?;
                elements.push(Element {
                    name: (*name).to_string(),
                    count,
                    properties: Vec::new(),
                });
            }
            ["property", "list", count_type, item_type, name] => {
                let (c, i) = (Scalar::parse(count_type), Scalar::parse(item_type));
                let (Some(c), Some(i)) = (c, i) else {
                    return Err(err(format!("unknown list type in {line:?}")));
                };
                if !c.is_integer() {
                    return Err(err(format!(
                        "list count type {count_type:?} is not an integer type"
                    )));
                }
                let e = elements
                    .last_mut()
                    .ok_or_else(|| err("property before any element".into()))?;
                e.properties.push(Property::List(c, i, (*name).to_string()));
            }
            ["property", t, name] => {
                let t =
                    Scalar::parse(t).ok_or_else(|| err(format!("unknown property type {t:?}")))?;
                let e = elements
                    .last_mut()
                    .ok_or_else(|| err("property before any element".into()))?;
                e.properties.push(Property::Scalar(t, (*name).to_string()));
            }
            ["end_header"] => break,
            _ => return Err(err(format!("unrecognised header line {line:?}"))),
        }
    }
    let encoding = encoding.ok_or_else(|| ParseError::line(n, "no `format` line in the header"))?;
    Ok(Header {
        encoding,
        elements,
        data_start: offset,
        data_line: n + 1,
    })
}

pub(crate) fn parse<T: clash_math::Scalar>(
    bytes: &[u8],
    coordinates: Coordinates<T>,
) -> Result<RawMesh, ParseError> {
    let header = parse_header(bytes)?;
    let file_error = |message: String| ParseError {
        location: Location::File,
        message,
    };
    for (name, what) in [("vertex", "x, y, z"), ("face", "vertex_indices")] {
        let e = header
            .elements
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| file_error(format!("no `{name}` element")))?;
        let roles: Vec<Role> = e.properties.iter().map(|p| role(name, p)).collect();
        let complete = if name == "vertex" {
            (0..3).all(|k| roles.contains(&Role::Coordinate(k)))
        } else {
            roles.contains(&Role::Corners)
        };
        if !complete {
            return Err(file_error(format!(
                "the `{name}` element has no {what} properties"
            )));
        }
    }
    let mut reader = Reader {
        bytes,
        offset: header.data_start,
        line: header.data_line,
        encoding: header.encoding,
        token: (0, 0),
    };
    let mut mesh = RawMesh::default();
    let mut corners: Vec<u32> = Vec::new();
    let mut values: Vec<f64> = Vec::new();
    // Faces are checked against the vertex count at the end (the `face`
    // element may come first), so remember where the largest index is:
    // (index, face, location of the face).
    let mut max_ref: Option<(u32, u64, Location)> = None;
    for e in &header.elements {
        // Every instance takes at least one byte (binary) or one line (ASCII):
        // a count beyond the data left is an error before any allocation.
        let min_size = e.properties.len().max(1) as u64;
        if e.count.saturating_mul(min_size) > (bytes.len() - reader.offset.min(bytes.len())) as u64
        {
            return Err(reader.error(format!(
                "element `{}` announces {} instances, more than the file holds",
                e.name, e.count
            )));
        }
        let roles: Vec<Role> = e.properties.iter().map(|p| role(&e.name, p)).collect();
        for k in 0..e.count {
            reader.start_instance()?;
            let at = reader.location();
            let mut xyz = [0.0f64; 3];
            for (p, r) in e.properties.iter().zip(&roles) {
                match p {
                    Property::Scalar(t, _) => {
                        let start = reader.location();
                        let v = reader.value(*t)?;
                        if let Role::Coordinate(c) = r {
                            if !coordinates.fits(v) {
                                return Err(ParseError {
                                    location: start,
                                    message: Coordinates::<T>::problem(v, &reader.last_token(v)),
                                });
                            }
                            xyz[*c] = v;
                        }
                    }
                    Property::List(ct, it, _) => {
                        let count = reader.value(*ct)?;
                        if !(0.0..=1e6).contains(&count) || count.fract() != 0.0 {
                            return Err(reader.error(format!("bad list length {count}")));
                        }
                        values.clear();
                        for _ in 0..count as usize {
                            values.push(reader.value(*it)?);
                        }
                        if *r == Role::Corners {
                            corners.clear();
                            for &v in &values {
                                if v.fract() != 0.0 || v < 0.0 || v >= u32::MAX as f64 {
                                    return Err(reader.error(format!(
                                        "face {k} has the vertex index {v}, not an index"
                                    )));
                                }
                                let i = v as u32;
                                if max_ref.is_none_or(|(m, _, _)| i > m) {
                                    max_ref = Some((i, k, at));
                                }
                                corners.push(i);
                            }
                        }
                    }
                }
            }
            reader.end_instance()?;
            if e.name == "vertex" {
                mesh.vertices.push(xyz);
            } else if e.name == "face" {
                if corners.len() < 3 {
                    return Err(ParseError {
                        location: at,
                        message: format!(
                            "face {k} has {} corners, expected at least 3",
                            corners.len()
                        ),
                    });
                }
                mesh.push_polygon(&corners);
                // Validated once the vertex count is known (below).
            }
        }
    }
    let nv = mesh.vertices.len();
    if let Some((i, k, location)) = max_ref
        && i as usize >= nv
    {
        return Err(ParseError {
            location,
            message: format!("face {k} refers to vertex {i}, but the file has {nv} vertices"),
        });
    }
    Ok(mesh)
}

/// A cursor over the data: binary values, or ASCII tokens one instance per line.
struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
    line: usize,
    encoding: Encoding,
    /// Byte range of the last ASCII token read.
    token: (usize, usize),
}

impl Reader<'_> {
    /// Where the cursor is: the line (ASCII) or the byte (binary).
    fn location(&self) -> Location {
        match self.encoding {
            Encoding::Ascii => Location::Line(self.line),
            _ => Location::Byte(self.offset as u64),
        }
    }

    fn error(&self, message: String) -> ParseError {
        ParseError {
            location: self.location(),
            message,
        }
    }

    /// The last value read, `v`, as the file wrote it (ASCII) or printed.
    fn last_token(&self, v: f64) -> String {
        match self.encoding {
            Encoding::Ascii => {
                String::from_utf8_lossy(&self.bytes[self.token.0..self.token.1]).into_owned()
            }
            _ => format!("{v:e}"),
        }
    }

    /// ASCII: skips blank lines before an instance.
    fn start_instance(&mut self) -> Result<(), ParseError> {
        if self.encoding != Encoding::Ascii {
            return Ok(());
        }
        loop {
            let rest = &self.bytes[self.offset..];
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            if rest.is_empty() {
                return Err(self.error("the file ends before all elements are read".into()));
            }
            if rest[..end].iter().all(u8::is_ascii_whitespace) {
                self.offset += (end + 1).min(rest.len());
                self.line += 1;
                continue;
            }
            return Ok(());
        }
    }

    /// ASCII: the instance must end its line.
    fn end_instance(&mut self) -> Result<(), ParseError> {
        if self.encoding != Encoding::Ascii {
            return Ok(());
        }
        let rest = &self.bytes[self.offset..];
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        if !rest[..end].iter().all(u8::is_ascii_whitespace) {
            return Err(self.error("more values on the line than the element's properties".into()));
        }
        self.offset += (end + 1).min(rest.len());
        self.line += 1;
        Ok(())
    }

    fn value(&mut self, t: Scalar) -> Result<f64, ParseError> {
        if self.encoding == Encoding::Ascii {
            let rest = &self.bytes[self.offset..];
            let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let skip = rest[..line_end]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .ok_or_else(|| {
                    self.error("fewer values on the line than the element's properties".into())
                })?;
            let len = rest[skip..line_end]
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(line_end - skip);
            let token = std::str::from_utf8(&rest[skip..skip + len]).unwrap_or("");
            self.token = (self.offset + skip, self.offset + skip + len);
            let v: f64 = token
                .parse()
                .map_err(|_| self.error(format!("bad number {token:?}")))?;
            if t.is_integer() && v.fract() != 0.0 {
                return Err(self.error(format!("{token:?} is not an integer")));
            }
            self.offset += skip + len;
            return Ok(v);
        }
        let size = t.size();
        let b = self
            .bytes
            .get(self.offset..self.offset + size)
            .ok_or_else(|| self.error("the file ends before all elements are read".into()))?;
        let v = t.decode(b, self.encoding);
        self.offset += size;
        Ok(v)
    }
}
