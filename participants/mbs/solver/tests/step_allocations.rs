//! The dense HHT step allocates nothing once warmed up: counted by this test program's global
//! allocator, on the calling thread only (the test harness's own threads are not counted).

use nalgebra::Vector3;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tidelink_mbs_solver::fixtures::{chain, two_body_heave};
use tidelink_mbs_solver::solver::hht::Hht;
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::system::MultibodySystem;

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call goes unchanged to the system allocator; a thread-local counter (const
// initialised, so reading it allocates nothing) is all that is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count() -> usize {
    COUNT.with(Cell::get)
}

/// A varying heave load on every free body.
fn load(system: &mut MultibodySystem, t: f64) {
    for (_, b) in system.bodies.iter_mut() {
        if !b.is_fixed() {
            b.clear_accumulators();
            b.add_force(Vector3::new(1.0, 0.0, b.mass() * (9.81 + t.sin())));
        }
    }
}

/// Allocations in `steps` steps after 10 warm-up steps, each step after a checkpoint's
/// history is restored (as a coupling iteration does) when `restore` is set.
fn allocations(mut system: MultibodySystem, dense_in_place: bool, restore: bool, steps: usize) -> usize {
    let mut hht = Hht::default();
    hht.dense_in_place = dense_in_place;
    let mut t = 0.0;
    for _ in 0..10 {
        load(&mut system, t);
        system.step(&mut hht, 0.02).unwrap();
        t += 0.02;
    }
    let history = hht.save_history();
    let before = count();
    for _ in 0..steps {
        if restore {
            hht.restore_history(&history);
        }
        load(&mut system, t);
        system.step_at(&mut hht, t, 0.02).unwrap();
        t += 0.02;
    }
    count() - before
}

#[test]
fn the_dense_step_allocates_nothing_after_warm_up() {
    let (bodies, joints, forces) = chain(3, true);
    let systems =
        [("two-body heave with A∞", two_body_heave()), ("chain", MultibodySystem::from_parts(bodies, joints, forces))];
    for (name, system) in systems {
        for restore in [false, true] {
            assert_eq!(allocations(system.clone(), true, restore, 50), 0, "{name}, restore {restore}");
        }
        // The counter counts: the general path allocates in every step.
        assert!(allocations(system, false, false, 5) >= 5, "{name}: the general path");
    }
}
