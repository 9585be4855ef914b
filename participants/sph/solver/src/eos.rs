//! Tait's equation of state: pressure from density and back.

/// `p = B [(ρ/ρ0)^γ − 1]` with `B = ρ0 c0² / γ`, so that the sound speed at rest is `c0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tait {
    /// Rest density ρ0 (kg/m³).
    pub rest_density: f64,
    /// Numerical sound speed c0 (m/s).
    pub sound_speed: f64,
    /// Exponent γ (7 for water).
    pub gamma: f64,
}

impl Tait {
    /// The stiffness B = ρ0 c0² / γ (Pa).
    pub fn stiffness(&self) -> f64 {
        self.rest_density * self.sound_speed * self.sound_speed / self.gamma
    }

    /// Pressure (Pa) at density `rho`.
    pub fn pressure(&self, rho: f64) -> f64 {
        self.stiffness() * ((rho / self.rest_density).powf(self.gamma) - 1.0)
    }

    /// Density at pressure `p` (the inverse of [`Tait::pressure`]); pressures at or below −B
    /// (no density can give them) return zero density.
    pub fn density(&self, p: f64) -> f64 {
        let x = 1.0 + p / self.stiffness();
        if x <= 0.0 {
            return 0.0;
        }
        self.rest_density * x.powf(1.0 / self.gamma)
    }
}

/// The same law in f32 with the exponent fixed at an integer, for the per-particle loops.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaitFast {
    pub inv_rho0: f64,
    pub b: f64,
    pub gamma_int: i32,
    pub gamma: f64,
}

impl TaitFast {
    pub fn new(t: &Tait) -> Self {
        let gamma_int = if (t.gamma - t.gamma.round()).abs() < 1e-12 { t.gamma.round() as i32 } else { 0 };
        TaitFast { inv_rho0: 1.0 / t.rest_density, b: t.stiffness(), gamma_int, gamma: t.gamma }
    }

    #[inline]
    pub fn pressure(&self, rho: f64) -> f64 {
        let r = rho * self.inv_rho0;
        let pow = if self.gamma_int > 0 { r.powi(self.gamma_int) } else { r.powf(self.gamma) };
        self.b * (pow - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rest_state() {
        let t = Tait { rest_density: 1000.0, sound_speed: 40.0, gamma: 7.0 };
        assert_eq!(t.pressure(1000.0), 0.0);
        for p in [-5000.0, 0.0, 1.0, 9810.0, 2.0e5] {
            let rho = t.density(p);
            assert!((t.pressure(rho) - p).abs() < 1e-9 * (1.0 + p.abs()), "{p}");
        }
        // Sound speed at rest: dp/dρ = c0².
        let d = 1e-4;
        let c2 = (t.pressure(1000.0 + d) - t.pressure(1000.0 - d)) / (2.0 * d);
        assert!((c2 - 1600.0).abs() < 1e-3);
        assert_eq!(t.density(-t.stiffness() * 2.0), 0.0);
        let fast = TaitFast::new(&t);
        assert!((fast.pressure(1003.0) - t.pressure(1003.0)).abs() < 1e-8);
    }
}
