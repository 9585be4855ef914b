//! Force elements: loads between two bodies that depend on their state (springs,
//! dampers, actuators), kept in a [`ForceElementSet`]. An element may give its stiffness
//! and damping Jacobians analytically; if it does not, the integrators difference it
//! numerically (see [`crate::solver::assembly`]).

use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::error::MbsError;
use crate::solver::jacobian::dependencies::Dependencies;
use nalgebra::{SMatrix, Vector3};

/// A 12×12 block over `[δx1, δθ1, δx2, δθ2]` (or the matching velocities).
pub type Block12 = SMatrix<f64, 12, 12>;

/// A force at the COM and a torque about it, world axes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Wrench {
    /// Force acting at the COM (N, world).
    pub force: Vector3<f64>,
    /// Torque about the COM (N·m, world axes).
    pub torque: Vector3<f64>,
}

/// What an element learns before a step: the step's start time and length, the state at the
/// start, and the integrator's prediction of the state at its end (the first Newton iterate).
#[derive(Debug, Clone, Copy)]
pub struct StepStart<'a> {
    /// Time at the step's start (s).
    pub t: f64,
    /// Step length (s).
    pub dt: f64,
    /// The bodies at `t`.
    pub bodies: &'a BodySet,
    /// The bodies predicted at `t + dt` ([`crate::Integrator::predict`]); the state at `t`
    /// when no element asked for it ([`ForceElement::wants_prediction`]).
    pub predicted: &'a BodySet,
}

/// The copy and downcast access every force element has by being `Clone + 'static` (a blanket
/// implementation, so no element writes them out).
pub trait ElementAccess {
    /// A boxed copy of the element.
    fn boxed_copy(&self) -> Box<dyn ForceElement>;
    /// The element as `Any`.
    fn any_mut(&mut self) -> &mut dyn std::any::Any;
}

impl<T: ForceElement + Clone + 'static> ElementAccess for T {
    fn boxed_copy(&self) -> Box<dyn ForceElement> {
        Box::new(self.clone())
    }
    fn any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// A load between two bodies (either may be fixed).
pub trait ForceElement: std::fmt::Debug + Send + Sync + ElementAccess {
    /// The element's name, for messages.
    fn name(&self) -> &str;
    /// The two bodies it acts on.
    fn bodies(&self) -> [BodyHandle; 2];
    /// The wrenches on body 1 and body 2 at the current state.
    fn wrenches(&self, bodies: &BodySet) -> [Wrench; 2];
    /// `(∂Q/∂q, ∂Q/∂v)` of the generalized forces `[F1, τ1, F2, τ2]`, if known
    /// analytically; `None` makes the integrators use coloured finite differences.
    fn jacobian(&self, _bodies: &BodySet) -> Option<(Block12, Block12)> {
        None
    }
    /// Whether [`Self::jacobian`] is implemented (it may still give `None` at a degenerate
    /// state): what the `analytical` Jacobian policy requires of every element.
    fn has_jacobian(&self) -> bool {
        false
    }
    /// Absorbed power `−F·v` of a link (TSDA: force along the line times extension rate; RSDA:
    /// torque times opening rate), W; `None` for elements that are no link.
    fn link_power(&self, _bodies: &BodySet) -> Option<f64> {
        None
    }
    /// Called once before every step: elements whose law is evaluated outside the solver fix
    /// their force for the step here.
    fn begin_step(&mut self, _step: &StepStart<'_>) -> Result<(), MbsError> {
        Ok(())
    }
    /// Whether [`Self::begin_step`] reads [`StepStart::predicted`] (the prediction costs a
    /// copy of the bodies, made only when an element asks).
    fn wants_prediction(&self) -> bool {
        false
    }
    /// A boxed copy (force element sets are cloned with their models).
    fn clone_box(&self) -> Box<dyn ForceElement> {
        self.boxed_copy()
    }
    /// The element as `Any`, so code that knows its type can change its coefficients
    /// ([`ForceElementSet::find_mut`]).
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self.any_mut()
    }
}

/// All force elements of a system, in insertion order, with the declared dependencies of
/// each ([`Dependencies::All`] unless set).
#[derive(Debug, Default)]
pub struct ForceElementSet {
    elements: Vec<Box<dyn ForceElement>>,
    dependencies: Vec<Dependencies>,
}

impl Clone for ForceElementSet {
    fn clone(&self) -> Self {
        ForceElementSet {
            elements: self.elements.iter().map(|e| e.clone_box()).collect(),
            dependencies: self.dependencies.clone(),
        }
    }
}

impl ForceElementSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds an element; returns its index.
    pub fn insert(&mut self, e: Box<dyn ForceElement>) -> usize {
        self.elements.push(e);
        self.dependencies.push(Dependencies::All);
        self.elements.len() - 1
    }
    /// Declares which body states the outputs of element `i` depend on (finite differences
    /// perturb only those); `false` when there is no element `i`.
    pub fn set_dependencies(&mut self, i: usize, deps: Dependencies) -> bool {
        match self.dependencies.get_mut(i) {
            Some(d) => {
                *d = deps;
                true
            }
            None => false,
        }
    }
    /// The index of the element called `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.elements.iter().position(|e| e.name() == name)
    }
    /// Every element with its declared dependencies, in insertion order.
    pub fn iter_with_dependencies(&self) -> impl Iterator<Item = (&dyn ForceElement, &Dependencies)> {
        self.elements.iter().map(|e| e.as_ref()).zip(self.dependencies.iter())
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    /// Whether the set has no element.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
    /// Every element in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &dyn ForceElement> {
        self.elements.iter().map(|e| e.as_ref())
    }
    /// Every element, mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Box<dyn ForceElement>> {
        self.elements.iter_mut()
    }
    /// [`ForceElement::begin_step`] of every element, in order; stops at the first error.
    pub fn begin_step(&mut self, step: &StepStart<'_>) -> Result<(), MbsError> {
        self.elements.iter_mut().try_for_each(|e| e.begin_step(step))
    }
    /// Whether any element wants the predicted end-of-step state.
    pub fn wants_prediction(&self) -> bool {
        self.elements.iter().any(|e| e.wants_prediction())
    }
    /// The element at `i` for mutation (a controller changing a coefficient mid-run).
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Box<dyn ForceElement>> {
        self.elements.get_mut(i)
    }
    /// The element called `name` if it is a `T` (a controller stiffening a spring mid-run).
    pub fn find_mut<T: ForceElement + 'static>(&mut self, name: &str) -> Option<&mut T> {
        self.elements.iter_mut().filter(|e| e.name() == name).find_map(|e| e.as_any_mut().downcast_mut::<T>())
    }
}
