//! The check of the `mesh_file` fuzz target, shared with the seed test: the
//! first byte picks the format (OBJ, STL, PLY), the rest is the file. Loading
//! must never panic, and a mesh that loads must be valid and the same in f32
//! and f64 wherever f32 can hold the coordinates.

use clash::mesh_file::{MeshFormat, read_mesh};

/// Runs one input; `true` when it loaded as a mesh.
pub fn check(data: &[u8]) -> bool {
    let Some((&selector, bytes)) = data.split_first() else {
        return false;
    };
    let format = match selector % 3 {
        0 => MeshFormat::Obj,
        1 => MeshFormat::Stl,
        _ => MeshFormat::Ply,
    };
    let wide = read_mesh::<f64>(bytes, format);
    let narrow = read_mesh::<f32>(bytes, format);
    if let Ok(mesh) = &wide {
        let n = mesh.vertices().len() as u32;
        assert!(mesh.num_triangles() > 0);
        assert!(mesh.indices().iter().flatten().all(|&i| i < n));
        assert!(
            mesh.vertices()
                .iter()
                .all(|p| p.iter().all(|c| c.is_finite()))
        );
        if let Ok(m32) = &narrow
            && format != MeshFormat::Stl
        {
            // Same faces; STL welding may merge more vertices in f32.
            assert_eq!(m32.indices(), mesh.indices());
        }
    }
    if narrow.is_ok() {
        // Whatever f32 reads, f64 reads too (f64 holds more).
        assert!(wide.is_ok(), "{format}: f32 loads but f64 does not");
    }
    wide.is_ok()
}
