//! Layouts, the concatenated vectors and resampling onto another time grid.

use super::datum;
use crate::native::acceleration::layout::{all, primary, resample_all, resample_primary, Layout};
use nalgebra::DVector;

fn layout(samples: &[(bool, usize, &[f64])], start: Option<f64>) -> Layout {
    let data: Vec<_> = samples
        .iter()
        .enumerate()
        .map(|(i, (p, size, times))| {
            let n = size * times.len();
            datum(&format!("D{i}"), *p, *size, times, &vec![0.0; n], &vec![0.0; n])
        })
        .collect();
    Layout::of(&data, start, "t").unwrap()
}

#[test]
fn vectors_concatenate_in_call_order_and_primary_takes_the_window_end() {
    let data = vec![
        datum("A", true, 2, &[0.5, 1.0], &[1.0, 2.0, 3.0, 4.0], &[0.0; 4]),
        datum("S", false, 1, &[1.0], &[5.0], &[0.0]),
        datum("B", true, 1, &[0.5, 1.0], &[6.0, 7.0], &[0.0; 2]),
    ];
    assert_eq!(all(&data, |d| &d.values).as_slice(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    assert_eq!(primary(&data, true, |d| &d.values).as_slice(), [3.0, 4.0, 7.0]);
    assert_eq!(primary(&data, false, |d| &d.values).as_slice(), [1.0, 2.0, 3.0, 4.0, 6.0, 7.0]);
    let l = Layout::of(&data, None, "t").unwrap();
    assert_eq!(l.primary_ranges(true), [0..2, 2..3]);
    assert_eq!(l.primary_ranges(false), [0..4, 4..6]);
    assert_eq!((l.all_len(), l.primary_len(true), l.end()), (7, 3, 1.0));
}

#[test]
fn inconsistent_data_are_an_error() {
    let data = vec![datum("A", true, 2, &[1.0], &[1.0], &[0.0, 0.0])];
    assert!(Layout::of(&data, None, "t").is_err());
    let data = vec![datum("A", true, 1, &[], &[], &[])];
    assert!(Layout::of(&data, None, "t").is_err());
}

#[test]
fn same_grid_compares_offsets_from_the_window_end() {
    let w1 = layout(&[(true, 1, &[0.5, 1.0])], None);
    let w2 = layout(&[(true, 1, &[1.5, 2.0])], Some(1.0));
    let w3 = layout(&[(true, 1, &[1.25, 1.5, 1.75, 2.0])], Some(1.0));
    let other = layout(&[(false, 1, &[1.5, 2.0])], Some(1.0));
    assert!(w1.same_grid(&w2));
    assert!(!w1.same_grid(&w3) && w1.same_data(&w3));
    assert!(!w1.same_data(&other));
}

#[test]
fn resampling_is_linear_in_window_time_from_zero_at_the_start() {
    // Window (0, 1] with samples at 0.5, 1 (two components each) onto (1, 2] with four
    // samples: τ = 0.25, 0.5, 0.75, 1 → half of the first sample, the first, the mean, the last.
    let from = layout(&[(true, 2, &[0.5, 1.0])], Some(0.0));
    let to = layout(&[(true, 2, &[1.25, 1.5, 1.75, 2.0])], Some(1.0));
    let v = DVector::from_vec(vec![1.0, 10.0, 2.0, 20.0]);
    let r = resample_all(&from, &to, &v);
    assert_eq!(r.as_slice(), [0.5, 5.0, 1.0, 10.0, 1.5, 15.0, 2.0, 20.0]);
    // And back: τ = 0.5, 1 are sample points.
    assert_eq!(resample_all(&to, &from, &r).as_slice(), v.as_slice());
    // The primary vector on the reduced grid is the window end only: unchanged.
    let e = DVector::from_vec(vec![2.0, 20.0]);
    assert_eq!(resample_primary(&from, &to, true, &e).as_slice(), e.as_slice());
    assert_eq!(resample_primary(&from, &to, false, &v).as_slice(), r.as_slice());
}

#[test]
fn the_first_windows_unknown_start_takes_the_next_windows_length() {
    // Window 1 ends at 2 with samples at 1.5, 2 (its start unknown); window 2 is (2, 4]:
    // window 1 is taken to be 2 long, so its samples lie at τ = 0.75 and 1, and window 2's
    // sample at τ = 0.5 (t = 3) gets (2/3)·v(0.75).
    let from = layout(&[(true, 1, &[1.5, 2.0])], None);
    let to = layout(&[(true, 1, &[3.0, 4.0])], Some(2.0));
    let r = resample_all(&from, &to, &DVector::from_vec(vec![3.0, 6.0]));
    assert!((r[0] - 2.0).abs() < 1e-15 && r[1] == 6.0, "{r}");
}
