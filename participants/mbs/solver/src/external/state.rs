//! The channels a link sends to its external model, by position: the lean pair (displacement,
//! velocity) or the rich 17 (the pair, the link's own measure and rest value, the relative
//! acceleration, both bodies' world positions and velocities).
//!
//! Conventions: displacement is extension positive (`L − L0`, or `θ − θ0`), velocity extending
//! or opening positive; lengths in m and angles in rad; body positions and velocities are of the
//! centre of mass, world axes. The output (one value) is the force along the link (N, positive
//! pushing the points apart) or the torque about its axis (N·m, positive opening), so a damper
//! returns `−c · velocity`.

/// Which link an external model sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// A translational spring-damper (force, m, m/s).
    Tsda,
    /// A rotational spring-damper (torque, rad, rad/s).
    Rsda,
}

impl LinkKind {
    /// The protocol's `kind` for the rich state (`pto_tsda`, `pto_rsda`); the lean state is `pto`.
    pub fn wire_kind(self, rich: bool) -> &'static str {
        match (rich, self) {
            (false, _) => "pto",
            (true, LinkKind::Tsda) => "pto_tsda",
            (true, LinkKind::Rsda) => "pto_rsda",
        }
    }
    /// The channel names of the rich or lean state.
    pub fn channels(self, rich: bool) -> &'static [&'static str] {
        match (rich, self) {
            (false, _) => &LEAN_CHANNELS,
            (true, LinkKind::Tsda) => &TSDA_CHANNELS,
            (true, LinkKind::Rsda) => &RSDA_CHANNELS,
        }
    }
}

/// The lean state: displacement and velocity.
pub const LEAN_CHANNELS: [&str; 2] = ["displacement", "velocity"];

/// The channels after the link's own five: both bodies' world positions and velocities.
const BODY_CHANNELS: [&str; 12] = [
    "body1_pos_x",
    "body1_pos_y",
    "body1_pos_z",
    "body1_vel_x",
    "body1_vel_y",
    "body1_vel_z",
    "body2_pos_x",
    "body2_pos_y",
    "body2_pos_z",
    "body2_vel_x",
    "body2_vel_y",
    "body2_vel_z",
];

/// A rich state: the link's own five channels, then [`BODY_CHANNELS`] (one list of the body
/// channels for both kinds of link).
const fn rich(own: [&'static str; 5]) -> [&'static str; 17] {
    let mut out = [""; 17];
    let mut i = 0;
    while i < 17 {
        out[i] = if i < 5 { own[i] } else { BODY_CHANNELS[i - 5] };
        i += 1;
    }
    out
}

/// The rich state of a TSDA.
pub const TSDA_CHANNELS: [&str; 17] = rich(["displacement", "velocity", "length", "rest_length", "rel_accel"]);

/// The rich state of an RSDA (as a TSDA's, with the angle for the length).
pub const RSDA_CHANNELS: [&str; 17] = rich(["displacement", "velocity", "angle", "rest_angle", "rel_accel"]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_share_the_universal_pair() {
        for names in [&TSDA_CHANNELS[..], &RSDA_CHANNELS[..]] {
            assert_eq!(&names[..2], &LEAN_CHANNELS);
            let mut sorted = names.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 17);
        }
        assert_eq!(TSDA_CHANNELS[2..5], ["length", "rest_length", "rel_accel"]);
        assert_eq!(RSDA_CHANNELS[2..5], ["angle", "rest_angle", "rel_accel"]);
        assert_eq!((TSDA_CHANNELS[5], RSDA_CHANNELS[16]), ("body1_pos_x", "body2_vel_z"));
        assert_eq!(LinkKind::Rsda.wire_kind(true), "pto_rsda");
        assert_eq!(LinkKind::Tsda.wire_kind(false), "pto");
    }
}
