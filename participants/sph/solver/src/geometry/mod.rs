//! Shapes of walls and bodies, and the markers and fluid lattices built from them.
//!
//! Lattices are *cell-centred*: a particle or marker stands for the square or cube of side dp
//! around it. A solid's markers are the centres of the lattice cells inside it within
//! `layers · dp` of its surface (the whole solid when it is thinner), and fluid fills the
//! cells outside. When the lattices line up, the volumes that fluid and markers stand for
//! tile space exactly and the wall surface lies half a spacing beyond the outermost fluid
//! particle, so forces integrate over the true body volume. In 2D every shape is cut by the
//! plane y = 0 of its body frame.

mod lattice;
mod mesh;
mod mesh_checks;

pub use lattice::fluid_lattice;
pub(crate) use lattice::markers_of;
pub use mesh::TriMesh;

use nalgebra::{Point3, Vector3};

/// The solid region of a wall or body, in its body frame (origin at the body's reference point).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A box of the given half extents, centred on the origin.
    Box {
        /// Half side lengths (m).
        half_extents: Vector3<f64>,
    },
    /// A sphere (a disc in 2D) centred on the origin.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// A cylinder along the body z axis, centred on the origin.
    Cylinder {
        /// Radius (m).
        radius: f64,
        /// Half length (m).
        half_length: f64,
    },
    /// A closed triangle mesh (watertight; inside by ray parity).
    Mesh(TriMesh),
    /// The walls of a tank whose *inside* is the box of the given half extents centred on the
    /// origin: the solid is the shell of marker layers around it (without a lid if `open_top`).
    Container {
        /// Half extents of the fluid space inside (m).
        half_extents: Vector3<f64>,
        /// No lid (the walls still reach the top of the inside box).
        open_top: bool,
    },
}

impl Shape {
    /// Whether body-frame point `p` lies in the solid. For a container: in its walls (within
    /// `thickness` of the inside box).
    pub fn contains(&self, p: &Point3<f64>, thickness: f64) -> bool {
        match self {
            Shape::Box { half_extents: e } => (0..3).all(|k| p[k].abs() <= e[k]),
            Shape::Sphere { radius } => p.coords.norm() <= *radius,
            Shape::Cylinder { radius, half_length } => p.xy().coords.norm() <= *radius && p.z.abs() <= *half_length,
            Shape::Mesh(m) => m.contains(p),
            Shape::Container { half_extents: e, open_top } => {
                let inner = (0..3).all(|k| p[k].abs() < e[k]);
                let outer = (0..3).all(|k| p[k].abs() <= e[k] + thickness);
                let above = *open_top && p.z >= e.z;
                outer && !inner && !above
            }
        }
    }

    /// Distance from an inside point to the surface (solids only; containers use layers).
    pub(crate) fn depth(&self, p: &Point3<f64>) -> f64 {
        match self {
            Shape::Box { half_extents: e } => (0..3).map(|k| e[k] - p[k].abs()).fold(f64::INFINITY, f64::min),
            Shape::Sphere { radius } => radius - p.coords.norm(),
            Shape::Cylinder { radius, half_length } => (radius - p.xy().coords.norm()).min(half_length - p.z.abs()),
            Shape::Mesh(m) => m.distance(p),
            Shape::Container { .. } => 0.0,
        }
    }

    /// Body-frame bounding box of the solid.
    pub(crate) fn bounds(&self) -> (Point3<f64>, Point3<f64>) {
        match self {
            Shape::Box { half_extents: e } | Shape::Container { half_extents: e, .. } => ((-e).into(), (*e).into()),
            Shape::Sphere { radius: r } => (Point3::new(-r, -r, -r), Point3::new(*r, *r, *r)),
            Shape::Cylinder { radius: r, half_length: l } => (Point3::new(-r, -r, -l), Point3::new(*r, *r, *l)),
            Shape::Mesh(m) => m.bounds(),
        }
    }

    /// The solid's volume (area in 2D, cut at y = 0) where it is known in closed form.
    pub fn volume(&self, dim: usize) -> Option<f64> {
        use std::f64::consts::PI;
        match (self, dim) {
            (Shape::Box { half_extents: e }, 2) => Some(4.0 * e.x * e.z),
            (Shape::Box { half_extents: e }, _) => Some(8.0 * e.x * e.y * e.z),
            (Shape::Sphere { radius: r }, 2) => Some(PI * r * r),
            (Shape::Sphere { radius: r }, _) => Some(4.0 / 3.0 * PI * r * r * r),
            (Shape::Cylinder { radius: r, half_length: l }, 2) => Some(4.0 * r * l),
            (Shape::Cylinder { radius: r, half_length: l }, _) => Some(2.0 * PI * r * r * l),
            (Shape::Mesh(m), 3) => Some(m.volume()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment() {
        let b = Shape::Box { half_extents: Vector3::new(1.0, 2.0, 3.0) };
        assert!(b.contains(&Point3::new(0.9, -1.9, 2.9), 0.0));
        assert!(!b.contains(&Point3::new(1.1, 0.0, 0.0), 0.0));
        assert!((b.depth(&Point3::new(0.5, 0.0, 0.0)) - 0.5).abs() < 1e-12);
        let c = Shape::Cylinder { radius: 1.0, half_length: 0.5 };
        assert!(c.contains(&Point3::new(0.7, 0.7, 0.4), 0.0));
        assert!(!c.contains(&Point3::new(0.0, 0.0, 0.6), 0.0));
        let t = Shape::Container { half_extents: Vector3::new(1.0, 1.0, 1.0), open_top: true };
        assert!(t.contains(&Point3::new(1.05, 0.0, 0.0), 0.1));
        assert!(!t.contains(&Point3::new(0.95, 0.0, 0.0), 0.1));
        assert!(!t.contains(&Point3::new(0.0, 0.0, 1.05), 0.1));
        assert!(t.contains(&Point3::new(0.0, 0.0, -1.05), 0.1));
        assert_eq!(Shape::Sphere { radius: 1.0 }.volume(2), Some(std::f64::consts::PI));
    }
}
