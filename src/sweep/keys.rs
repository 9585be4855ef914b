//! A value inside a YAML document named by a dotted path with list indexes
//! (`model.tsdas[0].damping_coefficient`): found, checked to be a number, and replaced.

use serde_yaml::Value;

/// One step of a path: a map key or a list index.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The steps of `path`, or why it is not one (empty parts, an index that is not a number).
pub fn parse(path: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if key.is_empty() && (steps.is_empty() || rest.is_empty()) {
            return Err(format!("`{path}` has an empty part; write keys separated by dots, e.g. model.waves.height"));
        }
        if !key.is_empty() {
            steps.push(Step::Key(key.to_string()));
        }
        if !rest.is_empty() {
            for index in format!("[{rest}").split('[').skip(1) {
                let Some(n) = index.strip_suffix(']').and_then(|i| i.parse().ok()) else {
                    return Err(format!("`{path}`: `[{index}` is not a list index such as [0]"));
                };
                steps.push(Step::Index(n));
            }
        }
    }
    Ok(steps)
}

/// The value at `steps` in `doc`, or what is there instead (for the message): the keys of the
/// deepest map reached, or the length of the list.
pub fn get<'a>(doc: &'a Value, steps: &[Step]) -> Result<&'a Value, String> {
    let mut here = doc;
    for (i, step) in steps.iter().enumerate() {
        let at = show(&steps[..i]);
        here = match (step, here) {
            (Step::Key(k), Value::Mapping(m)) => match m.get(k.as_str()) {
                Some(v) => v,
                None => {
                    let keys: Vec<&str> = m.keys().filter_map(Value::as_str).collect();
                    let hint = tidelink_adapter_core::diagnostics::nearest(k, keys.iter().copied())
                        .map(|n| format!(" (did you mean `{n}`?)"))
                        .unwrap_or_default();
                    return Err(format!("no key `{k}` under `{at}`{hint}; the keys there: {}", keys.join(", ")));
                }
            },
            (Step::Index(n), Value::Sequence(s)) => match s.get(*n) {
                Some(v) => v,
                None => return Err(format!("`{at}` is a list of {} entries: index {n} is past its end", s.len())),
            },
            (Step::Key(k), _) => return Err(format!("`{at}` is not a map, so it has no key `{k}`")),
            (Step::Index(n), _) => return Err(format!("`{at}` is not a list, so it has no entry [{n}]")),
        };
    }
    Ok(here)
}

/// Replaces the number at `steps` by `value` (the path was checked with [`get`]).
pub fn set(doc: &mut Value, steps: &[Step], value: f64) -> Result<(), String> {
    let mut here = doc;
    for step in steps {
        here = match (step, here) {
            (Step::Key(k), Value::Mapping(m)) => m.get_mut(k.as_str()).ok_or_else(|| format!("no key `{k}`"))?,
            (Step::Index(n), Value::Sequence(s)) => s.get_mut(*n).ok_or_else(|| format!("no entry [{n}]"))?,
            _ => return Err(format!("`{}` is not in the file", show(steps))),
        };
    }
    // A whole number where the file has an integer stays one (a count must not become 3.0).
    let integral = value.fract() == 0.0 && value.abs() < 9.0e15;
    *here = if integral && (here.is_i64() || here.is_u64()) {
        Value::Number((value as i64).into())
    } else {
        Value::Number(value.into())
    };
    Ok(())
}

/// `steps` written back as a path (`(the file)` when empty).
fn show(steps: &[Step]) -> String {
    if steps.is_empty() {
        return "(the file)".into();
    }
    let mut s = String::new();
    for step in steps {
        match step {
            Step::Key(k) if s.is_empty() => s.push_str(k),
            Step::Key(k) => s.push_str(&format!(".{k}")),
            Step::Index(n) => s.push_str(&format!("[{n}]")),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_check_and_replace_numbers() {
        let mut doc: Value = serde_yaml::from_str(
            "model:\n  waves: {height: 2.5, period: 8}\n  tsdas:\n    - {name: pto, damping_coefficient: 1.2e6}\n",
        )
        .unwrap();
        let steps = parse("model.tsdas[0].damping_coefficient").unwrap();
        assert_eq!(get(&doc, &steps).unwrap().as_f64(), Some(1.2e6));
        set(&mut doc, &steps, 2.0e6).unwrap();
        assert_eq!(get(&doc, &steps).unwrap().as_f64(), Some(2.0e6));
        let e = get(&doc, &parse("model.waves.heigth").unwrap()).unwrap_err();
        assert!(e.contains("no key `heigth` under `model.waves` (did you mean `height`?)"), "{e}");
        let e = get(&doc, &parse("model.tsdas[3].name").unwrap()).unwrap_err();
        assert!(e.contains("`model.tsdas` is a list of 1 entries: index 3"), "{e}");
        assert!(parse("model..waves").is_err());
        assert!(parse("model.tsdas[x]").is_err());
    }
}
