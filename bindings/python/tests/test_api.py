"""The module's API in one process (no partner needed): pyprecice's names, argument checks,
numpy types, and the engine's errors for misuse, each with its kind and message."""

import unittest

import numpy as np
import precice

import support


class Api(unittest.TestCase):
    def setUp(self):
        self.case = support.Case(self, support.EXPLICIT_XML)

    def participant(self, name="A"):
        return precice.Participant(name, self.case.config, 0, 1)

    def assertEngineError(self, kind, fragment, call, *args):
        with self.assertRaises(RuntimeError) as cm:
            call(*args)
        self.assertIsInstance(cm.exception, precice.CouplingError)
        self.assertEqual(cm.exception.kind, kind, str(cm.exception))
        self.assertIn(fragment, str(cm.exception))

    def test_module_level_names_are_pyprecice_s(self):
        info = precice.get_version_information()
        self.assertIsInstance(info, bytes, "pyprecice returns the C++ std::string as bytes")
        # libprecice's shape, VERSION;REVISION;FEATURES: tools check the first field for a 3.
        fields = info.split(b";")
        self.assertTrue(fields[0].startswith(b"3."), info)
        self.assertTrue(fields[1].startswith(b"Tidelink native engine"), info)
        self.assertIsInstance(precice.__version__, str)
        self.assertTrue(issubclass(precice.CouplingError, RuntimeError))

    def test_construction_checks_come_in_libprecice_order(self):
        cfg = self.case.config
        self.assertEngineError("config", "empty string", precice.Participant, "", cfg, 0, 1)
        self.assertEngineError("config", "non-negative", precice.Participant, "A", cfg, -1, 1)
        self.assertEngineError("config", "positive number", precice.Participant, "A", cfg, 0, 0)
        self.assertEngineError("config", "needs to be smaller than", precice.Participant, "A", cfg, 1, 1)
        self.assertEngineError("config", "one process", precice.Participant, "A", cfg, 0, 2)
        self.assertEngineError("config", "unable to open", precice.Participant, "A", "nope.xml", 0, 1)
        self.assertEngineError("config", "not defined", precice.Participant, "C", cfg, 0, 1)
        with self.assertRaises(TypeError):
            precice.Participant(3, cfg, 0, 1)
        # bytes names are taken as pyprecice's `convert` does.
        precice.Participant(b"A", cfg.encode(), 0, 1)

    def test_a_communicator_of_one_rank_is_accepted_and_of_more_refused(self):
        class Comm:
            def __init__(self, n):
                self.n = n

            def Get_size(self):
                return self.n

        self.participant().finalize()
        precice.Participant("A", self.case.config, 0, 1, Comm(1))
        self.assertEngineError("config", "communicator has 4 ranks", precice.Participant, "A", self.case.config, 0, 1, Comm(4))
        self.assertEngineError("config", "MPI communicator", precice.Participant, "A", self.case.config, 0, 1, object())

    def test_vertices_in_numpy_shapes_and_dtypes(self):
        a = self.participant()
        self.assertEqual(a.get_mesh_dimensions("A-Mesh"), 2)
        self.assertEqual(a.get_data_dimensions("A-Mesh", "Heat"), 1)
        self.assertEqual(a.get_data_dimensions("A-Mesh", "Flow"), 2)
        self.assertEqual(a.set_mesh_vertex("A-Mesh", [0.5, 0.5]), 0)
        ids = a.set_mesh_vertices("A-Mesh", np.array([[1, 0], [2, 0], [3, 0]]))
        self.assertIsInstance(ids, np.ndarray)
        self.assertEqual(ids.dtype, np.int32)
        self.assertEqual(ids.tolist(), [1, 2, 3])
        self.assertEqual(a.set_mesh_vertices("A-Mesh", [[4.0, 0.0]]).tolist(), [4], "lists are array-like")
        self.assertEqual(a.set_mesh_vertices("A-Mesh", np.zeros((0, 2))).tolist(), [])
        self.assertEqual(a.get_mesh_vertex_size("A-Mesh"), 5)
        with self.assertRaises(AssertionError):
            a.set_mesh_vertices("A-Mesh", np.zeros((2, 3)))
        with self.assertRaises(AssertionError):
            a.set_mesh_vertex("A-Mesh", [1.0, 2.0, 3.0])
        with self.assertRaises(TypeError):
            a.set_mesh_vertex("A-Mesh", 1.0)
        self.assertEngineError("misuse", "is unknown to preCICE", a.get_mesh_dimensions, "Nope")
        self.assertEngineError("misuse", "unknown to preCICE mesh", a.get_data_dimensions, "A-Mesh", "Nope")

    def test_connectivity_is_accepted_and_ignored_as_no_native_mapping_needs_it(self):
        a = self.participant()
        a.set_mesh_vertices("A-Mesh", np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
        self.assertFalse(a.requires_mesh_connectivity_for("A-Mesh"))
        a.set_mesh_edge("A-Mesh", 0, 1)
        a.set_mesh_edges("A-Mesh", np.array([[0, 1], [1, 2]]))
        a.set_mesh_triangle("A-Mesh", 0, 1, 2)
        a.set_mesh_triangles("A-Mesh", [[0, 1, 2]])
        a.set_mesh_quad("A-Mesh", 0, 1, 3, 2)
        a.set_mesh_quads("A-Mesh", np.array([[0, 1, 3, 2]]))
        with self.assertRaises(AssertionError):
            a.set_mesh_edges("A-Mesh", np.array([[0, 1, 2]]))
        with self.assertRaises(TypeError):
            a.set_mesh_edges("A-Mesh", np.array([[0.5, 1.0]]))
        self.assertEngineError("misuse", "only possible for 3D meshes", a.set_mesh_tetrahedron, "A-Mesh", 0, 1, 2, 3)
        b = self.participant("B")
        self.assertEngineError("misuse", "does not provide Mesh", b.set_mesh_edge, "A-Mesh", 0, 1)

    def test_gradients_are_required_of_the_writer_and_taken_in_pyprecice_s_shapes(self):
        case = support.Case(self, support.GRADIENT_XML)
        a = precice.Participant("A", case.config, 0, 1)
        b = precice.Participant("B", case.config, 0, 1)
        self.assertTrue(a.requires_gradient_data_for("A-Mesh", "Heat"))
        self.assertTrue(a.requires_gradient_data_for("A-Mesh", "Flow"))
        self.assertFalse(b.requires_gradient_data_for("B-Mesh", "Heat"), "read data never require gradients")
        ids = a.set_mesh_vertices("A-Mesh", np.array([[0.0, 0.0], [1.0, 0.0]]))
        # (N, mesh dims x data dims): 2 for scalar data in 2D, 4 for vector data; lists too.
        a.write_gradient_data("A-Mesh", "Heat", ids, np.array([[1.0, 2.0], [3.0, 4.0]]))
        a.write_gradient_data("A-Mesh", "Flow", ids, [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
        a.write_gradient_data("A-Mesh", "Heat", [], np.zeros((0, 2)))
        with self.assertRaises(ValueError):
            a.write_gradient_data("A-Mesh", "Heat", ids, np.array([1.0, 2.0, 3.0, 4.0]))
        with self.assertRaises(AssertionError):
            a.write_gradient_data("A-Mesh", "Flow", ids, np.zeros((2, 2)))
        with self.assertRaises(AssertionError):
            a.write_gradient_data("A-Mesh", "Heat", [0], np.zeros((2, 2)))
        with self.assertRaises(TypeError):
            a.write_gradient_data("A-Mesh", "Heat", ids, 1.0)
        self.assertEngineError("misuse", "invalid Vertex ID at vertices[1]", a.write_gradient_data, "A-Mesh", "Heat", [0, 7], np.zeros((2, 2)))
        self.assertEngineError("misuse", "does not use data \"Heat\" via mesh \"B-Mesh\", but attempted to write it", b.write_gradient_data, "B-Mesh", "Heat", [0], [[1.0, 2.0]])
        self.assertEngineError("misuse", "is unknown to preCICE", a.requires_gradient_data_for, "Nope", "Heat")

    def test_refused_features_raise_the_engine_s_reason(self):
        b = self.participant("B")
        self.assertFalse(b.requires_gradient_data_for("B-Mesh", "Heat"))
        self.assertEngineError("misuse", "part of the experimental API", b.write_gradient_data, "B-Mesh", "Heat", [0], [[1.0, 2.0]])
        self.assertEngineError("misuse", "api-access", b.set_mesh_access_region, "A-Mesh", [0.0, 1.0, 0.0, 1.0])
        with self.assertRaises(AssertionError):
            b.set_mesh_access_region("A-Mesh", [0.0, 1.0])
        self.assertEngineError("misuse", "api-access", b.get_mesh_vertex_ids_and_coordinates, "A-Mesh")
        self.assertEngineError("misuse", "api-access", b.map_and_read_data, "A-Mesh", "Heat", [[0.0, 0.0]], 0.0)
        self.assertEngineError("misuse", "api-access", b.write_and_map_data, "A-Mesh", "Heat", [[0.0, 0.0]], [1.0])
        self.assertEngineError("misuse", "remeshing", b.reset_mesh, "B-Mesh")
        b.start_profiling_section("solve")
        b.stop_last_profiling_section()
        self.assertEngineError("misuse", "no user-started", b.stop_last_profiling_section)

    def test_misuse_before_initialize_is_refused_with_preCICE_s_words(self):
        a = self.participant()
        a.set_mesh_vertices("A-Mesh", np.zeros((2, 2)))
        self.assertEngineError("misuse", "initialize() has to be called before", a.advance, 0.1)
        self.assertEngineError("misuse", "initialize() has to be called before", a.get_max_time_step_size)
        self.assertEngineError("misuse", "cannot be called before initialize()", a.read_data, "A-Mesh", "Heat", [0], 0.0)
        # Writing before initialize is allowed (initial data); wrong shapes are pyprecice's assertions.
        a.write_data("A-Mesh", "Heat", [0, 1], np.array([1.0, 2.0]))
        a.write_data("A-Mesh", "Flow", np.array([0, 1]), np.array([[1.0, 2.0], [3.0, 4.0]]))
        with self.assertRaises(AssertionError):
            a.write_data("A-Mesh", "Flow", [0, 1], np.array([1.0, 2.0, 3.0, 4.0]))
        with self.assertRaises(AssertionError):
            a.write_data("A-Mesh", "Heat", [0], np.array([1.0, 2.0]))
        self.assertEngineError("misuse", "invalid Vertex ID", a.write_data, "A-Mesh", "Heat", [7], [1.0])
        self.assertEngineError("misuse", "does not use data", self.participant("B").write_data, "B-Mesh", "Heat", [], [])
        self.assertFalse(a.requires_initial_data())
        a.finalize()
        self.assertEngineError("misuse", "may only be called once", a.finalize)


if __name__ == "__main__":
    unittest.main()
