//! Checkpoints of the whole system through the adapter: restoring one and repeating the
//! steps gives back the same numbers bit for bit (bodies, the HHT history, force-element
//! coefficients changed by a callback), as an implicit coupling scheme needs.

use nalgebra::Vector3;
use tidelink_adapter_core::Adapter;
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs::flap::{self, FlapSettings};
use tidelink_mbs_solver::Rsda;

fn state_bits(a: &MbsAdapter) -> Vec<u64> {
    a.bodies().save_state().to_bits()
}

/// Steps of 1 ms from `t` with a load on the flap's tip, as a fluid would apply it; the end time.
fn advance(a: &mut MbsAdapter, mut t: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        let h = a.coupling_bodies()[0].handle;
        let sys = a.system_mut();
        let b = sys.bodies.get_mut(h).unwrap();
        b.clear_accumulators();
        b.add_force_at_point(Vector3::new(0.0, 30.0, 0.0), &Vector3::new(0.2, 0.0, 0.0));
        a.advance(t, 1e-3).unwrap();
        t += 1e-3;
    }
    t
}

#[test]
fn restoring_a_checkpoint_repeats_the_window_bit_for_bit() {
    // The spring is stiffened at 15 ms, inside the repeated stretch.
    let settings = FlapSettings { stiffen_at: 0.015, ..FlapSettings::default() };
    let mut a = flap::adapter(&settings, None).unwrap();
    let t = advance(&mut a, 0.0, 10);
    a.write_checkpoint().unwrap();
    advance(&mut a, t, 10);
    let first = state_bits(&a);
    let k_first = a.system_mut().forces.find_mut::<Rsda>(flap::SPRING).unwrap().stiffness;
    assert_eq!(k_first, 100.0, "the callback stiffened the spring");
    a.read_checkpoint().unwrap();
    assert_eq!(a.system_mut().forces.find_mut::<Rsda>(flap::SPRING).unwrap().stiffness, 25.0, "coefficients restored");
    advance(&mut a, t, 10);
    assert_eq!(state_bits(&a), first, "the repeated window differs");
    // And the flap did move: the check is not comparing two resting states.
    let h = a.coupling_bodies()[0].handle;
    assert!(a.bodies().get(h).unwrap().angvel().z.abs() > 1e-3);
}
