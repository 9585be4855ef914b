//! The participant's meshes and per-(mesh, data) waveforms, and the mappings that move
//! samples between provided meshes (what the solver reads and writes) and received
//! meshes (where exchanges happen). Mirrors preCICE's data contexts.

use super::m2n::wire::DataItem;
use super::mapping::{self, Mapping};
pub use super::mesh::MeshState;
use super::time::Waveform;
use crate::{CouplingError, Result};
use std::collections::{BTreeMap, HashMap};
use tidelink_precice_config::MappingDecl;

/// A datum on a mesh (the configuration crate's key, shared with the model).
pub use tidelink_precice_config::DataKey;

/// One datum on one mesh.
pub struct DataState {
    /// Components per vertex.
    pub components: usize,
    /// The datum carries gradients: a nearest-neighbor-gradient mapping maps it from this mesh
    /// (the configuration's `needs_gradients`). Its samples then hold them, and its exchanges carry them.
    pub gradients: bool,
    pub waveform: Waveform,
    /// Present for `<write-data>`: what the solver wrote since the last `advance`.
    pub write_buffer: Option<Vec<f64>>,
    /// Present for `<write-data>` of a datum with gradients: the gradients the solver wrote
    /// since the last `advance` (row layout: per vertex, components × mesh dimension).
    pub gradient_buffer: Option<Vec<f64>>,
}

impl DataState {
    /// A datum with `components` per vertex and `waveform`; `gradients` when it carries them.
    pub fn new(components: usize, gradients: bool, waveform: Waveform) -> Self {
        DataState { components, gradients, waveform, write_buffer: None, gradient_buffer: None }
    }
}

/// A mapping between two meshes, computed on first use.
pub struct MappingRun {
    /// The `<mapping:*>` tag: method, meshes, constraint and options.
    pub decl: MappingDecl,
    computed: Option<Box<dyn Mapping>>,
}

impl MappingRun {
    pub fn new(decl: &MappingDecl) -> Self {
        MappingRun { decl: decl.clone(), computed: None }
    }
}

/// Everything a participant stores about data.
#[derive(Default)]
pub struct DataStore {
    pub meshes: BTreeMap<String, MeshState>,
    pub data: HashMap<DataKey, DataState>,
    /// Write mappings by target (received mesh datum) → (source provided-mesh datum, mapping index).
    write_maps: HashMap<DataKey, (DataKey, usize)>,
    /// Read mappings by source (received mesh datum) → targets on provided meshes.
    read_maps: HashMap<DataKey, Vec<(DataKey, usize)>>,
    mappings: Vec<MappingRun>,
}

impl DataStore {
    pub fn add_mapping(&mut self, m: MappingRun) -> usize {
        self.mappings.push(m);
        self.mappings.len() - 1
    }
    pub fn add_write_map(&mut self, target: DataKey, source: DataKey, mapping: usize) {
        self.write_maps.insert(target, (source, mapping));
    }
    pub fn add_read_map(&mut self, source: DataKey, target: DataKey, mapping: usize) {
        self.read_maps.entry(source).or_default().push((target, mapping));
    }
    fn mapping(&mut self, i: usize) -> Result<&dyn Mapping> {
        if self.mappings[i].computed.is_none() {
            let m = &self.mappings[i].decl;
            let from =
                self.meshes.get(&m.from).ok_or_else(|| CouplingError::config(format!("unknown mesh {}", m.from)))?;
            let to = self.meshes.get(&m.to).ok_or_else(|| CouplingError::config(format!("unknown mesh {}", m.to)))?;
            if from.vertex_count() == 0 || to.vertex_count() == 0 {
                return Err(CouplingError::misuse(format!(
                    "cannot map from mesh \"{}\" to mesh \"{}\": one of them has no vertices",
                    m.from, m.to
                )));
            }
            let built = mapping::build(m, from, to)?;
            self.mappings[i].computed = Some(built);
        }
        Ok(self.mappings[i].computed.as_deref().expect("computed above"))
    }

    fn get(&self, k: &DataKey) -> &DataState {
        self.data.get(k).expect("data context registered at construction")
    }

    fn get_mut(&mut self, k: &DataKey) -> &mut DataState {
        self.data.get_mut(k).expect("data context registered at construction")
    }

    /// Stores every write buffer (with its gradients) as a sample at `t` and resets the
    /// buffers to zero, gradients too (libprecice's `resetBufferedData`).
    pub fn sample_write_buffers(&mut self, t: f64) {
        for d in self.data.values_mut() {
            if let Some(buf) = &mut d.write_buffer {
                let gradients = d.gradient_buffer.as_mut().map(|g| std::mem::replace(g, vec![0.0; g.len()]));
                d.waveform.set_with_gradients(t, buf.clone(), gradients.unwrap_or_default());
                buf.iter_mut().for_each(|x| *x = 0.0);
            }
        }
    }

    /// Drops write samples older than `t` (they were sent already).
    pub fn trim_write_data(&mut self, t: f64) {
        for d in self.data.values_mut().filter(|d| d.write_buffer.is_some()) {
            d.waveform.trim_before(t);
        }
    }

    /// Drops write samples newer than `t`: the implicit window is repeated from `t`.
    pub fn trim_write_after(&mut self, t: f64) {
        for d in self.data.values_mut().filter(|d| d.write_buffer.is_some()) {
            d.waveform.trim_after(t);
        }
    }

    /// Components per vertex × vertices of a registered datum: the length of one sample.
    pub fn sample_len(&self, key: &DataKey) -> usize {
        self.get(key).components * self.meshes[&key.mesh].vertex_count()
    }

    /// The length of one sample's gradients: the sample length × the mesh dimension for a
    /// datum with gradients, 0 otherwise.
    pub fn gradient_len(&self, key: &DataKey) -> usize {
        if self.get(key).gradients {
            self.sample_len(key) * self.meshes[&key.mesh].dim
        } else {
            0
        }
    }

    /// Gradients of length [`gradient_len`](Self::gradient_len): `g` itself, or zeros where a
    /// sample has none (a datum filled by a mapping, which yields values only).
    fn gradients_or_zero(&self, key: &DataKey, g: Vec<f64>) -> Vec<f64> {
        let n = self.gradient_len(key);
        if g.len() == n {
            g
        } else {
            vec![0.0; n]
        }
    }

    /// The waveform-degree of a registered datum.
    pub fn degree(&self, key: &DataKey) -> u32 {
        self.get(key).waveform.degree()
    }

    /// The received (or provided) waveform of a datum, as stored now.
    pub fn waveform(&self, key: &DataKey) -> &Waveform {
        &self.get(key).waveform
    }

    /// The samples of an exchanged datum in `[from, to]`, mapped onto the exchange mesh when
    /// needed (with their gradients, for nearest-neighbor-gradient); with the datum's
    /// gradients when it carries them.
    pub fn outgoing(&mut self, key: &DataKey, from: f64, to: f64, substeps: bool) -> Result<DataItem> {
        let (source, mapping) = match self.write_maps.get(key) {
            Some((s, m)) => (s.clone(), Some(*m)),
            None => (key.clone(), None),
        };
        let d = self.get(&source);
        let components = d.components;
        let (mut samples, mut gradients) = if substeps {
            (d.waveform.samples_between(from, to), d.waveform.gradients_between(from, to))
        } else {
            let n = d.waveform.samples().len();
            (d.waveform.last().cloned().into_iter().collect(), d.waveform.gradients()[n.saturating_sub(1)..].to_vec())
        };
        if let Some(m) = mapping {
            let map = self.mapping(m)?;
            for ((_, v), g) in samples.iter_mut().zip(&gradients) {
                *v = map.map_with_gradients(v, g, components);
            }
            // A mapping yields values only: mapped data that carry gradients carry zeros.
            gradients = vec![Vec::new(); samples.len()];
        }
        let gradients = if self.get(key).gradients {
            gradients.into_iter().map(|g| self.gradients_or_zero(key, g)).collect()
        } else {
            Vec::new()
        };
        let (times, values) = samples.into_iter().unzip();
        Ok(DataItem { times, values, gradients })
    }

    /// The latest sample of a datum as its mesh holds it (what exports show): the stored one,
    /// or for a datum a write mapping fills (mapped when sent, not stored), its source's latest
    /// sample mapped. `None` when there is no sample.
    pub fn latest(&mut self, key: &DataKey) -> Result<Option<Vec<f64>>> {
        let Some((source, m)) = self.write_maps.get(key).cloned() else {
            return Ok(self.data.get(key).and_then(|d| d.waveform.last()).map(|(_, v)| v.clone()));
        };
        let d = self.get(&source);
        let Some((_, values)) = d.waveform.last().cloned() else { return Ok(None) };
        let gradients = d.waveform.gradients().last().cloned().unwrap_or_default();
        let components = d.components;
        Ok(Some(self.mapping(m)?.map_with_gradients(&values, &gradients, components)))
    }

    /// Stores received samples: a sub-step waveform replaces the old one; a single value
    /// becomes the sample at `end_time` (the receiver's window end). Gradients come with every
    /// sample of a datum that carries them, and with no other.
    pub fn incoming(&mut self, key: &DataKey, item: DataItem, end_time: f64, substeps: bool) -> Result<()> {
        self.check_item(key, &item)?;
        let d = self.get_mut(key);
        let mut gradients = item.gradients;
        gradients.resize(item.values.len(), Vec::new());
        if substeps {
            d.waveform.replace_with_gradients(item.times.into_iter().zip(item.values).collect(), gradients);
        } else if let Some(v) = item.values.into_iter().last() {
            d.waveform.set_with_gradients(end_time, v, gradients.pop().unwrap_or_default());
        }
        self.update_read_targets(key)
    }

    /// Received samples must fit the datum: values of the mesh's size, and gradients exactly
    /// where the datum carries them, of its gradient size.
    pub fn check_item(&self, key: &DataKey, item: &DataItem) -> Result<()> {
        let n = self.sample_len(key);
        let wrong = |what: String| {
            Err(CouplingError::protocol(format!(
                "received data \"{}\" on mesh \"{}\" with {what}: the partners disagree about the mesh or the configuration",
                key.data, key.mesh
            )))
        };
        if item.values.iter().any(|v| v.len() != n) {
            return wrong(format!("the wrong size (expected {n} values)"));
        }
        let g = self.gradient_len(key);
        if g == 0 && !item.gradients.is_empty() {
            return wrong("gradients it does not carry here".into());
        }
        if g > 0 && (item.gradients.len() != item.values.len() || item.gradients.iter().any(|v| v.len() != g)) {
            return wrong(format!("missing or wrongly sized gradients (expected {g} per sample)"));
        }
        Ok(())
    }

    /// Sets the t = 0 sample (initial data or zero) with its gradients (empty: none, or zero
    /// for a datum that carries them).
    pub fn set_initial(&mut self, key: &DataKey, values: Vec<f64>, gradients: Vec<f64>) -> Result<()> {
        let gradients = if self.get(key).gradients { self.gradients_or_zero(key, gradients) } else { Vec::new() };
        self.get_mut(key).waveform.set_with_gradients(0.0, values, gradients);
        self.update_read_targets(key)
    }

    /// Zero sample at t = 0 for a received datum (zero gradients too, where it carries them).
    pub fn zero_initial(&mut self, key: &DataKey) -> Result<()> {
        let n = self.sample_len(key);
        self.set_initial(key, vec![0.0; n], Vec::new())
    }

    /// Keeps only the last sample of a received datum and of what is mapped from it.
    pub fn move_to_next_window(&mut self, key: &DataKey) -> Result<()> {
        self.get_mut(key).waveform.move_to_next_window();
        self.update_read_targets(key)
    }

    /// Maps the samples of `key` onto every datum read-mapped from it (in place: neither the
    /// source waveform nor the list of targets is copied; this runs at every received window).
    fn update_read_targets(&mut self, key: &DataKey) -> Result<()> {
        let n = self.read_maps.get(key).map_or(0, Vec::len);
        for i in 0..n {
            let m = self.read_maps[key][i].1;
            self.mapping(m)?;
            let target = &self.read_maps[key][i].0;
            let map = self.mappings[m].computed.as_deref().expect("computed above");
            let [Some(source), Some(target)] = self.data.get_disjoint_mut([key, target]) else {
                panic!("data contexts registered at construction, source and target on different meshes");
            };
            let components = source.components;
            let mapped: Vec<(f64, Vec<f64>)> = source
                .waveform
                .samples()
                .iter()
                .zip(source.waveform.gradients())
                .map(|((t, v), g)| (*t, map.map_with_gradients(v, g, components)))
                .collect();
            target.waveform.replace(mapped);
        }
        Ok(())
    }

    /// The value at `t` of a datum on a provided mesh, restricted to `ids`.
    pub fn read(&self, key: &DataKey, t: f64, ids: &[i32], out: &mut [f64]) -> Option<()> {
        let d = self.get(key);
        let all = d.waveform.sample(t)?;
        let c = d.components;
        for (k, &id) in ids.iter().enumerate() {
            let id = id as usize;
            out[k * c..(k + 1) * c].copy_from_slice(&all[id * c..(id + 1) * c]);
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn received_data_of_the_wrong_size_is_a_protocol_error() {
        let mut store = DataStore::default();
        let mut mesh = MeshState::new(2, false);
        mesh.coords = vec![0.0; 4];
        mesh.received = true;
        store.meshes.insert("M".into(), mesh);
        let key = DataKey::new("M", "D");
        store.data.insert(key.clone(), DataState::new(1, false, Waveform::new(1)));
        let item = DataItem::new(vec![1.0], vec![vec![1.0; 3]]);
        let e = store.incoming(&key, item, 1.0, false).expect_err("3 values for 2 vertices");
        assert_eq!(e.kind, ErrorKind::Protocol);
        assert_eq!(
            e.to_string(),
            "received data \"D\" on mesh \"M\" with the wrong size (expected 2 values): the partners disagree about \
             the mesh or the configuration"
        );
        // Gradients the datum does not carry are refused.
        let item = DataItem { times: vec![1.0], values: vec![vec![1.0; 2]], gradients: vec![vec![0.0; 4]] };
        let e = store.incoming(&key, item, 1.0, false).expect_err("no gradients here");
        assert!(e.message.contains("gradients it does not carry here"), "{e}");
    }

    /// A 2D mesh M of two vertices (0,0) and (1,0), received, with scalar datum D carrying
    /// gradients, read-mapped by nearest-neighbor-gradient onto the provided mesh P at (0.25, 0.5).
    fn gradient_store() -> (DataStore, DataKey, DataKey) {
        use tidelink_precice_config::diagnostics::Location;
        use tidelink_precice_config::{MappingConstraint, MappingDirection, MappingMethod, RbfOptions};
        let mut store = DataStore::default();
        let mut m = MeshState::new(2, false);
        m.coords = vec![0.0, 0.0, 1.0, 0.0];
        m.received = true;
        store.meshes.insert("M".into(), m);
        let mut p = MeshState::new(2, true);
        p.coords = vec![0.25, 0.5];
        store.meshes.insert("P".into(), p);
        let (from, to) = (DataKey::new("M", "D"), DataKey::new("P", "D"));
        store.data.insert(from.clone(), DataState::new(1, true, Waveform::new(1)));
        store.data.insert(to.clone(), DataState::new(1, false, Waveform::new(1)));
        let decl = MappingDecl {
            method: MappingMethod::NearestNeighborGradient,
            direction: MappingDirection::Read,
            from: "M".into(),
            to: "P".into(),
            constraint: MappingConstraint::Consistent,
            basis_functions: vec![],
            rbf: RbfOptions::default(),
            loc: Location::new("c.xml", 3),
        };
        let i = store.add_mapping(MappingRun::new(&decl));
        store.add_read_map(from.clone(), to.clone(), i);
        (store, from, to)
    }

    #[test]
    fn received_gradients_are_kept_per_sample_and_used_by_the_read_mapping() {
        let (mut store, from, to) = gradient_store();
        store.zero_initial(&from).unwrap();
        assert_eq!(store.waveform(&from).gradients(), &[vec![0.0; 4]]);
        // f = 1 + 2x - 4y: at (0.25, 0.5) it is -0.5, from vertex 0 with its gradient (2, -4).
        let item = DataItem {
            times: vec![0.5, 1.0],
            values: vec![vec![0.0, 0.0], vec![1.0, 3.0]],
            gradients: vec![vec![0.0; 4], vec![2.0, -4.0, 2.0, -4.0]],
        };
        store.incoming(&from, item, 1.0, true).unwrap();
        let mut out = [0.0];
        store.read(&to, 1.0, &[0], &mut out).unwrap();
        assert_eq!(out, [-0.5]);
        store.read(&to, 0.5, &[0], &mut out).unwrap();
        assert_eq!(out, [0.0]);
        // Sizes are checked: gradients missing, or of the wrong length, are refused.
        let missing = DataItem::new(vec![1.0], vec![vec![1.0, 3.0]]);
        let e = store.incoming(&from, missing, 1.0, false).unwrap_err();
        assert!(e.message.contains("missing or wrongly sized gradients (expected 4 per sample)"), "{e}");
        let short = DataItem { times: vec![1.0], values: vec![vec![1.0, 3.0]], gradients: vec![vec![1.0; 3]] };
        assert!(store.incoming(&from, short, 1.0, false).is_err());
        // A single sample is stored at the window end with its gradients.
        let one =
            DataItem { times: vec![9.0], values: vec![vec![1.0, 3.0]], gradients: vec![vec![2.0, -4.0, 0.0, 0.0]] };
        store.incoming(&from, one, 2.0, false).unwrap();
        assert_eq!(store.waveform(&from).sample_gradients(2.0), Some(&[2.0, -4.0, 0.0, 0.0][..]));
    }
}
