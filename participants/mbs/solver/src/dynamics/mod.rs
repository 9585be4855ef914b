//! What moves and what connects it: rigid bodies in a [`body_set::BodySet`] with handles,
//! joints built from constraint rows with analytical Jacobians, and force elements (spring-dampers)
//! with optional stiffness and damping Jacobians.

pub mod body;
pub mod body_set;
pub mod constraint;
pub mod force_element;
pub mod joint;
pub mod rsda;
pub mod tsda;
