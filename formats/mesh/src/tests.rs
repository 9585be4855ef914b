use super::*;
use std::path::PathBuf;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const TWO_FACETS: &str =
    "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n\
     facet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";

#[test]
fn extension_chooses_the_reader_case_insensitively() {
    assert_eq!(MeshFormat::of(Path::new("a.OBJ")), Some(MeshFormat::Obj));
    assert_eq!(MeshFormat::of(Path::new("a.Stl")), Some(MeshFormat::Stl));
    assert_eq!(MeshFormat::of(Path::new("a.ply")), None);
    let e = read_surface(Path::new("dir/a.ply")).unwrap_err();
    assert!(matches!(e, MeshError::UnsupportedExtension { .. }));
    assert_eq!(e.to_string(), "dir/a.ply: expected a .obj or .stl file");
}

#[test]
fn obj_vertices_in_file_order_and_its_triangulated_surface() {
    let dir = tempfile::tempdir().unwrap();
    let obj = write(dir.path(), "quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0.5\nf 1 2 3 4\n");
    assert_eq!(read_vertices(&obj).unwrap(), vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.5]]);
    let s = read_surface(&obj).unwrap();
    assert_eq!(s.triangles.len(), 2, "a quad is two triangles: {s:?}");
    assert_eq!(s.corners(0), [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]);
}

#[test]
fn the_faces_of_coupling_points_index_the_vertices_as_read() {
    let dir = tempfile::tempdir().unwrap();
    // Two objects: the second's face numbers its vertices globally (5, 6, 7), as OBJ does.
    let text = "o a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\no b\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 5 6 7\n";
    let obj = write(dir.path(), "two.obj", text);
    let v = read_vertices(&obj).unwrap();
    let f = read_vertex_faces(&obj).unwrap();
    assert_eq!(v.len(), 7);
    assert_eq!(f.len(), 3, "{f:?}");
    assert_eq!(f[2].map(|i| v[i]), [[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]);
    // The quad's two triangles cover its four corners.
    let mut quad: Vec<usize> = f[..2].iter().flatten().copied().collect();
    quad.sort();
    quad.dedup();
    assert_eq!(quad, [0, 1, 2, 3]);
    let stl = write(dir.path(), "tri.stl", TWO_FACETS);
    let (v, f) = (read_vertices(&stl).unwrap(), read_vertex_faces(&stl).unwrap());
    assert_eq!(f[1].map(|i| v[i]), [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]);
}

#[test]
fn stl_facets_over_distinct_corners() {
    let dir = tempfile::tempdir().unwrap();
    let stl = write(dir.path(), "tri.STL", TWO_FACETS);
    let s = read_surface(&stl).unwrap();
    assert_eq!(s.vertices.len(), 4, "{s:?}");
    assert!(s.vertices.contains(&[1.0, 1.0, 0.0]));
    assert_eq!(s.triangles.len(), 2);
    assert_eq!(s.corners(1), [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]);
    assert_eq!(read_vertices(&stl).unwrap(), s.vertices);
}

#[test]
fn missing_empty_and_garbage_files_say_so_with_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let e = read_surface(&dir.path().join("missing.obj")).unwrap_err();
    assert!(matches!(e, MeshError::Io { .. }) && e.to_string().contains("missing.obj"), "{e}");
    for name in ["e.stl", "e.obj"] {
        let e = read_vertices(&write(dir.path(), name, "")).unwrap_err();
        assert!(matches!(e, MeshError::EmptyFile { .. }), "{e}");
        assert!(e.to_string().contains(name) && e.to_string().contains("the file is empty"), "{e}");
    }
    let e = read_surface(&write(dir.path(), "g.stl", "this is no mesh\n")).unwrap_err();
    assert!(matches!(e, MeshError::NotStl { .. }));
    assert!(e.to_string().contains("g.stl: not an STL file: 16 bytes"), "{e}");
    let garbage = "x".repeat(200);
    let e = read_surface(&write(dir.path(), "h.stl", &garbage)).unwrap_err();
    assert!(e.to_string().contains("h.stl: not an STL file") && e.to_string().contains("the file has 200"), "{e}");
}

#[test]
fn devices_and_folders_are_refused_without_reading() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("hull.obj");
    std::fs::create_dir(&folder).unwrap();
    assert!(matches!(read_surface(&folder), Err(MeshError::NotRegular { .. })));
    // /dev/zero through a link named like a mesh: endless zeros, never read.
    let link = dir.path().join("zero.stl");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let e = read_surface(&link).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
}

#[test]
fn ascii_stl_that_says_solid_and_then_garbage_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let stl = write(dir.path(), "bad.stl", "solid x\nthis is no facet\n");
    let e = read_surface(&stl).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}: ", stl.display())), "{e}");
    assert!(!e.contains("failed to fill whole buffer"), "{e}");
}

#[test]
fn an_obj_of_vertices_alone_gives_its_points_and_a_surface_without_triangles() {
    let dir = tempfile::tempdir().unwrap();
    let obj = write(dir.path(), "pts.obj", "# points\nv 0 0 0\nv 1 0 0\nv 0 1 0.5\n");
    assert_eq!(read_vertices(&obj).unwrap(), vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]);
    let s = read_surface(&obj).unwrap();
    assert_eq!((s.vertices.len(), s.triangles.len()), (3, 0));
    let bad = write(dir.path(), "bad.obj", "v 0 0\n");
    // tobj or the bare-vertex reader refuses it; either way the message names the file.
    let e = read_vertices(&bad).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{}: cannot read the Wavefront OBJ file: ", bad.display())), "{e}");
}
