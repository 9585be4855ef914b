//! The added mass of the coupled bodies, on the participant side: where the coefficients come
//! from ([`source`]: the preCICE XML's request, a BEMIO file or inline blocks, frames and
//! reference points) and how a fluid's per-window increments are read ([`exchange`]). The
//! coefficients themselves and their place in the mass matrix are `tidelink_mbs_solver::added_mass`.

pub mod exchange;
pub mod source;
