//! `precice.Participant`: pyprecice 3.x's class over a [`NativeParticipant`]. Each method does
//! pyprecice's argument checks (array-likeness, shapes, in its order and words), then the
//! engine's call; the calls that wait for partners release the interpreter and can be stopped
//! with Ctrl-C.

use crate::arrays::{array, check_array_like, floats, vertex_ids as ids_of, Values};
use crate::errors::to_py;
use crate::interrupt::SignalWatch;
use crate::process::check_process;
use pyo3::exceptions::{PyAssertionError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::path::PathBuf;
use tidelink_coupling::native::{Element, NativeParticipant, Settings};
use tidelink_coupling::{Coupling, CouplingData, CouplingError as EngineError, ErrorKind};

/// A name argument as pyprecice's `convert` takes it: `str` or UTF-8 `bytes`, read in place
/// (a `str`'s UTF-8 form is the object's own, kept by Python; no copy per call).
fn text<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let converted = if let Ok(s) = obj.cast::<PyString>() {
        s.to_str().ok()
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        std::str::from_utf8(b.as_bytes()).ok()
    } else {
        None
    };
    converted.ok_or_else(|| PyTypeError::new_err("Could not convert."))
}

/// The most (mesh, data) pairs whose component counts a participant keeps at hand: more than
/// any configuration uses per participant; past it the engine is asked each time.
const DATA_DIMS_CACHED: usize = 64;

fn assertion(message: String) -> PyErr {
    PyAssertionError::new_err(message)
}

/// Main Application Programming Interface of preCICE, on Tidelink's native engine: create a
/// Participant, define meshes, `initialize()`, then `advance()` until `is_coupling_ongoing()`
/// is false, and `finalize()`.
#[pyclass(module = "precice", name = "Participant", unsendable)]
pub(crate) struct Participant {
    inner: NativeParticipant,
    watch: SignalWatch,
    /// The components of the data `read_data` and `write_data` used so far, by (mesh, data)
    /// name: fixed by the configuration, and a string compare is cheaper than the engine's
    /// keyed lookup.
    data_dims_cache: Vec<(Box<str>, Box<str>, usize)>,
}

impl Participant {
    /// An engine error as the Python exception; an interrupt raises the caught exception
    /// (KeyboardInterrupt) after telling the partners why this participant stops.
    fn fail(&mut self, py: Python<'_>, e: EngineError) -> PyErr {
        if e.kind == ErrorKind::Interrupted {
            self.inner.abort(&e.message);
            if let Some(caught) = self.watch.take() {
                return caught;
            }
        } else if matches!(e.kind, ErrorKind::Partner | ErrorKind::Protocol | ErrorKind::Io) {
            self.inner.abort(&e.message);
        }
        to_py(py, e)
    }

    fn dims(&self, py: Python<'_>, mesh: &str) -> PyResult<usize> {
        self.inner.get_mesh_dimensions(mesh).map_err(|e| to_py(py, e))
    }

    fn data_dims(&self, py: Python<'_>, mesh: &str, data: &str) -> PyResult<usize> {
        self.inner.get_data_dimensions(mesh, data).map_err(|e| to_py(py, e))
    }

    /// `data_dims` through the cache of the data calls.
    fn cached_data_dims(&mut self, py: Python<'_>, mesh: &str, data: &str) -> PyResult<usize> {
        if let Some(&(_, _, d)) = self.data_dims_cache.iter().find(|(m, n, _)| **m == *mesh && **n == *data) {
            return Ok(d);
        }
        let d = self.data_dims(py, mesh, data)?;
        if self.data_dims_cache.len() < DATA_DIMS_CACHED {
            self.data_dims_cache.push((mesh.into(), data.into(), d));
        }
        Ok(d)
    }

    /// The `set_mesh_<elements>` calls: an [N x arity] array of vertex ids, pyprecice's checks.
    fn elements(
        &mut self,
        mesh: &Bound<'_, PyAny>,
        vertices: &Bound<'_, PyAny>,
        kind: Element,
        function: &str,
    ) -> PyResult<()> {
        let py = mesh.py();
        let mesh = text(mesh)?;
        check_array_like(vertices, "vertices", function)?;
        let a = py.import("numpy")?.call_method1("asarray", (vertices,))?;
        if a.len()? > 0 {
            let shape: Vec<usize> = a.getattr("shape")?.extract()?;
            if shape.len() != 2 {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "not enough values to unpack (expected 2, got {})",
                    shape.len()
                )));
            }
            if shape[1] != kind.arity() {
                return Err(assertion(format!(
                    "Provided vertices are not of a [N x {}] format, but instead of a [N x {}]",
                    kind.arity(),
                    shape[1]
                )));
            }
        }
        let ids = ids_of(&a)?;
        self.inner.set_mesh_elements(mesh, kind, ids.as_slice()?).map_err(|e| to_py(py, e))
    }

    fn element(&mut self, py: Python<'_>, mesh: &Bound<'_, PyAny>, ids: &[i32], kind: Element) -> PyResult<()> {
        let mesh = text(mesh)?;
        self.inner.set_mesh_element(mesh, kind, ids).map_err(|e| to_py(py, e))
    }
}

#[pymethods]
impl Participant {
    /// Creates participant `solver_name` of the preCICE configuration `configuration_file_name`.
    /// The native engine runs one process per participant: `solver_process_index` 0 of
    /// `solver_process_size` 1, and a `communicator` (mpi4py) of one rank if any.
    #[new]
    #[pyo3(signature = (solver_name, configuration_file_name, solver_process_index, solver_process_size, communicator=None))]
    fn new(
        py: Python<'_>,
        solver_name: &Bound<'_, PyAny>,
        configuration_file_name: &Bound<'_, PyAny>,
        solver_process_index: i64,
        solver_process_size: i64,
        communicator: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let name = text(solver_name)?;
        let config = PathBuf::from(text(configuration_file_name)?);
        let communicator = match communicator {
            Some(c) if c.is_truthy()? => Some(c),
            _ => None,
        };
        if name.is_empty() {
            return Err(to_py(py, EngineError::config("This participant's name is an empty string. When constructing a preCICE participant, please give the name of a <participant> of the preCICE configuration.")));
        }
        check_process(solver_process_index, solver_process_size, communicator)
            .map_err(|m| to_py(py, EngineError::config(m)))?;
        let watch = SignalWatch::default();
        let mut settings = Settings::from_env().map_err(|e| to_py(py, e))?;
        settings.interrupt = Some(watch.hook());
        let inner = NativeParticipant::with_settings(name, &config, settings).map_err(|e| to_py(py, e))?;
        Ok(Participant { inner, watch, data_dims_cache: Vec::new() })
    }

    /// Connects to the partners, exchanges meshes and initial data (waits for the partners).
    fn initialize(&mut self, py: Python<'_>) -> PyResult<()> {
        let inner = &mut self.inner;
        let r = py.detach(|| inner.initialize());
        r.map_err(|e| self.fail(py, e))
    }

    /// Ends a solver step of `computed_timestep_length`; at a window's end exchanges the data
    /// (waits for the partners).
    fn advance(&mut self, py: Python<'_>, computed_timestep_length: f64) -> PyResult<()> {
        let inner = &mut self.inner;
        let r = py.detach(|| inner.advance(computed_timestep_length));
        r.map_err(|e| self.fail(py, e))
    }

    /// Ends the coupling: tells the partners and closes the connections.
    fn finalize(&mut self, py: Python<'_>) -> PyResult<()> {
        self.inner.finalize().map_err(|e| to_py(py, e))
    }

    /// The spatial dimension (2 or 3) of mesh `mesh_name`.
    fn get_mesh_dimensions(&self, py: Python<'_>, mesh_name: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.dims(py, text(mesh_name)?)
    }

    /// The components of data `data_name` on mesh `mesh_name` (1 for scalar data).
    fn get_data_dimensions(
        &self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        data_name: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        self.data_dims(py, text(mesh_name)?, text(data_name)?)
    }

    /// False once the coupling has reached its end.
    fn is_coupling_ongoing(&self, py: Python<'_>) -> PyResult<bool> {
        self.inner.is_coupling_ongoing().map_err(|e| to_py(py, e))
    }

    /// True right after the step that completed a time window.
    fn is_time_window_complete(&self, py: Python<'_>) -> PyResult<bool> {
        self.inner.is_time_window_complete().map_err(|e| to_py(py, e))
    }

    /// The largest step the solver may take now (the rest of the time window).
    fn get_max_time_step_size(&self, py: Python<'_>) -> PyResult<f64> {
        self.inner.get_max_time_step_size().map_err(|e| to_py(py, e))
    }

    /// True when this participant must write initial data before `initialize()`.
    fn requires_initial_data(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.inner.requires_initial_data().map_err(|e| to_py(py, e))
    }

    /// True when the solver must save its state before the next `advance()`.
    fn requires_writing_checkpoint(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.inner.requires_writing_checkpoint().map_err(|e| to_py(py, e))
    }

    /// True when the solver must restore its saved state before the next `advance()`.
    fn requires_reading_checkpoint(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.inner.requires_reading_checkpoint().map_err(|e| to_py(py, e))
    }

    /// True when the mappings need the elements of mesh `mesh_name` (never with the native
    /// engine's nearest-neighbor mappings).
    fn requires_mesh_connectivity_for(&self, py: Python<'_>, mesh_name: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner.requires_mesh_connectivity_for(text(mesh_name)?).map_err(|e| to_py(py, e))
    }

    /// Creates one vertex at `position` (D coordinates); returns its id.
    fn set_mesh_vertex(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<i32> {
        let mesh = text(mesh_name)?;
        check_array_like(position, "position", "set_mesh_vertex")?;
        let p = floats(position)?;
        let n = p.py_len()?;
        if n > 0 {
            let d = self.dims(py, mesh)?;
            if n != d {
                return Err(assertion(format!("Dimensions of vertex coordinate in set_mesh_vertex does not match with dimensions in problem definition. Provided dimensions: {n}, expected dimensions: {d}")));
            }
        }
        let mut id = [0];
        self.inner.set_mesh_vertices(mesh, p.as_slice()?, &mut id).map_err(|e| to_py(py, e))?;
        Ok(id[0])
    }

    /// The number of vertices of mesh `mesh_name`.
    fn get_mesh_vertex_size(&self, py: Python<'_>, mesh_name: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.inner.get_mesh_vertex_size(text(mesh_name)?).map_err(|e| to_py(py, e))
    }

    /// Creates vertices at `positions` ([N x D]); returns their ids (int32, shape (N,)).
    fn set_mesh_vertices<'py>(
        &mut self,
        py: Python<'py>,
        mesh_name: &Bound<'py, PyAny>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mesh = text(mesh_name)?;
        check_array_like(positions, "positions", "set_mesh_vertices")?;
        let p = floats(positions)?;
        let sh = p.shape();
        let size = if sh.first().copied().unwrap_or(0) > 0 {
            if sh.len() != 2 {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "positions must be a [N x D] array, but it has shape {sh:?}"
                )));
            }
            let d = self.dims(py, mesh)?;
            if sh[1] != d {
                return Err(assertion(format!("Dimensions of vertex coordinates in set_mesh_vertices does not match with dimensions in problem definition. Provided dimensions: {}, expected dimensions: {d}", sh[1])));
            }
            sh[0]
        } else {
            0
        };
        let mut ids = vec![-1; size];
        self.inner.set_mesh_vertices(mesh, p.as_slice()?, &mut ids).map_err(|e| to_py(py, e))?;
        array(py, ids, &[size])
    }

    /// Sets an edge between two vertices (ignored unless the mesh requires connectivity).
    fn set_mesh_edge(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        first_vertex_id: i32,
        second_vertex_id: i32,
    ) -> PyResult<()> {
        self.element(py, mesh_name, &[first_vertex_id, second_vertex_id], Element::Edge)
    }

    /// Sets edges ([N x 2] vertex ids).
    fn set_mesh_edges(&mut self, mesh_name: &Bound<'_, PyAny>, vertices: &Bound<'_, PyAny>) -> PyResult<()> {
        self.elements(mesh_name, vertices, Element::Edge, "set_mesh_edges")
    }

    /// Sets a triangle of three vertices (ignored unless the mesh requires connectivity).
    fn set_mesh_triangle(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        first_vertex_id: i32,
        second_vertex_id: i32,
        third_vertex_id: i32,
    ) -> PyResult<()> {
        self.element(py, mesh_name, &[first_vertex_id, second_vertex_id, third_vertex_id], Element::Triangle)
    }

    /// Sets triangles ([N x 3] vertex ids).
    fn set_mesh_triangles(&mut self, mesh_name: &Bound<'_, PyAny>, vertices: &Bound<'_, PyAny>) -> PyResult<()> {
        self.elements(mesh_name, vertices, Element::Triangle, "set_mesh_triangles")
    }

    /// Sets a planar quad of four vertices (ignored unless the mesh requires connectivity).
    fn set_mesh_quad(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        first_vertex_id: i32,
        second_vertex_id: i32,
        third_vertex_id: i32,
        fourth_vertex_id: i32,
    ) -> PyResult<()> {
        let ids = [first_vertex_id, second_vertex_id, third_vertex_id, fourth_vertex_id];
        self.element(py, mesh_name, &ids, Element::Quad)
    }

    /// Sets quads ([N x 4] vertex ids).
    fn set_mesh_quads(&mut self, mesh_name: &Bound<'_, PyAny>, vertices: &Bound<'_, PyAny>) -> PyResult<()> {
        self.elements(mesh_name, vertices, Element::Quad, "set_mesh_quads")
    }

    /// Sets a tetrahedron of four vertices of a 3D mesh (ignored unless the mesh requires connectivity).
    fn set_mesh_tetrahedron(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        first_vertex_id: i32,
        second_vertex_id: i32,
        third_vertex_id: i32,
        fourth_vertex_id: i32,
    ) -> PyResult<()> {
        let ids = [first_vertex_id, second_vertex_id, third_vertex_id, fourth_vertex_id];
        self.element(py, mesh_name, &ids, Element::Tetrahedron)
    }

    /// Sets tetrahedra ([N x 4] vertex ids) of a 3D mesh.
    fn set_mesh_tetrahedra(&mut self, mesh_name: &Bound<'_, PyAny>, vertices: &Bound<'_, PyAny>) -> PyResult<()> {
        self.elements(mesh_name, vertices, Element::Tetrahedron, "set_mesh_tetrahedra")
    }

    /// Remeshing: refused by the native engine (experimental in preCICE).
    fn reset_mesh(&mut self, py: Python<'_>, mesh_name: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.reset_mesh(text(mesh_name)?).map_err(|e| to_py(py, e))
    }

    /// Writes `values` ([N] for scalar data, [N x D] for vector data) at `vertex_ids`.
    fn write_data(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        data_name: &Bound<'_, PyAny>,
        vertex_ids: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (mesh, data) = (text(mesh_name)?, text(data_name)?);
        check_array_like(vertex_ids, "vertex_ids", "write_data")?;
        check_array_like(values, "values", "write_data")?;
        let v = floats(values)?;
        let sh = v.shape();
        let size = if sh.first().copied().unwrap_or(0) == 0 {
            0
        } else if self.cached_data_dims(py, mesh, data)? == 1 {
            v.py_len()?
        } else {
            if sh.len() != 2 {
                return Err(assertion("Vector valued data has to be provided as a numpy array of shape [N x D] where N = number of vertices and D = number of dimensions.".into()));
            }
            let d = self.cached_data_dims(py, mesh, data)?;
            if sh[1] != d {
                return Err(assertion(format!("Dimensions of vector data in write_data do not match with dimensions in problem definition. Provided dimensions: {}, expected dimensions: {d}", sh[1])));
            }
            sh[0]
        };
        let ids = ids_of(vertex_ids)?;
        if ids.len() != size {
            return Err(assertion(format!("Vertex IDs are of incorrect length in write_data. Check length of vertex ids input. Provided size: {}, expected size: {size}", ids.len())));
        }
        self.inner.write_data(mesh, data, ids.as_slice()?, v.as_slice()?).map_err(|e| to_py(py, e))
    }

    /// Reads data at `vertex_ids`, `relative_read_time` after the current time: an array of
    /// shape (N,) for scalar data, (N, D) for vector data.
    fn read_data<'py>(
        &mut self,
        py: Python<'py>,
        mesh_name: &Bound<'py, PyAny>,
        data_name: &Bound<'py, PyAny>,
        vertex_ids: &Bound<'py, PyAny>,
        relative_read_time: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (mesh, data) = (text(mesh_name)?, text(data_name)?);
        check_array_like(vertex_ids, "vertex_ids", "read_data")?;
        let ids = ids_of(vertex_ids)?;
        let d = self.cached_data_dims(py, mesh, data)?;
        let mut values = Values::zeros(py, ids.len(), d)?;
        let out = values.as_mut_slice()?;
        self.inner.read_data(mesh, data, ids.as_slice()?, relative_read_time, out).map_err(|e| to_py(py, e))?;
        Ok(values.into_any())
    }

    /// Just-in-time mapping: refused by the native engine (it needs an api-access mesh).
    fn write_and_map_data(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        data_name: &Bound<'_, PyAny>,
        coordinates: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        check_array_like(coordinates, "coordinates", "write_and_map_data")?;
        check_array_like(values, "values", "write_and_map_data")?;
        let (c, v) = (floats(coordinates)?, floats(values)?);
        self.inner
            .write_and_map_data(text(mesh_name)?, text(data_name)?, c.as_slice()?, v.as_slice()?)
            .map_err(|e| to_py(py, e))
    }

    /// Just-in-time mapping: refused by the native engine (it needs an api-access mesh).
    fn map_and_read_data<'py>(
        &mut self,
        py: Python<'py>,
        mesh_name: &Bound<'py, PyAny>,
        data_name: &Bound<'py, PyAny>,
        coordinates: &Bound<'py, PyAny>,
        relative_read_time: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        check_array_like(coordinates, "coordinates", "map_and_read_data")?;
        let c = floats(coordinates)?;
        let v = self
            .inner
            .map_and_read_data(text(mesh_name)?, text(data_name)?, c.as_slice()?, relative_read_time)
            .map_err(|e| to_py(py, e))?;
        let n = v.len();
        array(py, v, &[n])
    }

    /// Writes gradients at `vertex_ids`: an [N x D] array, D = mesh dimensions × data
    /// dimensions, each row a vertex's partial derivatives, component by component
    /// (d/dx, d/dy[, d/dz] of the first component, then of the next). pyprecice's checks, then the engine's.
    fn write_gradient_data(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        data_name: &Bound<'_, PyAny>,
        vertex_ids: &Bound<'_, PyAny>,
        gradients: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (mesh, data) = (text(mesh_name)?, text(data_name)?);
        check_array_like(vertex_ids, "vertex_ids", "write_gradient_data")?;
        check_array_like(gradients, "gradients", "write_gradient_data")?;
        let g = floats(gradients)?;
        let sh = g.shape();
        let size = if sh.first().copied().unwrap_or(0) == 0 {
            0
        } else {
            // pyprecice unpacks `size, dimensions = gradients.shape`.
            if sh.len() != 2 {
                let msg = if sh.len() < 2 {
                    format!("not enough values to unpack (expected 2, got {})", sh.len())
                } else {
                    "too many values to unpack (expected 2)".to_string()
                };
                return Err(pyo3::exceptions::PyValueError::new_err(msg));
            }
            let expected = self.dims(py, mesh)? * self.data_dims(py, mesh, data)?;
            if sh[1] != expected {
                return Err(assertion(format!("Dimensions of vector data in write_gradient_data does not match with dimensions in problem definition. Provided dimensions: {}, expected dimensions: {expected}", sh[1])));
            }
            sh[0]
        };
        let ids = ids_of(vertex_ids)?;
        let expected = size * self.dims(py, mesh)? * self.data_dims(py, mesh, data)?;
        // pyprecice compares the flattened size.
        let flat: usize = sh.iter().product();
        if flat != expected {
            return Err(assertion(format!("Dimension of gradient data provided in write_gradient_data does not match problem definition. Check length of input data provided. Provided size: {flat}, expected size: {expected}")));
        }
        if ids.len() != size {
            return Err(assertion(format!("Vertex IDs are of incorrect length in write_gradient_data. Check length of vertex ids input. Provided size: {}, expected size: {size}", ids.len())));
        }
        self.inner.write_gradient_data(mesh, data, ids.as_slice()?, g.as_slice()?).map_err(|e| to_py(py, e))
    }

    /// True when this participant writes `data_name` on `mesh_name` and a
    /// nearest-neighbor-gradient mapping of the run needs its gradients.
    fn requires_gradient_data_for(
        &self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        data_name: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        self.inner.requires_gradient_data_for(text(mesh_name)?, text(data_name)?).map_err(|e| to_py(py, e))
    }

    /// Direct access: refused by the native engine (it needs an api-access mesh).
    fn set_mesh_access_region(
        &mut self,
        py: Python<'_>,
        mesh_name: &Bound<'_, PyAny>,
        bounding_box: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let mesh = text(mesh_name)?;
        check_array_like(bounding_box, "bounding_box", "set_mesh_access_region")?;
        let b = floats(bounding_box)?;
        if b.py_len()? == 0 {
            return Err(assertion("Bounding box cannot be empty.".into()));
        }
        if b.py_len()? != 2 * self.dims(py, mesh)? {
            return Err(assertion("Dimensions of bounding box in set_mesh_access_region does not match with dimensions in problem definition.".into()));
        }
        self.inner.set_mesh_access_region(mesh, b.as_slice()?).map_err(|e| to_py(py, e))
    }

    /// Direct access: refused by the native engine (it needs an api-access mesh).
    fn get_mesh_vertex_ids_and_coordinates<'py>(
        &self,
        py: Python<'py>,
        mesh_name: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let mesh = text(mesh_name)?;
        let (ids, coords) = self.inner.get_mesh_vertex_ids_and_coordinates(mesh).map_err(|e| to_py(py, e))?;
        let d = self.dims(py, mesh)?;
        let n = ids.len();
        Ok((array(py, ids, &[n])?, array(py, coords, &[n, d])?))
    }

    /// Opens a user profiling section (no `/` in `event_name`).
    fn start_profiling_section(&mut self, py: Python<'_>, event_name: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.start_profiling_section(text(event_name)?).map_err(|e| to_py(py, e))
    }

    /// Closes the innermost user profiling section.
    fn stop_last_profiling_section(&mut self, py: Python<'_>) -> PyResult<()> {
        self.inner.stop_last_profiling_section().map_err(|e| to_py(py, e))
    }

    /// The engine's version line (bytes, as the module-level function).
    fn get_version_information(&self) -> Vec<u8> {
        crate::get_version_information()
    }
}
