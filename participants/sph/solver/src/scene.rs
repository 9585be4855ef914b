//! [`Scene`]: fluid blocks, walls and bodies, turned into a [`Simulation`].

use crate::bodies::{Body, BodyId, BodySpec, MarkerSource};
use crate::error::{Result, SphError};
use crate::geometry::{fluid_lattice, markers_of};
use crate::parameters::Parameters;
use crate::particles::{Fluid, Markers};
use crate::pipeline::Simulation;
use nalgebra::{Point3, Vector3};
use std::collections::HashMap;

/// What a simulation starts from. Fluid particles inside a wall or body are removed when the
/// scene is built.
#[derive(Debug, Clone)]
pub struct Scene {
    params: Parameters,
    fluid: Vec<Point3<f64>>,
    velocity: Vector3<f64>,
    bodies: Vec<BodySpec>,
    surface: Option<f64>,
}

impl Scene {
    /// An empty scene.
    pub fn new(params: Parameters) -> Self {
        Scene { params, fluid: Vec::new(), velocity: Vector3::zeros(), bodies: Vec::new(), surface: None }
    }

    /// The parameters.
    pub fn parameters(&self) -> &Parameters {
        &self.params
    }

    /// Fills the box `[lo, hi]` with fluid on the cell-centred lattice of spacing dp (in 2D the
    /// x–z rectangle); returns the number of particles added.
    pub fn add_fluid_box(&mut self, lo: Point3<f64>, hi: Point3<f64>) -> usize {
        let pts = fluid_lattice(lo, hi, self.params.spacing, self.params.dimension.count());
        let n = pts.len();
        self.fluid.extend(pts);
        n
    }

    /// Adds fluid particles at the given world positions.
    pub fn add_fluid_points(&mut self, points: impl IntoIterator<Item = Point3<f64>>) {
        self.fluid.extend(points);
    }

    /// Initial velocity of every fluid particle (default zero).
    pub fn set_fluid_velocity(&mut self, v: Vector3<f64>) {
        self.velocity = v;
    }

    /// Starts the fluid in hydrostatic equilibrium below a free surface at height `z` (along
    /// −gravity): `p = ρ0 |g| (z − depth)`, density from the equation of state. Without it the
    /// fluid starts at rest density and settles through acoustic waves.
    pub fn set_hydrostatic_surface(&mut self, z: f64) {
        self.surface = Some(z);
    }

    /// Adds a wall or body; bodies are numbered in the order they are added.
    pub fn add_body(&mut self, spec: BodySpec) -> BodyId {
        self.bodies.push(spec);
        BodyId(self.bodies.len() - 1)
    }

    /// Builds markers, removes fluid inside solids, sets densities.
    pub fn build(self) -> Result<Simulation> {
        let p = &self.params;
        p.validate()?;
        let dim = p.dimension.count();
        let axes = p.dimension.axes();
        let dp = p.spacing;
        let mut markers = Markers::default();
        let mut bodies = Vec::new();
        let mut solid: Vec<bool> = vec![false; self.fluid.len()];
        for (b, spec) in self.bodies.iter().enumerate() {
            let layers = spec.layers.unwrap_or_else(|| p.marker_layers());
            if layers == 0 {
                return Err(SphError::Geometry { body: spec.name.clone(), reason: "zero marker layers".into() });
            }
            let thickness = layers as f64 * dp;
            let local = match &spec.markers {
                MarkerSource::Shape(shape) => markers_of(shape, dp, layers, dim),
                MarkerSource::Points(points) => points.clone(),
            };
            if local.is_empty() {
                return Err(SphError::Geometry {
                    body: spec.name.clone(),
                    reason: format!("no marker at spacing {dp} (is the shape smaller than one spacing?)"),
                });
            }
            let inverse = spec.pose.inverse();
            match &spec.markers {
                MarkerSource::Shape(shape) => {
                    for (flag, x) in solid.iter_mut().zip(&self.fluid) {
                        *flag = *flag || shape.contains(&(inverse * x), thickness);
                    }
                }
                MarkerSource::Points(points) => {
                    let world: Vec<Point3<f64>> = points.iter().map(|q| spec.pose * q).collect();
                    let near = NearTest::new(&world, 0.75 * dp);
                    for (flag, x) in solid.iter_mut().zip(&self.fluid) {
                        *flag = *flag || near.any_within(x);
                    }
                }
            }
            for q in &local {
                markers.push(b as u32, [q.x, q.y, q.z]);
            }
            bodies.push(Body::new(spec));
        }
        let kept: Vec<&Point3<f64>> = self.fluid.iter().zip(&solid).filter(|(_, s)| !**s).map(|(x, _)| x).collect();
        let mut fluid = Fluid::with_len(kept.len());
        let eos = p.eos();
        for (i, x) in kept.iter().enumerate() {
            for (k, &a) in axes.iter().enumerate() {
                fluid.x[k][i] = x[a];
                fluid.v[k][i] = self.velocity[a];
            }
            fluid.rho[i] = match self.surface {
                Some(z) => {
                    let pressure = (p.rest_density * p.gravity.dot(&(x.coords - Vector3::new(0.0, 0.0, z)))).max(0.0);
                    eos.density(pressure)
                }
                None => p.rest_density,
            };
        }
        Simulation::new(self.params, fluid, markers, bodies)
    }
}

/// "Is any of these points within `r` of x?", on a hash of cells of size r.
struct NearTest {
    r: f64,
    cells: HashMap<[i64; 3], Vec<Point3<f64>>>,
}

impl NearTest {
    fn new(points: &[Point3<f64>], r: f64) -> Self {
        let mut cells: HashMap<[i64; 3], Vec<Point3<f64>>> = HashMap::new();
        for p in points {
            cells.entry(Self::cell(p, r)).or_default().push(*p);
        }
        NearTest { r, cells }
    }

    fn cell(p: &Point3<f64>, r: f64) -> [i64; 3] {
        [(p.x / r).floor() as i64, (p.y / r).floor() as i64, (p.z / r).floor() as i64]
    }

    fn any_within(&self, x: &Point3<f64>) -> bool {
        let c = Self::cell(x, self.r);
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(v) = self.cells.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) {
                        if v.iter().any(|q| (q - x).norm() < self.r) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}
