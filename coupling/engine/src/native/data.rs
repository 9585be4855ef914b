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
    pub waveform: Waveform,
    /// Present for `<write-data>`: what the solver wrote since the last `advance`.
    pub write_buffer: Option<Vec<f64>>,
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

    /// Stores every write buffer as a sample at `t` and resets the buffers to zero.
    pub fn sample_write_buffers(&mut self, t: f64) {
        for d in self.data.values_mut() {
            if let Some(buf) = &mut d.write_buffer {
                d.waveform.set(t, buf.clone());
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

    /// The waveform-degree of a registered datum.
    pub fn degree(&self, key: &DataKey) -> u32 {
        self.get(key).waveform.degree()
    }

    /// The received (or provided) waveform of a datum, as stored now.
    pub fn waveform(&self, key: &DataKey) -> &Waveform {
        &self.get(key).waveform
    }

    /// The samples of an exchanged datum in `[from, to]`, mapped onto the exchange mesh when needed.
    pub fn outgoing(&mut self, key: &DataKey, from: f64, to: f64, substeps: bool) -> Result<DataItem> {
        let (source, mapping) = match self.write_maps.get(key) {
            Some((s, m)) => (s.clone(), Some(*m)),
            None => (key.clone(), None),
        };
        let d = self.get(&source);
        let components = d.components;
        let mut samples = d.waveform.samples_between(from, to);
        if !substeps {
            samples = d.waveform.last().cloned().into_iter().collect();
        }
        if let Some(m) = mapping {
            let map = self.mapping(m)?;
            for (_, v) in &mut samples {
                *v = map.map(v, components);
            }
        }
        let (times, values) = samples.into_iter().unzip();
        Ok(DataItem { times, values })
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
        let components = d.components;
        Ok(Some(self.mapping(m)?.map(&values, components)))
    }

    /// Stores received samples: a sub-step waveform replaces the old one; a single value
    /// becomes the sample at `end_time` (the receiver's window end).
    pub fn incoming(&mut self, key: &DataKey, item: DataItem, end_time: f64, substeps: bool) -> Result<()> {
        let n = self.get(key).components * self.meshes[&key.mesh].vertex_count();
        if item.values.iter().any(|v| v.len() != n) {
            return Err(CouplingError::protocol(format!(
                "received data \"{}\" on mesh \"{}\" with the wrong size (expected {n} values): the partners disagree \
                 about the mesh",
                key.data, key.mesh
            )));
        }
        let d = self.get_mut(key);
        if substeps {
            d.waveform.replace(item.times.into_iter().zip(item.values).collect());
        } else if let Some(v) = item.values.into_iter().last() {
            d.waveform.set(end_time, v);
        }
        self.update_read_targets(key)
    }

    /// Sets the t = 0 sample (initial data or zero).
    pub fn set_initial(&mut self, key: &DataKey, values: Vec<f64>) -> Result<()> {
        self.get_mut(key).waveform.set(0.0, values);
        self.update_read_targets(key)
    }

    /// Zero sample at t = 0 for a received datum.
    pub fn zero_initial(&mut self, key: &DataKey) -> Result<()> {
        let n = self.get(key).components * self.meshes[&key.mesh].vertex_count();
        self.set_initial(key, vec![0.0; n])
    }

    /// Keeps only the last sample of a received datum and of what is mapped from it.
    pub fn move_to_next_window(&mut self, key: &DataKey) -> Result<()> {
        self.get_mut(key).waveform.move_to_next_window();
        self.update_read_targets(key)
    }

    fn update_read_targets(&mut self, key: &DataKey) -> Result<()> {
        let Some(targets) = self.read_maps.get(key).cloned() else { return Ok(()) };
        let source = self.get(key).waveform.clone();
        let components = self.get(key).components;
        for (target, m) in targets {
            let map = self.mapping(m)?;
            let mapped: Vec<(f64, Vec<f64>)> =
                source.samples().iter().map(|(t, v)| (*t, map.map(v, components))).collect();
            self.get_mut(&target).waveform.replace(mapped);
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
        store.data.insert(key.clone(), DataState { components: 1, waveform: Waveform::new(1), write_buffer: None });
        let item = DataItem { times: vec![1.0], values: vec![vec![1.0; 3]] };
        let e = store.incoming(&key, item, 1.0, false).expect_err("3 values for 2 vertices");
        assert_eq!(e.kind, ErrorKind::Protocol);
        assert_eq!(
            e.to_string(),
            "received data \"D\" on mesh \"M\" with the wrong size (expected 2 values): the partners disagree about \
             the mesh"
        );
    }
}
