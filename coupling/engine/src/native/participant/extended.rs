//! The rest of preCICE v3's participant API, beyond the calls adapters use (`Coupling`):
//! mesh connectivity, gradient data, direct access, just-in-time mapping, remeshing and
//! profiling sections. Language bindings (the Python module) offer them under pyprecice's
//! names; each either does what libprecice does or fails with the reason the native engine
//! cannot (docs/design/coupling-semantics.md §2.13).

use super::*;
use crate::native::mesh::{split_quad, QuadError};

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

    /// Whether the mappings of this run need the elements of `mesh` (a mapping of this
    /// participant, or of one that receives the mesh from it, searches its edges, triangles
    /// or cells, or scales by its integrals). Elements given for other meshes are ignored.
    pub fn requires_mesh_connectivity_for(&self, mesh: &str) -> Result<bool> {
        self.mesh(mesh)?;
        Ok(self.cfg.needs_connectivity(&self.name, mesh))
    }

    /// The checks every element call makes first, in libprecice's order: the mesh may be
    /// changed, tetrahedra only on 3D meshes; then whether the elements are kept at all.
    fn elements_wanted(&self, mesh: &str, kind: Element) -> Result<bool> {
        let m = self.require_mesh_modify(mesh, kind.plural())?;
        if kind == Element::Tetrahedron && m.dim != 3 {
            return misuse(format!(
                "setMeshTetrahedron is only possible for 3D meshes (mesh \"{mesh}\" has {} dimensions). Please set the \
                 mesh dimension to 3 in the preCICE configuration file.",
                m.dim
            ));
        }
        self.requires_mesh_connectivity_for(mesh)
    }

    /// Adds one element of `kind` (`kind.arity()` vertex ids) to `mesh`, with the checks of
    /// libprecice's singular calls (`setMeshEdge`, `setMeshTriangle`, ...). Ignored, after the
    /// mesh checks, when no mapping needs the mesh's elements.
    pub fn set_mesh_element(&mut self, mesh: &str, kind: Element, ids: &[VertexId]) -> Result<()> {
        if !self.elements_wanted(mesh, kind)? {
            return Ok(());
        }
        if ids.len() != kind.arity() {
            return misuse(format!(
                "A single element of kind {} on mesh \"{mesh}\" takes {} vertex ids, not {}.",
                kind.plural(),
                kind.arity(),
                ids.len()
            ));
        }
        let n = self.store.meshes[mesh].vertex_count();
        if let Some(&bad) = ids.iter().find(|&&i| i < 0 || i as usize >= n) {
            return misuse(format!(
                "The given VertexID \"{bad}\" is invalid. Check that it originated from a call to setMeshVertex() or \
                 setMeshVertices()."
            ));
        }
        let unique = (0..ids.len()).all(|i| !ids[i + 1..].contains(&ids[i]));
        match kind {
            Element::Triangle if !unique => {
                return misuse(format!(
                    "setMeshTriangle() was called with repeated Vertex IDs ({}, {}, {}).",
                    ids[0], ids[1], ids[2]
                ))
            }
            Element::Quad if !unique => return misuse(
                "The four vertex ID's are not unique. Please check that the vertices that form the quad are correct.",
            ),
            _ => {}
        }
        self.store_elements(mesh, kind, ids, false)
    }

    /// Adds elements of `kind` (flat vertex ids, `kind.arity()` per element) to `mesh`, with
    /// the checks of libprecice's plural calls (`setMeshEdges`, ...). As in libprecice,
    /// elements are ignored when no mapping needs them
    /// ([`requires_mesh_connectivity_for`](Self::requires_mesh_connectivity_for) is false),
    /// after the mesh checks; tetrahedra on a 2D mesh are an error even then.
    pub fn set_mesh_elements(&mut self, mesh: &str, kind: Element, ids: &[VertexId]) -> Result<()> {
        if !self.elements_wanted(mesh, kind)? {
            return Ok(());
        }
        if !ids.len().is_multiple_of(kind.arity()) {
            return misuse(format!(
                "Cannot interpret passed vertex IDs attempting to set {} of mesh \"{mesh}\". You passed {} vertex \
                 indices, which is not a multiple of {}.",
                kind.plural(),
                ids.len(),
                kind.arity()
            ));
        }
        let n = self.store.meshes[mesh].vertex_count();
        let bad = |i: &VertexId| *i < 0 || *i as usize >= n;
        if let Some(first) = ids.iter().position(bad) {
            let last = first + ids[first..].iter().take_while(|i| bad(i)).count() - 1;
            return misuse(format!(
                "The given range of VertexIDs contains invalid IDs at offsets [{first},{last}]. Check that they \
                 originated from calls to setMeshVertex() or setMeshVertices()."
            ));
        }
        for (k, q) in ids.chunks_exact(4).enumerate().filter(|_| kind == Element::Quad) {
            if (0..4).any(|i| q[i + 1..].contains(&q[i])) {
                return misuse(format!(
                    "The four vertex ID's of the quad nr {k} are not unique. Please check that the vertices that form \
                     the quad are correct."
                ));
            }
        }
        self.store_elements(mesh, kind, ids, true)
    }

    /// Stores checked elements; quads are split into two triangles (or refused by their shape,
    /// numbered in the message when `plural`).
    fn store_elements(&mut self, mesh: &str, kind: Element, ids: &[VertexId], plural: bool) -> Result<()> {
        let m = self.store.meshes.get_mut(mesh).expect("checked");
        let u = |i: VertexId| i as usize;
        match kind {
            Element::Edge => m.connectivity.edges.extend(ids.chunks_exact(2).map(|e| [u(e[0]), u(e[1])])),
            Element::Triangle => {
                m.connectivity.triangles.extend(ids.chunks_exact(3).map(|t| [u(t[0]), u(t[1]), u(t[2])]))
            }
            Element::Tetrahedron => {
                m.connectivity.tetrahedra.extend(ids.chunks_exact(4).map(|t| [u(t[0]), u(t[1]), u(t[2]), u(t[3])]))
            }
            Element::Quad => {
                let mut split = Vec::with_capacity(ids.len() / 2);
                for (k, q) in ids.chunks_exact(4).enumerate() {
                    let corners = [u(q[0]), u(q[1]), u(q[2]), u(q[3])];
                    let at = corners.map(|i| m.vertex(i));
                    let nr = if plural { format!(" nr {k}") } else { String::new() };
                    match split_quad(corners, at) {
                        Ok(two) => split.extend(two),
                        Err(QuadError::RepeatedCorner) => {
                            return misuse(format!(
                                "The four vertices that form the quad{nr} are not unique. The resulting shape may be a \
                                 point, line or triangle. Please check that the adapter sends the four unique vertices \
                                 that form the quad, or that the mesh on the interface is composed of quads."
                            ))
                        }
                        Err(QuadError::NonPlanar) => {
                            return misuse(format!(
                                "Non-planar quads are not supported: the quad{nr} on mesh \"{mesh}\" has corners {:?}.",
                                at
                            ))
                        }
                        Err(QuadError::NotConvex) => {
                            return misuse(format!(
                                "The given quad{nr} is not convex. Please check that the adapter send the four correct \
                                 vertices or that the interface is composed of quads."
                            ))
                        }
                    }
                }
                m.connectivity.triangles.extend(split);
            }
        }
        Ok(())
    }

    /// Whether the solver must write gradients of `data` on `mesh`
    /// ([`write_gradient_data`](Self::write_gradient_data)): it writes the datum, and a
    /// nearest-neighbor-gradient mapping of this run (its own write mapping, or a read mapping
    /// of a participant that receives the mesh) maps it from there. Data it reads never do.
    ///
    /// As libprecice, the datum's name is checked against every mesh of the participant (a
    /// datum on a received mesh this participant does not exchange is `false`, not an error).
    pub fn requires_gradient_data_for(&self, mesh: &str, data: &str) -> Result<bool> {
        self.mesh(mesh)?;
        let uses = |m: &str| self.cfg.mesh(m).is_some_and(|d| d.use_data.iter().any(|u| u == data));
        if !self.store.meshes.keys().any(|m| uses(m)) {
            return Err(self.data_error(mesh, data));
        }
        Ok(self.write_keys.contains(&DataKey::new(mesh, data)) && self.cfg.needs_gradients(mesh, data))
    }

    /// Writes the gradients of `data` at vertices `ids` for the current step: per vertex, per
    /// component of the datum, its partial derivatives along the mesh's axes (row layout,
    /// `ids.len() × components × mesh dimension` values). libprecice's checks in its order:
    /// the experimental API, finalize, the mesh and datum; then the call is ignored when
    /// empty or when no gradients are required; then ids, then sizes.
    pub fn write_gradient_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], gradients: &[f64]) -> Result<()> {
        if !self.cfg.experimental {
            return misuse(
                "You called the API function \"writeGradientData\", which is part of the experimental API. You may \
                 unlock the full API by specifying <precice-configuration experimental=\"true\" ... > in the \
                 configuration. Please be aware that experimental features may change in any future version (even \
                 minor or bugfix).",
            );
        }
        if self.state == State::Finalized {
            return misuse("writeGradientData(...) cannot be called after finalize().");
        }
        self.require_data_write(mesh, data)?;
        if (ids.is_empty() && gradients.is_empty()) || !self.requires_gradient_data_for(mesh, data)? {
            return Ok(());
        }
        let key = DataKey::new(mesh, data);
        let m = &self.store.meshes[mesh];
        let (n, dim, c) = (m.vertex_count(), m.dim, self.store.data[&key].components);
        if let Some(i) = ids.iter().position(|&id| id < 0 || id as usize >= n) {
            return misuse(format!(
                "Cannot write gradient data \"{data}\" to mesh \"{mesh}\" due to invalid Vertex ID at vertices[{i}]. \
                 Please make sure you only use the results from calls to setMeshVertex/Vertices()."
            ));
        }
        let per_vertex = c * dim;
        if gradients.len() != ids.len() * per_vertex {
            return misuse(format!(
                "Input sizes are inconsistent attempting to write gradient for data \"{data}\" to mesh \"{mesh}\". A \
                 single gradient/Jacobian for {c}D data on a {dim}D mesh has {per_vertex} components. You passed {} \
                 vertex indices and {} gradient components, but we expected {} gradient components. ",
                ids.len(),
                gradients.len(),
                ids.len() * per_vertex
            ));
        }
        // As write_data: a non-finite gradient would spread into every mapped value.
        if let Some(i) = gradients.iter().position(|g| !g.is_finite()) {
            return misuse(format!(
                "participant \"{}\" wrote a non-finite gradient ({}) for data \"{data}\" on mesh \"{mesh}\" at vertex {} \
                 (component {}, direction {}): the solver has probably diverged.",
                self.name,
                gradients[i],
                ids[i / per_vertex],
                i % per_vertex / dim,
                i % dim
            ));
        }
        let d = self.store.data.get_mut(&key).expect("checked");
        let buf = d.gradient_buffer.as_mut().expect("a datum that requires gradients has a gradient buffer");
        // Vertices may still be added before initialize (interleaved with writes).
        if buf.len() != n * per_vertex {
            buf.resize(n * per_vertex, 0.0);
        }
        for (k, &id) in ids.iter().enumerate() {
            let id = id as usize;
            buf[id * per_vertex..(id + 1) * per_vertex]
                .copy_from_slice(&gradients[k * per_vertex..(k + 1) * per_vertex]);
        }
        Ok(())
    }

    /// libprecice's `PRECICE_REQUIRE_DATA_WRITE`: the mesh is known and provided (direct
    /// access the native engine refuses), the datum known and written by this participant.
    fn require_data_write(&self, mesh: &str, data: &str) -> Result<()> {
        if !self.mesh(mesh)?.provided {
            return misuse(format!(
                "This participant does not provide Mesh \"{mesh}\" nor does it enable direct access to it. To provide \
                 the mesh add a provide-mesh tag as follows <provide-mesh name=\"{mesh}\" />. To enable direct access to \
                 the mesh please add a receive-mesh tag as follows <receive-mesh name=\"{mesh}\" from=\"...\" \
                 api-access=\"true\" />, or modify an existing one. "
            ));
        }
        self.get_data_dimensions(mesh, data)?;
        if !self.write_keys.contains(&DataKey::new(mesh, data)) {
            return misuse(format!(
                "This participant does not use data \"{data}\" via mesh \"{mesh}\", but attempted to write it. Please \
                 extend the configuration of participant \"{}\" by defining <write-data mesh=\"{mesh}\" name=\"{data}\" /> \
                 or check if the data is defined on this mesh.",
                self.name
            ));
        }
        Ok(())
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

    /// `XML` with B mapping A's mesh by nearest projection: A must store and send its elements.
    fn projecting(name: &str, dim: usize) -> NativeParticipant {
        let xml = XML
            .replace("mapping:nearest-neighbor", "mapping:nearest-projection")
            .replace("dimensions=\"2\"", &format!("dimensions=\"{dim}\""));
        let (cfg, _) = tidelink_precice_config::parse_str(&xml, Path::new("np.xml")).expect("valid configuration");
        NativeParticipant::from_config_with(name, cfg, Settings::default()).expect("participant")
    }

    #[test]
    fn elements_are_checked_as_libprecice_checks_them_and_stored_when_a_mapping_needs_them() {
        let mut a = projecting("A", 3);
        assert!(a.requires_mesh_connectivity_for("A-Mesh").unwrap());
        let mut ids = [0; 5];
        let square = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5, 0.5, 1.0];
        a.set_mesh_vertices("A-Mesh", &square, &mut ids).unwrap();
        let e = a.set_mesh_element("A-Mesh", Element::Triangle, &[0, 1, 1]).unwrap_err();
        assert_eq!(e.message, "setMeshTriangle() was called with repeated Vertex IDs (0, 1, 1).");
        let e = a.set_mesh_element("A-Mesh", Element::Edge, &[0, 5]).unwrap_err();
        assert!(e.message.starts_with("The given VertexID \"5\" is invalid."), "{e}");
        let e = a.set_mesh_elements("A-Mesh", Element::Triangle, &[0, 1, 2, 7, 8, 3]).unwrap_err();
        assert!(e.message.starts_with("The given range of VertexIDs contains invalid IDs at offsets [3,4]."), "{e}");
        let e = a.set_mesh_elements("A-Mesh", Element::Edge, &[0, 1, 2]).unwrap_err();
        assert!(e.message.contains("You passed 3 vertex indices, which is not a multiple of 2"), "{e}");
        let e = a.set_mesh_elements("A-Mesh", Element::Quad, &[0, 1, 2, 4]).unwrap_err();
        assert!(e.message.starts_with("Non-planar quads are not supported: the quad nr 0"), "{e}");
        let e = a.set_mesh_element("A-Mesh", Element::Quad, &[0, 1, 3, 2]).map(|_| ());
        assert!(e.is_ok(), "corners in any order: {e:?}");
        a.set_mesh_elements("A-Mesh", Element::Tetrahedron, &[0, 1, 2, 4]).unwrap();
        a.set_mesh_elements("A-Mesh", Element::Edge, &[1, 0]).unwrap();
        let c = &a.store.meshes["A-Mesh"].connectivity;
        // The unit square split along a diagonal of equal length: the one through the first hull corner (0).
        let mut triangles = c.triangles.clone();
        triangles.iter_mut().for_each(|t| t.sort());
        triangles.sort();
        assert_eq!(triangles, vec![[0, 1, 2], [0, 2, 3]]);
        assert_eq!(c.tetrahedra, vec![[0, 1, 2, 4]]);
        assert_eq!(c.edges, vec![[1, 0]]);
        // On a 2D mesh tetrahedra are refused before anything else.
        let mut a2 = projecting("A", 2);
        let e = a2.set_mesh_elements("A-Mesh", Element::Tetrahedron, &[0, 1, 2, 3]).unwrap_err();
        assert!(e.message.contains("only possible for 3D meshes"), "{e}");
    }

    /// `XML` with B mapping A's mesh by nearest-neighbor-gradient, a vector datum V beside T,
    /// and `experimental` on the root tag.
    fn with_gradients(name: &str, experimental: bool) -> NativeParticipant {
        let xml = XML
            .replace("mapping:nearest-neighbor ", "mapping:nearest-neighbor-gradient ")
            .replace(r#"<data:scalar name="T"/>"#, r#"<data:scalar name="T"/><data:vector name="V"/>"#)
            .replace(r#"<use-data name="T"/>"#, r#"<use-data name="T"/><use-data name="V"/>"#)
            .replace(
                r#"<write-data name="T" mesh="A-Mesh"/>"#,
                r#"<write-data name="T" mesh="A-Mesh"/><write-data name="V" mesh="A-Mesh"/>"#,
            )
            .replace(
                r#"<read-data name="T" mesh="B-Mesh"/>"#,
                r#"<read-data name="T" mesh="B-Mesh"/><read-data name="V" mesh="B-Mesh"/>"#,
            )
            .replace("<precice-configuration>", &format!("<precice-configuration experimental=\"{experimental}\">"))
            .replace(
                "</coupling-scheme:serial-explicit>",
                r#"<exchange data="V" mesh="A-Mesh" from="A" to="B"/></coupling-scheme:serial-explicit>"#,
            );
        let (cfg, _) = tidelink_precice_config::parse_str(&xml, Path::new("nng.xml")).expect("valid configuration");
        NativeParticipant::from_config_with(name, cfg, Settings::default()).expect("participant")
    }

    #[test]
    fn gradients_are_required_of_the_writer_of_the_mapped_data_only() {
        let a = with_gradients("A", true);
        assert!(a.requires_gradient_data_for("A-Mesh", "T").unwrap());
        assert!(a.requires_gradient_data_for("A-Mesh", "V").unwrap());
        let b = with_gradients("B", true);
        assert!(!b.requires_gradient_data_for("B-Mesh", "T").unwrap(), "read data never require gradients");
        assert!(!b.requires_gradient_data_for("A-Mesh", "T").unwrap());
        let e = a.requires_gradient_data_for("A-Mesh", "X").unwrap_err();
        assert_eq!(e.message, "The given data \"X\" is unknown to preCICE mesh \"A-Mesh\". Did you mean data \"T\"?");
    }

    #[test]
    fn gradient_writes_are_checked_in_libprecices_order_with_its_words() {
        let mut a = with_gradients("A", false);
        let e = a.write_gradient_data("A-Mesh", "T", &[0], &[1.0, 2.0]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Misuse);
        assert!(
            e.message.starts_with(
                "You called the API function \"writeGradientData\", which is part of the experimental API."
            ),
            "experimental first, before any name: {e}"
        );
        let mut a = with_gradients("A", true);
        let mut ids = [0; 2];
        a.set_mesh_vertices("A-Mesh", &[0.0, 0.0, 1.0, 0.0], &mut ids).unwrap();
        let e = a.write_gradient_data("Nope", "T", &[0], &[1.0, 2.0]).unwrap_err();
        assert!(e.message.starts_with("The mesh named \"Nope\" is unknown to preCICE."), "{e}");
        let e = a.write_gradient_data("A-Mesh", "X", &[0], &[1.0, 2.0]).unwrap_err();
        assert!(e.message.starts_with("The given data \"X\" is unknown to preCICE mesh \"A-Mesh\"."), "{e}");
        // Empty calls return before any further check.
        a.write_gradient_data("A-Mesh", "T", &[], &[]).unwrap();
        // Ids before sizes, as libprecice checks them.
        let e = a.write_gradient_data("A-Mesh", "T", &[0, 2], &[1.0]).unwrap_err();
        assert_eq!(
            e.message,
            "Cannot write gradient data \"T\" to mesh \"A-Mesh\" due to invalid Vertex ID at vertices[1]. Please make \
             sure you only use the results from calls to setMeshVertex/Vertices()."
        );
        let e = a.write_gradient_data("A-Mesh", "V", &[0, 1], &[1.0; 6]).unwrap_err();
        assert_eq!(
            e.message,
            "Input sizes are inconsistent attempting to write gradient for data \"V\" to mesh \"A-Mesh\". A single \
             gradient/Jacobian for 2D data on a 2D mesh has 4 components. You passed 2 vertex indices and 6 gradient \
             components, but we expected 8 gradient components. "
        );
        let e = a.write_gradient_data("A-Mesh", "T", &[1], &[f64::NAN, 0.0]).unwrap_err();
        assert!(e.message.contains("non-finite gradient (NaN)"), "{e}");
        // Row layout: vertex 1's rows land at its place in the buffer.
        a.write_gradient_data("A-Mesh", "V", &[1], &[1.0, 2.0, 3.0, 4.0]).unwrap();
        let buf = a.store.data[&DataKey::new("A-Mesh", "V")].gradient_buffer.clone().unwrap();
        assert_eq!(buf, [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
        // B writes no gradients: its read data is not its to write; ignored where nothing requires them.
        let mut b = with_gradients("B", true);
        let e = b.write_gradient_data("B-Mesh", "T", &[0], &[1.0, 2.0]).unwrap_err();
        assert!(
            e.message.starts_with(
                "This participant does not use data \"T\" via mesh \"B-Mesh\", but attempted to write it."
            ),
            "{e}"
        );
        let e = b.write_gradient_data("A-Mesh", "T", &[0], &[1.0, 2.0]).unwrap_err();
        assert!(
            e.message.starts_with("This participant does not provide Mesh \"A-Mesh\" nor does it enable direct access"),
            "{e}"
        );
        let xml = XML.replace("<precice-configuration>", r#"<precice-configuration experimental="true">"#);
        let (cfg, _) = tidelink_precice_config::parse_str(&xml, Path::new("nn.xml")).expect("valid configuration");
        let mut plain = NativeParticipant::from_config_with("A", cfg, Settings::default()).expect("participant");
        assert!(!plain.requires_gradient_data_for("A-Mesh", "T").unwrap());
        plain.write_gradient_data("A-Mesh", "T", &[7], &[1.0]).expect("ignored unchecked: nothing requires it");
    }

    #[test]
    fn refused_calls_name_the_reason_after_the_name_checks() {
        let mut b = participant("B");
        assert!(!b.requires_gradient_data_for("B-Mesh", "T").unwrap());
        let e = b.requires_gradient_data_for("B-Mesh", "X").unwrap_err();
        assert!(e.message.contains("unknown to preCICE mesh"), "{e}");
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
    }
}
