//! The rest of preCICE v3's participant API, beyond the calls adapters use (`Coupling`):
//! mesh connectivity, gradient data, direct access, just-in-time mapping, remeshing and
//! profiling sections. Language bindings (the Python module) offer them under pyprecice's
//! names; each either does what libprecice does or fails with the reason the native engine
//! cannot (docs/design/coupling-semantics.md §2.13).

use super::*;

/// A kind of mesh element, by the number of vertex ids it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// Two vertices (`setMeshEdge(s)`).
    Edge,
    /// Three vertices (`setMeshTriangle(s)`).
    Triangle,
    /// Four vertices in one plane (`setMeshQuad(s)`).
    Quad,
    /// Four vertices of a 3D mesh (`setMeshTetrahedron/Tetrahedra`).
    Tetrahedron,
}

impl Element {
    /// Vertex ids per element.
    pub fn arity(self) -> usize {
        match self {
            Element::Edge => 2,
            Element::Triangle => 3,
            Element::Quad | Element::Tetrahedron => 4,
        }
    }

    /// The plural in preCICE's call names ("edges", ...).
    pub fn plural(self) -> &'static str {
        match self {
            Element::Edge => "edges",
            Element::Triangle => "triangles",
            Element::Quad => "quads",
            Element::Tetrahedron => "tetrahedra",
        }
    }
}

/// The engine's version line, as `getVersionInformation` returns it.
pub fn version_information() -> String {
    format!("Tidelink native engine {} (preCICE v3 participant API)", env!("CARGO_PKG_VERSION"))
}

/// Why the direct-access and just-in-time calls cannot work here: both need a received mesh
/// with api-access, which the native engine refuses when it reads the configuration.
fn no_api_access(call: &str, mesh: &str) -> String {
    format!(
        "{call} on mesh \"{mesh}\" needs the mesh received with <receive-mesh ... api-access=\"true\">, which the native \
         engine does not support (it refuses such a configuration); map the data onto a provided mesh instead, or run \
         with libprecice (pyprecice)."
    )
}

impl NativeParticipant {
    /// The checks before a mesh is changed: known, provided by this participant, not yet locked.
    fn require_mesh_modify(&self, mesh: &str, what: &str) -> Result<&MeshState> {
        let m = self.mesh(mesh)?;
        if !m.provided {
            return misuse(format!(
                "Participant \"{}\" does not provide Mesh \"{mesh}\": {what} can only be set on provided meshes (<provide-mesh>).",
                self.name
            ));
        }
        if self.state != State::Constructed {
            return misuse(format!(
                "Cannot set {what} on mesh \"{mesh}\" while locked. Mesh modification is only allowed before calling initialize()."
            ));
        }
        Ok(m)
    }

    /// Whether the mappings of this run need the elements of `mesh`. None of the native
    /// engine's mappings (nearest-neighbor) does, so this is false for every known mesh.
    pub fn requires_mesh_connectivity_for(&self, mesh: &str) -> Result<bool> {
        self.mesh(mesh)?;
        Ok(false)
    }

    /// Adds elements of `kind` (flat vertex ids, `kind.arity()` per element) to `mesh`. As in
    /// libprecice, elements are ignored when no mapping needs them
    /// ([`requires_mesh_connectivity_for`](Self::requires_mesh_connectivity_for) is false),
    /// after the mesh checks; tetrahedra on a 2D mesh are an error even then.
    pub fn set_mesh_elements(&mut self, mesh: &str, kind: Element, ids: &[VertexId]) -> Result<()> {
        let m = self.require_mesh_modify(mesh, kind.plural())?;
        if kind == Element::Tetrahedron && m.dim != 3 {
            return misuse(format!(
                "Setting a tetrahedron on mesh \"{mesh}\" is only possible for 3D meshes. Please set the mesh dimension to 3 in the preCICE configuration file."
            ));
        }
        if !self.requires_mesh_connectivity_for(mesh)? {
            return Ok(());
        }
        // Unreachable until a mapping needs connectivity (the mapping work stores them here).
        if !ids.len().is_multiple_of(kind.arity()) {
            return misuse(format!(
                "Input size of {} on mesh \"{mesh}\" must be a multiple of {}.",
                kind.plural(),
                kind.arity()
            ));
        }
        Ok(())
    }

    /// Whether `data` on `mesh` needs gradients: only for nearest-neighbor-gradient mappings,
    /// which the native engine refuses, so false for every known datum.
    pub fn requires_gradient_data_for(&self, mesh: &str, data: &str) -> Result<bool> {
        self.get_data_dimensions(mesh, data)?;
        Ok(false)
    }

    /// Gradient data are only taken where [`requires_gradient_data_for`](Self::requires_gradient_data_for)
    /// is true, which it never is here: the call is refused after the name checks.
    pub fn write_gradient_data(&mut self, mesh: &str, data: &str, _ids: &[VertexId], _gradients: &[f64]) -> Result<()> {
        self.get_data_dimensions(mesh, data)?;
        misuse(format!(
            "Data \"{data}\" on mesh \"{mesh}\" has no gradient values: only a mapping:nearest-neighbor-gradient reads \
             gradients, and the native engine has none. Call requires_gradient_data_for() first and write gradients only \
             when it returns true."
        ))
    }

    /// Direct access needs an api-access mesh: refused after the name check.
    pub fn set_mesh_access_region(&mut self, mesh: &str, _bounding_box: &[f64]) -> Result<()> {
        self.mesh(mesh)?;
        misuse(no_api_access("setMeshAccessRegion()", mesh))
    }

    /// Direct access needs an api-access mesh: refused after the name check.
    pub fn get_mesh_vertex_ids_and_coordinates(&self, mesh: &str) -> Result<(Vec<VertexId>, Vec<f64>)> {
        self.mesh(mesh)?;
        misuse(no_api_access("getMeshVertexIDsAndCoordinates()", mesh))
    }

    /// Just-in-time mapping needs an api-access mesh: refused after the name checks.
    pub fn write_and_map_data(&mut self, mesh: &str, data: &str, _coords: &[f64], _values: &[f64]) -> Result<()> {
        self.get_data_dimensions(mesh, data)?;
        misuse(no_api_access("writeAndMapData()", mesh))
    }

    /// Just-in-time mapping needs an api-access mesh: refused after the name checks.
    pub fn map_and_read_data(&mut self, mesh: &str, data: &str, _coords: &[f64], _rel: f64) -> Result<Vec<f64>> {
        self.get_data_dimensions(mesh, data)?;
        misuse(no_api_access("mapAndReadData()", mesh))
    }

    /// Remeshing is experimental in preCICE and not part of the native engine.
    pub fn reset_mesh(&mut self, mesh: &str) -> Result<()> {
        self.mesh(mesh)?;
        misuse(format!(
            "resetMesh() on mesh \"{mesh}\": remeshing (experimental in preCICE, allow-remeshing=\"true\") is not supported \
             by the native engine; run with libprecice (pyprecice) to remesh."
        ))
    }

    /// Opens a user profiling section; the native engine records no events, but keeps the
    /// nesting so that a stop without a start fails as in libprecice.
    pub fn start_profiling_section(&mut self, name: &str) -> Result<()> {
        if name.contains('/') {
            return misuse(format!("The profiling section name \"{name}\" may not contain a forward-slash \"/\"."));
        }
        self.profiling.push(name.to_string());
        Ok(())
    }

    /// Closes the innermost section opened by [`start_profiling_section`](Self::start_profiling_section).
    pub fn stop_last_profiling_section(&mut self) -> Result<()> {
        match self.profiling.pop() {
            Some(_) => Ok(()),
            None => misuse("stopLastProfilingSection(): there is no user-started profiling section to stop."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    const XML: &str = r#"<?xml version="1.0"?>
<precice-configuration>
  <data:scalar name="T"/>
  <mesh name="A-Mesh" dimensions="2"><use-data name="T"/></mesh>
  <mesh name="B-Mesh" dimensions="2"><use-data name="T"/></mesh>
  <participant name="A"><provide-mesh name="A-Mesh"/><write-data name="T" mesh="A-Mesh"/></participant>
  <participant name="B"><provide-mesh name="B-Mesh"/><receive-mesh name="A-Mesh" from="A"/>
    <read-data name="T" mesh="B-Mesh"/>
    <mapping:nearest-neighbor direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/></participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="."/>
  <coupling-scheme:serial-explicit><participants first="A" second="B"/><time-window-size value="0.1"/>
    <max-time value="1"/><exchange data="T" mesh="A-Mesh" from="A" to="B"/></coupling-scheme:serial-explicit>
</precice-configuration>"#;

    fn participant(name: &str) -> NativeParticipant {
        let (cfg, _) = tidelink_precice_config::parse_str(XML, Path::new("extended.xml")).expect("valid configuration");
        NativeParticipant::from_config(name, cfg).expect("participant")
    }

    #[test]
    fn connectivity_is_checked_then_ignored_as_no_mapping_needs_it() {
        let mut a = participant("A");
        let mut ids = [0; 3];
        a.set_mesh_vertices("A-Mesh", &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], &mut ids).unwrap();
        assert!(!a.requires_mesh_connectivity_for("A-Mesh").unwrap());
        a.set_mesh_elements("A-Mesh", Element::Triangle, &[0, 1, 2]).unwrap();
        // Ignored elements are not checked (libprecice checks them only when it stores them).
        a.set_mesh_elements("A-Mesh", Element::Edge, &[0, 7, 1]).unwrap();
        let e = a.set_mesh_elements("A-Mesh", Element::Tetrahedron, &[0, 1, 2, 0]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Misuse);
        assert!(e.message.contains("only possible for 3D meshes"), "{e}");
        let e = a.set_mesh_elements("Nope", Element::Edge, &[0, 1]).unwrap_err();
        assert!(e.message.contains("is unknown to preCICE"), "{e}");

        let mut b = participant("B");
        let e = b.set_mesh_elements("A-Mesh", Element::Edge, &[0, 1]).unwrap_err();
        assert!(e.message.contains("does not provide Mesh"), "{e}");
        assert!(!b.requires_mesh_connectivity_for("A-Mesh").unwrap());
    }

    #[test]
    fn refused_calls_name_the_reason_after_the_name_checks() {
        let mut b = participant("B");
        assert!(!b.requires_gradient_data_for("B-Mesh", "T").unwrap());
        let e = b.requires_gradient_data_for("B-Mesh", "X").unwrap_err();
        assert!(e.message.contains("unknown to preCICE mesh"), "{e}");
        let e = b.write_gradient_data("B-Mesh", "T", &[0], &[1.0, 2.0]).unwrap_err();
        assert!(e.message.contains("nearest-neighbor-gradient"), "{e}");
        let e = b.set_mesh_access_region("A-Mesh", &[0.0, 1.0, 0.0, 1.0]).unwrap_err();
        assert!(e.message.contains("api-access"), "{e}");
        let e = b.get_mesh_vertex_ids_and_coordinates("C-Mesh").unwrap_err();
        assert!(e.message.contains("is unknown to preCICE"), "{e}");
        let e = b.map_and_read_data("A-Mesh", "T", &[0.0, 0.0], 0.0).unwrap_err();
        assert!(e.message.contains("api-access"), "{e}");
        let e = b.reset_mesh("B-Mesh").unwrap_err();
        assert!(e.message.contains("remeshing"), "{e}");
    }

    #[test]
    fn profiling_sections_nest_and_refuse_slashes() {
        let mut a = participant("A");
        assert!(a.start_profiling_section("solve/inner").is_err());
        a.start_profiling_section("solve").unwrap();
        a.stop_last_profiling_section().unwrap();
        let e = a.stop_last_profiling_section().unwrap_err();
        assert!(e.message.contains("no user-started profiling section"), "{e}");
        assert!(version_information().starts_with("Tidelink native engine"));
    }
}
