//! The radial basis functions of the RBF mappings (`<basis-function:NAME>`), evaluated on a
//! distance, with their parameter checks and whether each one is strictly positive definite
//! (which decides between a Cholesky factorisation and a pivoted QR, and whether
//! `polynomial="on"` is allowed).

use tidelink_precice_config::BasisFunctionDecl;

/// Values of a Gaussian below this are cut off: its support radius is where it reaches it.
pub const GAUSSIAN_CUTOFF: f64 = 1e-9;

/// Distances below this count as zero inside logarithms (`r² log r` at r = 0).
const LOG_FLOOR: f64 = 1e-14;

/// One radial basis function with its parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Basis {
    /// `r² log r`; conditionally positive definite (needs the linear polynomial).
    ThinPlateSplines,
    /// `sqrt(c² + r²)`, shape parameter `c`.
    Multiquadrics { c: f64 },
    /// `1 / sqrt(c² + r²)`, shape parameter `c`.
    InverseMultiquadrics { c: f64 },
    /// `r`.
    VolumeSplines,
    /// `exp(-(s r)²)`, cut to zero beyond `radius` (where it falls to [`GAUSSIAN_CUTOFF`]).
    Gaussian { shape: f64, radius: f64 },
    /// Compact thin-plate spline C2 of support radius `radius`.
    CompactTpsC2 { radius: f64 },
    /// Wendland polynomial C0/C2/C4/C6/C8 (`order` 0..=8, even) of support radius `radius`.
    CompactPolynomial { order: u8, radius: f64 },
}

impl Basis {
    /// The basis function `<basis-function:NAME>` declares, with its parameters checked.
    /// `Err` carries a message (what is wrong and how to fix it) for the caller to locate.
    pub fn from_decl(b: &BasisFunctionDecl) -> Result<Basis, String> {
        let positive = |what: &str, v: Option<f64>| -> Result<f64, String> {
            match v {
                Some(v) if v > 0.0 && v.is_finite() => Ok(v),
                Some(v) => Err(format!(
                    "the {what} of <basis-function:{}> is {v}, but it has to be a finite number larger than zero",
                    b.name
                )),
                None => Err(format!("<basis-function:{}> needs a \"{what}\" attribute", b.name)),
            }
        };
        let radius = || positive("support-radius", b.support_radius);
        let compact = |order| Ok(Basis::CompactPolynomial { order, radius: radius()? });
        match b.name.as_str() {
            "thin-plate-splines" => Ok(Basis::ThinPlateSplines),
            "volume-splines" => Ok(Basis::VolumeSplines),
            "multiquadrics" => Ok(Basis::Multiquadrics { c: positive("shape-parameter", b.shape_parameter)? }),
            "inverse-multiquadrics" => {
                Ok(Basis::InverseMultiquadrics { c: positive("shape-parameter", b.shape_parameter)? })
            }
            "gaussian" => {
                let k = (-GAUSSIAN_CUTOFF.ln()).sqrt();
                match (b.shape_parameter, b.support_radius) {
                    (Some(_), None) => {
                        let shape = positive("shape-parameter", b.shape_parameter)?;
                        Ok(Basis::Gaussian { shape, radius: k / shape })
                    }
                    (None, Some(_)) => {
                        let radius = radius()?;
                        Ok(Basis::Gaussian { shape: k / radius, radius })
                    }
                    _ => Err("<basis-function:gaussian> takes either a \"shape-parameter\" or a \"support-radius\" \
                              (exactly one of them)"
                        .to_string()),
                }
            }
            "compact-tps-c2" => Ok(Basis::CompactTpsC2 { radius: radius()? }),
            "compact-polynomial-c0" => compact(0),
            "compact-polynomial-c2" => compact(2),
            "compact-polynomial-c4" => compact(4),
            "compact-polynomial-c6" => compact(6),
            "compact-polynomial-c8" => compact(8),
            other => Err(format!("unknown basis function <basis-function:{other}>")),
        }
    }

    /// Strictly positive definite: the interpolation matrix of distinct points is SPD.
    pub fn is_spd(&self) -> bool {
        !matches!(self, Basis::ThinPlateSplines | Basis::Multiquadrics { .. } | Basis::VolumeSplines)
    }

    /// The distance beyond which the function is zero, `None` for globally supported ones.
    pub fn support_radius(&self) -> Option<f64> {
        match *self {
            Basis::Gaussian { radius, .. }
            | Basis::CompactTpsC2 { radius }
            | Basis::CompactPolynomial { radius, .. } => Some(radius),
            _ => None,
        }
    }

    /// The function's value at squared distance `r2` (≥ 0). Kernel matrices are filled from
    /// squared distances: thin-plate splines (`r² log r = ½ r² log r²`) and the multiquadrics
    /// need no square root then, which is a good part of a dense system's assembly.
    pub fn eval_sq(&self, r2: f64) -> f64 {
        match *self {
            Basis::ThinPlateSplines => 0.5 * r2 * r2.max(LOG_FLOOR * LOG_FLOOR).ln(),
            Basis::Multiquadrics { c } => (c * c + r2).sqrt(),
            Basis::InverseMultiquadrics { c } => 1.0 / (c * c + r2).sqrt(),
            _ => self.eval(r2.sqrt()),
        }
    }

    /// The function's value at distance `r` (≥ 0).
    pub fn eval(&self, r: f64) -> f64 {
        match *self {
            Basis::ThinPlateSplines => r * r * r.max(LOG_FLOOR).ln(),
            Basis::Multiquadrics { c } => (c * c + r * r).sqrt(),
            Basis::InverseMultiquadrics { c } => 1.0 / (c * c + r * r).sqrt(),
            Basis::VolumeSplines => r.abs(),
            Basis::Gaussian { shape, radius } => {
                if r > radius {
                    0.0
                } else {
                    (-(shape * r) * (shape * r)).exp()
                }
            }
            Basis::CompactTpsC2 { radius } => {
                let p = r / radius;
                if p >= 1.0 {
                    return 0.0;
                }
                let p2 = p * p;
                let p3 = p2 * p;
                1.0 - 30.0 * p2 - 10.0 * p3 + 45.0 * p2 * p2 - 6.0 * p3 * p2 - 60.0 * p3 * p.max(LOG_FLOOR).ln()
            }
            Basis::CompactPolynomial { order, radius } => {
                let p = r / radius;
                if p >= 1.0 {
                    return 0.0;
                }
                wendland(order, p)
            }
        }
    }
}

/// Wendland's compactly supported polynomials on the normalised distance `p` in [0, 1).
fn wendland(order: u8, p: f64) -> f64 {
    let q = 1.0 - p;
    match order {
        0 => q * q,
        2 => q.powi(4) * (4.0 * p + 1.0),
        4 => q.powi(6) * (35.0 * p * p + 18.0 * p + 3.0),
        6 => q.powi(8) * (((32.0 * p + 25.0) * p + 8.0) * p + 1.0),
        _ => q.powi(10) * ((((1287.0 * p + 1350.0) * p + 630.0) * p + 150.0) * p + 15.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidelink_precice_config::diagnostics::Location;

    fn decl(name: &str, shape: Option<f64>, radius: Option<f64>) -> BasisFunctionDecl {
        BasisFunctionDecl {
            name: name.into(),
            shape_parameter: shape,
            support_radius: radius,
            loc: Location::default(),
        }
    }

    #[test]
    fn values_at_known_distances() {
        // Closed forms evaluated by hand; 1e-14 is a few ulps of values of order one.
        let tps = Basis::from_decl(&decl("thin-plate-splines", None, None)).unwrap();
        assert_eq!(tps.eval(0.0), 0.0);
        assert!((tps.eval(2.0) - 4.0 * 2f64.ln()).abs() < 1e-14);
        let mq = Basis::from_decl(&decl("multiquadrics", Some(3.0), None)).unwrap();
        assert!((mq.eval(4.0) - 5.0).abs() < 1e-14);
        let imq = Basis::from_decl(&decl("inverse-multiquadrics", Some(3.0), None)).unwrap();
        assert!((imq.eval(4.0) - 0.2).abs() < 1e-14);
        let c0 = Basis::from_decl(&decl("compact-polynomial-c0", None, Some(2.0))).unwrap();
        assert!((c0.eval(1.0) - 0.25).abs() < 1e-14);
        let c2 = Basis::from_decl(&decl("compact-polynomial-c2", None, Some(2.0))).unwrap();
        assert!((c2.eval(1.0) - 0.0625 * 3.0).abs() < 1e-14);
    }

    #[test]
    fn squared_distances_give_the_same_values() {
        // eval_sq(r²) = eval(r) up to the rounding of the square root and of ½ log r² against
        // log r: a few ulps, 1e-14 relative.
        let all = [
            Basis::ThinPlateSplines,
            Basis::Multiquadrics { c: 0.3 },
            Basis::InverseMultiquadrics { c: 0.3 },
            Basis::VolumeSplines,
            Basis::Gaussian { shape: 2.0, radius: 2.3 },
            Basis::CompactTpsC2 { radius: 0.7 },
            Basis::CompactPolynomial { order: 4, radius: 0.7 },
        ];
        for b in all {
            for r in [0.0, 1e-15, 1e-7, 0.01, 0.3, 0.69, 1.0, 2.0, 5.0] {
                let (direct, squared) = (b.eval(r), b.eval_sq(r * r));
                assert!(
                    (direct - squared).abs() <= 1e-14 * direct.abs().max(1e-300),
                    "{b:?} at {r}: {direct} {squared}"
                );
            }
        }
    }

    #[test]
    fn compact_ones_start_at_their_peak_and_vanish_at_the_support_radius() {
        // Every compact polynomial and the compact TPS equal their normalisation at 0 and reach
        // 0 at the support radius, continuously (checked just inside it).
        for (name, at0) in [
            ("compact-tps-c2", 1.0),
            ("compact-polynomial-c0", 1.0),
            ("compact-polynomial-c2", 1.0),
            ("compact-polynomial-c4", 3.0),
            ("compact-polynomial-c6", 1.0),
            ("compact-polynomial-c8", 15.0),
        ] {
            let b = Basis::from_decl(&decl(name, None, Some(0.5))).unwrap();
            assert!((b.eval(0.0) - at0).abs() < 1e-12, "{name}");
            assert_eq!(b.eval(0.5), 0.0, "{name}");
            assert!(b.eval(0.5 * (1.0 - 1e-6)).abs() < 1e-6 * at0, "{name}");
            assert!(b.is_spd(), "{name}");
            assert_eq!(b.support_radius(), Some(0.5));
        }
    }

    #[test]
    fn gaussian_takes_a_shape_or_a_radius_and_is_cut_off_at_1e_minus_9() {
        let by_shape = Basis::from_decl(&decl("gaussian", Some(2.0), None)).unwrap();
        let r = by_shape.support_radius().unwrap();
        assert!((by_shape.eval(r * (1.0 - 1e-12)) - GAUSSIAN_CUTOFF).abs() < 1e-15);
        assert_eq!(by_shape.eval(r * 1.0001), 0.0);
        let by_radius = Basis::from_decl(&decl("gaussian", None, Some(r))).unwrap();
        assert!((by_radius.eval(0.3) - by_shape.eval(0.3)).abs() < 1e-14);
        for bad in [decl("gaussian", Some(1.0), Some(1.0)), decl("gaussian", None, None)] {
            assert!(Basis::from_decl(&bad).unwrap_err().contains("exactly one"));
        }
    }

    #[test]
    fn definiteness_and_parameter_checks() {
        assert!(!Basis::ThinPlateSplines.is_spd());
        assert!(!Basis::VolumeSplines.is_spd());
        assert!(!Basis::Multiquadrics { c: 1.0 }.is_spd());
        assert!(Basis::InverseMultiquadrics { c: 1.0 }.is_spd());
        let e = Basis::from_decl(&decl("compact-polynomial-c4", None, Some(-1.0))).unwrap_err();
        assert!(e.contains("support-radius") && e.contains("larger than zero"), "{e}");
        let e = Basis::from_decl(&decl("multiquadrics", None, None)).unwrap_err();
        assert!(e.contains("shape-parameter"), "{e}");
    }
}
