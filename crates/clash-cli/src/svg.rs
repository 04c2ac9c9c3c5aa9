//! The demo's picture: the mesh projected on the plane of its two largest
//! extents, with a tree level's volumes drawn over it, one panel per tree,
//! and a legend: each panel's volume type and level, and the projection
//! (its axes drawn in each panel).

use clash::bv::{Aabb, BoundingVolume, Obb};
use clash::bvh::{Bvh, TriMesh};
use clash::math::{Point3, Scalar, Vector3};
use std::fmt::Write;

const PANEL: f64 = 480.0;
const MARGIN: f64 = 24.0;
/// Height of the caption band above the drawings.
const TOP: f64 = 16.0;
/// Height of one legend line below the drawings.
const LINE: f64 = 16.0;
const COLORS: [&str; 8] = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
];

/// One panel: a caption, its legend lines and the volumes to draw (as their
/// bounding boxes).
pub struct Panel<T: Scalar> {
    /// Caption.
    pub title: String,
    /// Legend lines under the drawing.
    pub legend: Vec<String>,
    /// The volumes.
    pub boxes: Vec<Obb<T>>,
}

impl<T: Scalar> Panel<T> {
    /// The volumes of `tree` at depth `level` (see [`level_nodes`]), with
    /// `volume` naming their type in the caption and `kind` in the legend
    /// (e.g. `"OBB"`, `"oriented bounding boxes"`).
    pub fn of_level<B: BoundingVolume<T>>(
        tree: &Bvh<T, B>,
        level: u32,
        volume: &str,
        kind: &str,
    ) -> Self {
        let nodes = level_nodes(tree, level);
        let above = nodes.iter().filter(|&&(_, d)| d < level).count();
        let mut legend = vec![
            format!("{volume} tree: {kind}"),
            format!(
                "level {level} of 0 (the root) to {}: {} volumes",
                tree.depth(),
                nodes.len()
            ),
        ];
        if above > 0 {
            legend.push(format!(
                "({above} of them leaves above level {level}, drawn to cover the mesh)"
            ));
        }
        Self {
            title: format!("{volume} tree, level {level}"),
            legend,
            boxes: nodes
                .into_iter()
                .map(|(i, _)| tree.nodes()[i as usize].bv.bounding_obb())
                .collect(),
        }
    }
}

/// Nodes at depth `level`, and leaves above it (so the level covers the
/// mesh), each with its depth.
pub fn level_nodes<T: Scalar, B: BoundingVolume<T>>(
    tree: &Bvh<T, B>,
    level: u32,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![(0u32, 0u32)];
    while let Some((i, depth)) = stack.pop() {
        match tree.nodes()[i as usize].children(i) {
            Some((l, r)) if depth < level => {
                stack.push((r, depth + 1));
                stack.push((l, depth + 1));
            }
            _ => out.push((i, depth)),
        }
    }
    out
}

/// The SVG document of `panels` side by side over the mesh, with the legend
/// below them.
pub fn render<T: Scalar>(mesh: &TriMesh<T>, panels: &[Panel<T>]) -> String {
    // Frame the mesh and every volume drawn.
    let mut points: Vec<Point3<T>> = mesh.vertices().to_vec();
    for obb in panels.iter().flat_map(|p| &p.boxes) {
        points.extend(corners(obb));
    }
    // A valid mesh has vertices; an empty box only shifts the picture.
    let root = Aabb::from_points(&points).unwrap_or(Aabb {
        min: Point3::origin(),
        max: Point3::origin(),
    });
    let extent = root.max - root.min;
    // Project on the two axes of largest extent.
    let mut axes = [0usize, 1, 2];
    axes.sort_by(|&a, &b| extent[b].to_f64().total_cmp(&extent[a].to_f64()));
    let (u, v) = (axes[0], axes[1]);
    let (min_u, min_v) = (root.min[u].to_f64(), root.min[v].to_f64());
    let scale = (PANEL - 2.0 * MARGIN) / extent[u].to_f64().max(extent[v].to_f64()).max(1e-300);
    let project = |p: &Point3<T>, panel: usize| -> (f64, f64) {
        (
            panel as f64 * PANEL + MARGIN + (p[u].to_f64() - min_u) * scale,
            TOP + PANEL - MARGIN - (p[v].to_f64() - min_v) * scale,
        )
    };
    let common = [
        projection_legend(u, v),
        format!(
            "Grey: the {} triangles of the mesh; each volume is drawn as its projected bounding \
             box, in colours that only tell volumes apart.",
            mesh.num_triangles()
        ),
    ];
    let panel_lines = panels.iter().map(|p| p.legend.len()).max().unwrap_or(0);
    let width = PANEL * panels.len() as f64;
    let height = TOP + PANEL + LINE * (panel_lines + common.len()) as f64 + 8.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#,
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (k, panel) in panels.iter().enumerate() {
        let left = k as f64 * PANEL + MARGIN;
        let _ = writeln!(
            s,
            r##"<text x="{left}" y="20" font-size="14" fill="#222">{}</text>"##,
            escape(&panel.title)
        );
        let _ = writeln!(
            s,
            r##"<g fill="#d8d8d8" stroke="#8c8c8c" stroke-width="0.3">"##
        );
        for tri in mesh.triangles() {
            let pts: Vec<(f64, f64)> = [tri.a, tri.b, tri.c]
                .iter()
                .map(|p| project(p, k))
                .collect();
            polygon(&mut s, &pts, "");
        }
        let _ = writeln!(s, "</g>");
        for (n, obb) in panel.boxes.iter().enumerate() {
            let corners: Vec<(f64, f64)> = corners(obb).iter().map(|p| project(p, k)).collect();
            let color = COLORS[n % COLORS.len()];
            polygon(
                &mut s,
                &hull_2d(corners),
                &format!(
                    r#"fill="{color}" fill-opacity="0.12" stroke="{color}" stroke-width="1.5""#
                ),
            );
        }
        axes_glyph(&mut s, k as f64 * PANEL + 8.0, TOP + PANEL - 8.0, u, v);
        for (i, line) in panel.legend.iter().enumerate() {
            legend_line(&mut s, left, TOP + PANEL + LINE * (i + 1) as f64, line);
        }
    }
    for (i, line) in common.iter().enumerate() {
        let y = TOP + PANEL + LINE * (panel_lines + i + 1) as f64;
        legend_line(&mut s, MARGIN, y, line);
    }
    let _ = writeln!(s, "</svg>");
    s
}

const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

/// The projection in words: axis `u` to the right, `v` up, and the side of
/// the third axis the mesh is seen from.
fn projection_legend(u: usize, v: usize) -> String {
    let w = 3 - u - v;
    // (u, v, w) an even permutation of (x, y, z): u × v = +w, towards the viewer.
    let side = if (u + 1) % 3 == v { "+" } else { "-" };
    format!(
        "Projection: orthographic onto the {}-{} plane (the two largest extents), {} to the \
         right, {} up, seen from {side}{}.",
        AXIS_NAMES[u], AXIS_NAMES[v], AXIS_NAMES[u], AXIS_NAMES[v], AXIS_NAMES[w]
    )
}

/// Two arrows from `(x, y)`: axis `u` to the right, `v` up, each named.
fn axes_glyph(s: &mut String, x: f64, y: f64, u: usize, v: usize) {
    const LEN: f64 = 28.0;
    let _ = writeln!(
        s,
        r##"<path d="M{x} {y} h{LEN} m-5 -3 l5 3 l-5 3 M{x} {y} v-{LEN} m-3 5 l3 -5 l3 5" fill="none" stroke="#222" stroke-width="1.2"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="11" fill="#222">{}</text>"##,
        x + LEN + 3.0,
        y + 4.0,
        AXIS_NAMES[u]
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="11" fill="#222">{}</text>"##,
        x - 3.0,
        y - LEN - 4.0,
        AXIS_NAMES[v]
    );
}

fn legend_line(s: &mut String, x: f64, y: f64, text: &str) {
    let _ = writeln!(
        s,
        r##"<text x="{x}" y="{y}" font-size="12" fill="#333">{}</text>"##,
        escape(text)
    );
}

/// The eight corners of a box.
fn corners<T: Scalar>(obb: &Obb<T>) -> Vec<Point3<T>> {
    let mut out = Vec::with_capacity(8);
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                let local = Vector3::new(
                    T::lit(sx) * obb.half_extents.x,
                    T::lit(sy) * obb.half_extents.y,
                    T::lit(sz) * obb.half_extents.z,
                );
                out.push(obb.center + obb.axes * local);
            }
        }
    }
    out
}

fn polygon(s: &mut String, pts: &[(f64, f64)], attrs: &str) {
    let _ = write!(s, r#"<polygon points=""#);
    for (x, y) in pts {
        let _ = write!(s, "{x:.2},{y:.2} ");
    }
    let _ = writeln!(s, r#"" {attrs}/>"#);
}

/// Convex hull of points in the plane (Andrew's monotone chain), counter-clockwise.
fn hull_2d(mut p: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    p.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    hull
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::{hull_2d, projection_legend};

    #[test]
    fn the_projection_legend_names_the_side_seen_from() {
        // x right and y up: z points at the viewer (right-handed axes).
        assert!(projection_legend(0, 1).contains("x to the right, y up, seen from +z"));
        assert!(projection_legend(1, 0).contains("seen from -z"));
        assert!(projection_legend(2, 0).contains("z to the right, x up, seen from +y"));
        assert!(projection_legend(0, 2).contains("seen from -y"));
        assert!(projection_legend(1, 2).contains("seen from +x"));
        assert!(projection_legend(2, 1).contains("seen from -x"));
    }

    #[test]
    fn hull_of_a_square_with_inner_points_is_its_corners() {
        let pts = vec![
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (0.5, 0.0),
        ];
        let h = hull_2d(pts);
        assert_eq!(h, vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
    }
}
