//! The `.series` file of a VTK export (`<Mesh>-<Participant>.<ext>.series`): the JSON list of
//! the files written with their times, which ParaView opens as one time series. Written as
//! libprecice writes it, on one line, times in their shortest round-trip form.

use crate::native::cxx_format::shortest;

/// The JSON of `records` (file name, time), in the order written; `None` when there are none
/// (libprecice then writes no series file).
pub(super) fn render(records: &[(String, f64)]) -> Option<String> {
    if records.is_empty() {
        return None;
    }
    let files: Vec<String> =
        records.iter().map(|(name, t)| format!(" {{ \"name\" : \"{name}\", \"time\" : {} }}", shortest(*t))).collect();
    Some(format!("{{ \"file-series-version\" : \"1.0\", \"files\" : [{} ] }}", files.join(",")))
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn the_series_is_libprecice_s_one_line_json() {
        assert_eq!(render(&[]), None);
        let records = [("M-A.init.vtu".to_string(), 0.0), ("M-A.dt1.vtu".to_string(), 0.1)];
        let expected = r#"{ "file-series-version" : "1.0", "files" : [ { "name" : "M-A.init.vtu", "time" : 0 }, { "name" : "M-A.dt1.vtu", "time" : 0.1 } ] }"#;
        assert_eq!(render(&records).as_deref(), Some(expected));
    }
}
