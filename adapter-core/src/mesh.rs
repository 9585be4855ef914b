//! Coupling points shared by every participant: an inline list, a text file of
//! coordinates (Chrono's format: an optional count line, then `x y z` per line), or the
//! vertices of a Wavefront `.obj` or an `.stl` file (read by `tidelink-mesh`), chosen by
//! extension (any case).

use crate::spec::PointsSpec;
use std::path::{Path, PathBuf};

/// Extensions read as text coordinates (besides a file without extension).
pub const TEXT_EXTENSIONS: &[&str] = &["txt", "dat", "xyz", "pts", "csv"];

/// Why a set of points could not be read; every variant names the file and what to fix.
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    /// A points file could not be opened or read (missing, no permission).
    #[error("{path}: cannot read the points file: {source}")]
    Io {
        /// The points file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A line of a text file is not three numbers.
    #[error("{path}:{line}: `{text}` is not a point: {reason} (write `x y z`, three numbers per line)")]
    BadLine {
        /// The points file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line as written (trimmed).
        text: String,
        /// What is wrong with it (count of values, a token that is not a number).
        reason: String,
    },
    /// The optional count line disagrees with the points that follow.
    #[error("{path}: the count line says {declared} points but the file has {found}; fix the count or the points")]
    CountMismatch {
        /// The points file.
        path: PathBuf,
        /// The count on the first line.
        declared: usize,
        /// The points actually read.
        found: usize,
    },
    /// The file holds no point: a body without coupling vertices.
    #[error("{path}: no points found; a points file needs at least one `x y z` line (or vertices for .obj/.stl)")]
    Empty {
        /// The points file.
        path: PathBuf,
    },
    /// The extension names no reader ([`PointsFormat::of`]).
    #[error(
        "{path}: unsupported extension `{ext}` for coupling points; use .obj, .stl or a text file ({})",
        TEXT_EXTENSIONS.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ")
    )]
    UnsupportedExtension {
        /// The points file.
        path: PathBuf,
        /// The extension as written.
        ext: String,
    },
    /// The `.obj` or `.stl` file could not be read (its message names the file).
    #[error(transparent)]
    File(#[from] tidelink_mesh::MeshError),
}

/// The kind of points file, from its extension (case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsFormat {
    /// Chrono's coordinates: optional count line, then `x y z` per line ([`TEXT_EXTENSIONS`] or none).
    Text,
    /// Wavefront `.obj`: its vertices, faces ignored.
    Obj,
    /// `.stl` (ASCII or binary): the distinct corners of its facets.
    Stl,
}

impl PointsFormat {
    /// The reader for `path`, by extension; an unknown extension is an error rather than a guess.
    pub fn of(path: &Path) -> Result<Self, MeshError> {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else { return Ok(PointsFormat::Text) };
        let lower = ext.to_ascii_lowercase();
        match lower.as_str() {
            "obj" => Ok(PointsFormat::Obj),
            "stl" => Ok(PointsFormat::Stl),
            e if TEXT_EXTENSIONS.contains(&e) => Ok(PointsFormat::Text),
            _ => Err(MeshError::UnsupportedExtension { path: path.to_path_buf(), ext: ext.to_string() }),
        }
    }
}

/// The points of `spec`; file names go through `resolve` (e.g. `ParticipantFile::data_file`).
pub fn load_points(spec: &PointsSpec, resolve: impl Fn(&str) -> PathBuf) -> Result<Vec<[f64; 3]>, MeshError> {
    match spec {
        PointsSpec::Inline(points) => Ok(points.clone()),
        PointsSpec::File(name) => read_points_file(&resolve(name)),
    }
}

/// The triangles of `spec` over its points (same indices): the faces of an `.obj` or `.stl`
/// file, none for text files and inline lists.
pub fn load_point_faces(spec: &PointsSpec, resolve: impl Fn(&str) -> PathBuf) -> Result<Vec<[usize; 3]>, MeshError> {
    match spec {
        PointsSpec::File(name) => {
            let path = resolve(name);
            match PointsFormat::of(&path)? {
                PointsFormat::Text => Ok(Vec::new()),
                PointsFormat::Obj | PointsFormat::Stl => Ok(tidelink_mesh::read_vertex_faces(&path)?),
            }
        }
        PointsSpec::Inline(_) => Ok(Vec::new()),
    }
}

/// Reads the points of a file, by extension.
pub fn read_points_file(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    let points = match PointsFormat::of(path)? {
        PointsFormat::Text => {
            let text =
                std::fs::read_to_string(path).map_err(|source| MeshError::Io { path: path.to_path_buf(), source })?;
            parse_text_points(path, &text)?
        }
        PointsFormat::Obj => read_obj_vertices(path)?,
        PointsFormat::Stl => read_stl_vertices(path)?,
    };
    if points.is_empty() {
        return Err(MeshError::Empty { path: path.to_path_buf() });
    }
    Ok(points)
}

/// Parses Chrono's text format; `path` only names the file in errors. Blank lines and
/// comments (`#` or `//` to the end of the line) are skipped; numbers may be separated by
/// spaces, tabs or commas. A first line holding a single whole number is the point count.
pub fn parse_text_points(path: &Path, text: &str) -> Result<Vec<[f64; 3]>, MeshError> {
    let mut points = Vec::new();
    let mut declared: Option<usize> = None;
    let mut seen_data = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("");
        let content = content.split("//").next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let tokens: Vec<&str> =
            content.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect();
        if !seen_data && tokens.len() == 1 {
            if let Ok(n) = tokens[0].parse::<usize>() {
                declared = Some(n);
                seen_data = true;
                continue;
            }
        }
        seen_data = true;
        let bad = |reason: String| MeshError::BadLine {
            path: path.to_path_buf(),
            line,
            text: raw.trim().to_string(),
            reason,
        };
        if tokens.len() != 3 {
            return Err(bad(format!("{} value(s), expected 3", tokens.len())));
        }
        let mut p = [0.0; 3];
        for (k, t) in tokens.iter().enumerate() {
            p[k] = t.parse::<f64>().map_err(|_| bad(format!("`{t}` is not a number")))?;
            if !p[k].is_finite() {
                return Err(bad(format!("`{t}` is not finite")));
            }
        }
        points.push(p);
    }
    if let Some(n) = declared {
        if n != points.len() {
            return Err(MeshError::CountMismatch { path: path.to_path_buf(), declared: n, found: points.len() });
        }
    }
    Ok(points)
}

/// The vertices of every object of a Wavefront `.obj` file, in file order.
pub fn read_obj_vertices(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    Ok(tidelink_mesh::read_vertices(path)?)
}

/// The distinct vertices of an `.stl` file (ASCII or binary).
pub fn read_stl_vertices(path: &Path) -> Result<Vec<[f64; 3]>, MeshError> {
    Ok(tidelink_mesh::read_vertices(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn text_with_count_comments_and_blank_lines() {
        let text = "# flap\n3\n0 0 0\n\n1.5\t2 -3 // tip\n1e-3, 0, 4\n";
        let p = parse_text_points(Path::new("f.txt"), text).unwrap();
        assert_eq!(p, vec![[0.0, 0.0, 0.0], [1.5, 2.0, -3.0], [1e-3, 0.0, 4.0]]);
    }

    #[test]
    fn text_without_count() {
        let p = parse_text_points(Path::new("f.txt"), "1 2 3\n4 5 6\n").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1], [4.0, 5.0, 6.0]);
    }

    #[test]
    fn bad_line_names_file_and_line() {
        let e = parse_text_points(Path::new("pts.txt"), "2\n0 0 0\n1 x 2\n").unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, MeshError::BadLine { line: 3, .. }), "{msg}");
        assert!(msg.contains("pts.txt:3") && msg.contains("`x` is not a number"), "{msg}");
        let e = parse_text_points(Path::new("pts.txt"), "0 0\n").unwrap_err();
        assert!(e.to_string().contains("pts.txt:1") && e.to_string().contains("2 value(s)"), "{e}");
    }

    #[test]
    fn count_mismatch_is_an_error() {
        let e = parse_text_points(Path::new("c.txt"), "3\n0 0 0\n1 1 1\n").unwrap_err();
        assert!(matches!(e, MeshError::CountMismatch { declared: 3, found: 2, .. }), "{e}");
        assert!(e.to_string().contains("c.txt"));
    }

    #[test]
    fn extension_chooses_the_reader_case_insensitively() {
        assert_eq!(PointsFormat::of(Path::new("a.OBJ")).unwrap(), PointsFormat::Obj);
        assert_eq!(PointsFormat::of(Path::new("a.Stl")).unwrap(), PointsFormat::Stl);
        assert_eq!(PointsFormat::of(Path::new("a.TXT")).unwrap(), PointsFormat::Text);
        assert_eq!(PointsFormat::of(Path::new("points")).unwrap(), PointsFormat::Text);
        let e = PointsFormat::of(Path::new("dir/a.ply")).unwrap_err();
        assert!(e.to_string().contains("dir/a.ply") && e.to_string().contains(".obj, .stl"), "{e}");
    }

    #[test]
    fn files_by_extension_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let obj = write(dir.path(), "tri.Obj", "v 0 0 0\nv 1 0 0\nv 0 2 0.5\nf 1 2 3\n");
        assert_eq!(read_points_file(&obj).unwrap(), vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.5]]);
        let stl = write(
            dir.path(),
            "tri.STL",
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n\
             facet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n",
        );
        let p = read_points_file(&stl).unwrap();
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p.contains(&[1.0, 1.0, 0.0]));
        let txt = write(dir.path(), "empty.txt", "# nothing\n");
        assert!(matches!(read_points_file(&txt), Err(MeshError::Empty { .. })));
        let missing = dir.path().join("missing.txt");
        let e = read_points_file(&missing).unwrap_err();
        assert!(e.to_string().contains("missing.txt"), "{e}");
        let spec = PointsSpec::File("tri.Obj".into());
        assert_eq!(load_points(&spec, |n| dir.path().join(n)).unwrap().len(), 3);
        let inline = PointsSpec::Inline(vec![[1.0, 2.0, 3.0]]);
        assert_eq!(load_points(&inline, |_| unreachable!()).unwrap(), vec![[1.0, 2.0, 3.0]]);
    }

    use crate::testing::shared_path;

    #[test]
    #[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
    fn chrono_flap_points() {
        let p = shared_path("compat/chrono/flap_openfoam/solid_chrono/flap.txt");
        let pts = read_points_file(&p).unwrap();
        assert_eq!(pts.len(), 36);
        assert_eq!(pts[0], [0.0, -0.01, 0.0]);
    }

    #[test]
    #[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3 (reference data beside the repository)")]
    fn rm3_float_meshes() {
        let p = shared_path("data/rm3/float_cog.obj");
        assert_eq!(read_points_file(&p).unwrap().len(), 258);
        let p = shared_path("data/rm3/float.stl");
        let pts = read_points_file(&p).unwrap();
        assert!(pts.len() > 3 && pts.len() < 1548, "{}", pts.len());
    }

    #[test]
    fn empty_and_garbage_mesh_files_say_so_with_their_path() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["e.stl", "e.obj"] {
            let e = read_points_file(&write(dir.path(), name, "")).unwrap_err();
            assert!(matches!(e, MeshError::File(tidelink_mesh::MeshError::EmptyFile { .. })), "{e}");
            assert!(e.to_string().contains(name) && e.to_string().contains("the file is empty"), "{e}");
        }
        let e = read_points_file(&write(dir.path(), "g.stl", "this is no mesh\n")).unwrap_err();
        assert!(e.to_string().contains("g.stl: not an STL file: 16 bytes"), "{e}");
        let garbage = "x".repeat(200);
        let e = read_points_file(&write(dir.path(), "h.stl", &garbage)).unwrap_err();
        assert!(e.to_string().contains("h.stl: not an STL file") && e.to_string().contains("the file has 200"), "{e}");
    }
}
