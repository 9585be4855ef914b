//! The slab schedule of the fluid pass and its outputs shared between concurrent tasks.
//!
//! The fluid particles, in cell order, are cut into slabs of whole cell layers along the last
//! axis, each at least one search radius thick. A task of slab `s` writes the own-side results
//! of the particles of slab `s` and the j side of pairs whose other particle lies in slab `s`
//! or `s + 1` (j comes after i in cell order, and no further than one radius). Tasks run in two
//! phases, even slabs then odd ones, so no two concurrent tasks touch the same entry. In debug
//! builds every write checks that discipline ([`Writer`]); release builds carry no check.

// Index loops over the fixed-size lane arrays are the pattern the vectoriser handles best.
#![allow(clippy::needless_range_loop)]

use super::Rhs;
use crate::neighbours::CellGrid;
use crate::particles::LANES;
use std::marker::PhantomData;

/// Accumulators that particles write into for their neighbours: the j side of every pair,
/// f32, one entry per fluid particle plus padding.
#[derive(Debug, Default)]
pub(crate) struct Scatter {
    pub(super) a: [Vec<f32>; 3],
    pub(super) d: Vec<f32>,
    pub(super) s: [Vec<f32>; 3],
}

impl Scatter {
    /// Zeroes the accumulators of `n` particles (and the padding).
    pub(super) fn reset(&mut self, n: usize) {
        for v in self.a.iter_mut().chain(self.s.iter_mut()).chain(std::iter::once(&mut self.d)) {
            v.clear();
            v.resize(n + LANES, 0.0);
        }
    }
}

/// What one slab task may write: its own particles `first..last`, and j sides up to `reach`
/// (the end of the next slab).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SlabTask {
    pub first: usize,
    pub last: usize,
    pub reach: usize,
}

/// The slab boundaries of one pass: particle indices where each slab starts, and the end.
#[derive(Debug)]
pub(super) struct Slabs {
    bounds: Vec<usize>,
}

impl Slabs {
    /// Slabs of whole cell layers along the last axis of `grid` (cell table `starts`), each at
    /// least `radius` thick.
    pub fn new<const D: usize>(grid: &CellGrid, starts: &[u32], radius: f32) -> Self {
        let layer_cells: usize = (0..D - 1).map(|k| grid.n[k]).product();
        let thick = ((radius as f64 / grid.cell[D - 1]).ceil() as usize).max(1);
        debug_assert!(
            thick as f64 * grid.cell[D - 1] >= radius as f64,
            "slab discipline: slabs of {thick} layers of {} are thinner than the search radius {radius}",
            grid.cell[D - 1]
        );
        let layers = grid.n[D - 1];
        let bounds =
            (0..layers.div_ceil(thick) + 1).map(|s| starts[(s * thick).min(layers) * layer_cells] as usize).collect();
        Self::from_bounds(bounds)
    }

    /// Slabs from their boundaries (non-decreasing: the tasks of one phase then never overlap).
    fn from_bounds(bounds: Vec<usize>) -> Self {
        debug_assert!(
            bounds.len() >= 2 && bounds.windows(2).all(|w| w[0] <= w[1]),
            "slab discipline: slab boundaries {bounds:?} are not in order"
        );
        Slabs { bounds }
    }

    /// The task of slab `s`.
    pub fn task(&self, s: usize) -> SlabTask {
        let end = self.bounds.len() - 1;
        SlabTask { first: self.bounds[s], last: self.bounds[s + 1], reach: self.bounds[(s + 2).min(end)] }
    }

    /// The tasks of one phase (`parity` 0: the even slabs, 1: the odd ones), which run
    /// concurrently; in debug builds, checked not to overlap.
    pub fn phase(&self, parity: usize) -> Vec<SlabTask> {
        let tasks: Vec<SlabTask> = (parity..self.bounds.len() - 1).step_by(2).map(|s| self.task(s)).collect();
        debug_assert!(
            tasks.windows(2).all(|t| t[0].reach <= t[1].first),
            "slab discipline: concurrent slab tasks overlap: {tasks:?}"
        );
        tasks
    }
}

/// Raw access to the outputs of the fluid pass from concurrent slab tasks: the j-side
/// accumulators, the own-side results and the XSPH shifts, borrowed for the pass.
///
/// Safety argument: the slab discipline of this module (each task writes through its own
/// [`Writer`], only inside its [`SlabTask`]; one phase's tasks never overlap).
pub(super) struct Shared<'a, const D: usize> {
    a: [*mut f32; 3],
    d: *mut f32,
    s: [*mut f32; 3],
    rhs: *mut Rhs,
    shift: *mut [f64; 3],
    /// The number of particles (the scatter arrays hold `LANES` more).
    n: usize,
    _borrow: PhantomData<&'a mut [f32]>,
}

// SAFETY: see the type's documentation; the pointers outlive the pass (the borrow).
unsafe impl<const D: usize> Sync for Shared<'_, D> {}
// SAFETY: as above.
unsafe impl<const D: usize> Send for Shared<'_, D> {}

impl<'a, const D: usize> Shared<'a, D> {
    /// The outputs of a pass over `rhs.len()` particles.
    pub fn new(scatter: &'a mut Scatter, rhs: &'a mut [Rhs], shift: &'a mut [[f64; 3]]) -> Self {
        let n = rhs.len();
        assert!(
            shift.len() == n && scatter.d.len() == n + LANES,
            "the outputs of a pass cover its particles (and the scatter its padding)"
        );
        Shared {
            a: std::array::from_fn(|k| scatter.a[k].as_mut_ptr()),
            d: scatter.d.as_mut_ptr(),
            s: std::array::from_fn(|k| scatter.s[k].as_mut_ptr()),
            rhs: rhs.as_mut_ptr(),
            shift: shift.as_mut_ptr(),
            n,
            _borrow: PhantomData,
        }
    }

    /// The writer of one task.
    pub fn writer(&self, task: SlabTask) -> Writer<'_, D> {
        debug_assert!(
            task.first <= task.last && task.last <= task.reach && task.reach <= self.n,
            "slab discipline: task {task:?} does not fit {} particles",
            self.n
        );
        Writer { out: self, task }
    }
}

/// One slab task's access to the [`Shared`] outputs; in debug builds every write is checked
/// to lie inside the task.
pub(super) struct Writer<'a, const D: usize> {
    out: &'a Shared<'a, D>,
    task: SlabTask,
}

impl<const D: usize> Writer<'_, D> {
    /// The task this writer serves.
    #[inline(always)]
    pub fn task(&self) -> SlabTask {
        self.task
    }

    /// Adds the j side of one group (its first `m` lanes) into the scatter arrays, one array
    /// at a time so that a whole group (`m == LANES`, a constant after inlining) is a vector
    /// add.
    ///
    /// # Safety
    /// No concurrent task writes entries `j..j + m` (the slab discipline: they lie in this
    /// task's slab or the next, which debug builds check).
    #[inline(always)]
    pub unsafe fn scatter_add(
        &self,
        j: usize,
        ja: &[[f32; LANES]; D],
        jd: &[f32; LANES],
        js: &[[f32; LANES]; D],
        m: usize,
        shift: bool,
    ) {
        debug_assert!(
            self.task.first <= j && j + m <= self.task.reach,
            "slab discipline: j side {j}..{} written by the task of {:?}",
            j + m,
            self.task
        );
        let out = self.out;
        // SAFETY: entries j..j + m exist (j + m ≤ n, the pass's particle count) and no other
        // task writes them concurrently (the caller's contract).
        unsafe {
            for k in 0..D {
                let a = out.a[k].add(j);
                for l in 0..m {
                    *a.add(l) += ja[k][l];
                }
                if shift {
                    let sk = out.s[k].add(j);
                    for l in 0..m {
                        *sk.add(l) += js[k][l];
                    }
                }
            }
            let d = out.d.add(j);
            for l in 0..m {
                *d.add(l) += jd[l];
            }
        }
    }

    /// The own-side result and XSPH shift of particle `i`.
    ///
    /// # Safety
    /// No other reference to entry `i` is alive (the slab discipline: `i` is one of this
    /// task's own particles, which debug builds check).
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn own(&self, i: usize) -> (&mut Rhs, &mut [f64; 3]) {
        debug_assert!(
            self.task.first <= i && i < self.task.last,
            "slab discipline: particle {i} written by the task of {:?}",
            self.task
        );
        // SAFETY: i < n, and only this task touches entry i (the caller's contract).
        unsafe { (&mut *self.out.rhs.add(i), &mut *self.out.shift.add(i)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four slabs of 8 particles, with their outputs.
    fn outputs() -> (Slabs, Scatter, Vec<Rhs>, Vec<[f64; 3]>) {
        let mut scatter = Scatter::default();
        scatter.reset(32);
        (Slabs::from_bounds(vec![0, 8, 16, 24, 32]), scatter, vec![[0.0; 4]; 32], vec![[0.0; 3]; 32])
    }

    #[test]
    fn phases_alternate_and_tasks_reach_the_next_slab() {
        let (slabs, ..) = outputs();
        let even = slabs.phase(0);
        assert_eq!(even, [SlabTask { first: 0, last: 8, reach: 16 }, SlabTask { first: 16, last: 24, reach: 32 }]);
        assert_eq!(
            slabs.phase(1),
            [SlabTask { first: 8, last: 16, reach: 24 }, SlabTask { first: 24, last: 32, reach: 32 }]
        );
    }

    #[test]
    fn writes_inside_the_task_land() {
        let (slabs, mut scatter, mut rhs, mut shift) = outputs();
        {
            let out = Shared::<3>::new(&mut scatter, &mut rhs, &mut shift);
            let w = out.writer(slabs.task(1));
            // SAFETY: one task, in its own range (8..16 own, j sides up to 24).
            unsafe {
                w.scatter_add(20, &[[1.0; LANES]; 3], &[2.0; LANES], &[[3.0; LANES]; 3], 4, true);
                w.own(15).0[3] = 5.0;
            }
        }
        assert_eq!(
            (scatter.a[0][19..25].to_vec(), scatter.d[23], scatter.s[2][20]),
            (vec![0.0, 1.0, 1.0, 1.0, 1.0, 0.0], 2.0, 3.0)
        );
        assert_eq!(rhs[15][3], 5.0);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "slab discipline: j side 24..25")]
    fn a_j_side_beyond_the_next_slab_is_caught() {
        let (slabs, mut scatter, mut rhs, mut shift) = outputs();
        let out = Shared::<3>::new(&mut scatter, &mut rhs, &mut shift);
        let w = out.writer(slabs.task(1));
        // SAFETY: single-threaded; the debug check stops the write (24 is slab 3's).
        unsafe { w.scatter_add(24, &[[1.0; LANES]; 3], &[1.0; LANES], &[[0.0; LANES]; 3], 1, false) };
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "slab discipline: particle 16")]
    fn an_own_write_outside_the_slab_is_caught() {
        let (slabs, mut scatter, mut rhs, mut shift) = outputs();
        let out = Shared::<3>::new(&mut scatter, &mut rhs, &mut shift);
        let w = out.writer(slabs.task(1));
        // SAFETY: single-threaded; the debug check stops the write (16 is slab 2's).
        unsafe { w.own(16).0[0] = 1.0 };
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "slab discipline: slab boundaries")]
    fn overlapping_slabs_are_caught() {
        Slabs::from_bounds(vec![0, 16, 8, 24]);
    }
}
