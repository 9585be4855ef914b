//! The convolution's inner loop: `R` kernel rows against one velocity history segment at once, so
//! each history value is loaded once for `R` products (the loop is bound by loads, not arithmetic).

/// Adds `Σ_m k_j[m]·h[m]` to `acc[j]` for the `R` rows `k_j` (each at least `h.len()` long).
/// Four lanes per row keep the partial sums independent, so the compiler vectorises the loop.
#[inline]
pub(super) fn dot_rows<const R: usize>(ks: [&[f64]; R], h: &[f64], acc: &mut [f64; R]) {
    let n = h.len();
    let ks = ks.map(|k| &k[..n]);
    let mut lanes = [[0.0f64; 4]; R];
    let full = n / 4 * 4;
    let mut m = 0;
    while m < full {
        let hb = [h[m], h[m + 1], h[m + 2], h[m + 3]];
        for (lane, k) in lanes.iter_mut().zip(&ks) {
            let kb = &k[m..m + 4];
            for l in 0..4 {
                lane[l] += kb[l] * hb[l];
            }
        }
        m += 4;
    }
    for (j, (lane, k)) in lanes.iter().zip(&ks).enumerate() {
        let tail: f64 = k[full..].iter().zip(&h[full..]).map(|(a, b)| a * b).sum();
        acc[j] += (lane[0] + lane[2]) + (lane[1] + lane[3]) + tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_plain_sums_for_every_tail_length() {
        for n in 0..11 {
            let h: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
            let k0: Vec<f64> = (0..n + 2).map(|i| 0.5 * i as f64).collect();
            let k1: Vec<f64> = (0..n).map(|i| -(i as f64).powi(2)).collect();
            let mut acc = [1.0, 2.0];
            dot_rows([&k0, &k1], &h, &mut acc);
            let plain = |k: &[f64]| k.iter().zip(&h).map(|(a, b)| a * b).sum::<f64>();
            assert_eq!(acc, [1.0 + plain(&k0), 2.0 + plain(&k1)], "n = {n}");
        }
    }
}
