//! Which body states a force element's outputs depend on: all of its bodies' states (the
//! default, safe) or a declared subset. Only the declared columns are perturbed when the element
//! is differenced, so a tighter declaration means fewer colours and fewer force evaluations.
//!
//! A body has 12 state coordinates here: its displacement `[x, y, z, θx, θy, θz]` (world
//! translation and rotation increment) and its velocity `[vx, vy, vz, ωx, ωy, ωz]` (world).

use crate::dynamics::body_set::BodyHandle;
use crate::external::body_force::BODY_CHANNELS;

/// Which of a body's 12 coordinates (6 displacements, then 6 velocities) count.
pub type CoordMask = [bool; 12];

/// Every coordinate of a body.
pub const ALL_COORDS: CoordMask = [true; 12];

/// The declared dependencies of an element's outputs.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Dependencies {
    /// Every state of every body the element acts on.
    #[default]
    All,
    /// Only these coordinates of these bodies (any bodies of the system, not only the
    /// element's own: an external model may read bodies it does not push).
    Only(Vec<(BodyHandle, CoordMask)>),
}

impl Dependencies {
    /// The coordinates per body, `All` spelt out over `own` (the element's bodies).
    pub fn per_body(&self, own: [BodyHandle; 2]) -> Vec<(BodyHandle, CoordMask)> {
        match self {
            Dependencies::All => {
                let mut v = vec![(own[0], ALL_COORDS)];
                if own[1] != own[0] {
                    v.push((own[1], ALL_COORDS));
                }
                v
            }
            Dependencies::Only(list) => list.clone(),
        }
    }
}

/// The coordinates a channel of the external modules' body state stands for
/// ([`BODY_CHANNELS`]: `pos_x` … `omega_z`); `None` for another name. The three angles
/// `roll`, `pitch`, `yaw` each depend on all three rotation increments, so any of them means
/// all three.
pub fn channel_coords(channel: &str) -> Option<CoordMask> {
    let i = BODY_CHANNELS.iter().position(|c| *c == channel)?;
    let mut m = [false; 12];
    match i {
        3..=5 => m[3..6].iter_mut().for_each(|x| *x = true),
        _ => m[i] = true,
    }
    Some(m)
}

/// `a` with the coordinates of `b` added.
pub fn union(a: CoordMask, b: CoordMask) -> CoordMask {
    std::array::from_fn(|i| a[i] || b[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_map_to_coordinates() {
        let z = channel_coords("pos_z").unwrap();
        assert_eq!(z.iter().filter(|x| **x).count(), 1);
        assert!(z[2]);
        let yaw = channel_coords("yaw").unwrap();
        assert!(yaw[3] && yaw[4] && yaw[5] && !yaw[2] && !yaw[6]);
        assert!(channel_coords("omega_x").unwrap()[9]);
        assert!(channel_coords("heave").is_none());
    }
}
