//! The implicit schemes' iteration and convergence logs of the two backends, compared column by
//! column.

/// The implicit schemes' log files, `precice-<participant>-<kind>.log`, written into the
/// working directory by both backends.
pub const LOGS: [&str; 2] = ["iterations", "convergence"];

/// Log columns not compared in scenario `name`, with the reason.
///
/// `iqn_ils_serial_qr1_value` (one unknown, QR1): once a window holds one column more than
/// there are unknowns, libprecice 3.4.1 fails to insert that column into its QR decomposition
/// but keeps it in V and W, so its QR1 filter (which walks the QR's columns) never counts it
/// as deleted; the native engine's filter sees all columns and deletes it. The values, the
/// column counts and the iterations agree; only `DeletedQNColumns` differs (1 against 0).
pub fn skipped_log_columns(name: &str) -> &'static [&'static str] {
    match name {
        "iqn_ils_serial_qr1_value" => &["DeletedQNColumns"],
        _ => &[],
    }
}

/// Compares two log files column by column: the same header, the same number of rows, equal
/// integers and reals within `tol` relative (the files print 8 significant digits, so the
/// reals are compared to the larger of `tol` and 5e-8 of their magnitude), except the
/// columns named in `skip`; problems go to `out`.
pub fn compare_logs(what: &str, native: &str, real: &str, tol: f64, skip: &[&str], out: &mut Vec<String>) -> usize {
    let (n, r): (Vec<&str>, Vec<&str>) = (native.lines().collect(), real.lines().collect());
    if n.first() != r.first() {
        out.push(format!("{what}: header native {:?}, preCICE {:?}", n.first(), r.first()));
        return 0;
    }
    if n.len() != r.len() {
        out.push(format!("{what}: {} rows native, {} on preCICE", n.len() - 1, r.len().saturating_sub(1)));
    }
    let header: Vec<&str> = n.first().map(|h| h.split_whitespace().collect()).unwrap_or_default();
    let mut cells = 0;
    for (i, (ln, lr)) in n.iter().zip(&r).enumerate().skip(1) {
        let (cn, cr): (Vec<&str>, Vec<&str>) = (ln.split_whitespace().collect(), lr.split_whitespace().collect());
        if cn.len() != cr.len() {
            out.push(format!("{what} row {i}: native `{ln}`, preCICE `{lr}`"));
            continue;
        }
        for (k, (a, b)) in cn.iter().zip(&cr).enumerate() {
            if header.get(k).is_some_and(|h| skip.contains(h)) {
                continue;
            }
            cells += 1;
            let same = match (a.parse::<i64>(), b.parse::<i64>()) {
                (Ok(x), Ok(y)) => x == y,
                _ => match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => (x - y).abs() <= tol.max(5e-8 * x.abs().max(y.abs())),
                    _ => a == b,
                },
            };
            if !same {
                out.push(format!("{what} row {i}: native `{ln}`, preCICE `{lr}`"));
                break;
            }
        }
    }
    cells
}
