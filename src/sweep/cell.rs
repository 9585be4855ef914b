//! A cell's own copy of the case: the smallest folder holding the manifest and every file it
//! names (the XML, the participant files) is copied into the cell's folder (its YAML, XML,
//! mesh and module files; never output or exchange folders), the grid's numbers are set in the
//! copy, the XML's max-time set to the grid's duration, and every path that leads out of the
//! copied folder (reference data, module scripts of the repository) made absolute, so the copy
//! reads the same inputs and writes only inside the cell. An exchange directory outside the
//! copy becomes the cell's own `exchange/`.

use super::grid::Grid;
use crate::manifest::Case;
use anyhow::{bail, Context, Result};
use serde_yaml::Value;
use std::path::{Path, PathBuf};

/// The extensions of the files a cell copies: inputs only.
const COPIED: &[&str] = &["yaml", "yml", "xml", "stl", "obj", "py", "m", "txt"];

/// Folders never copied: outputs, exchange and profiling folders, hidden and cache folders.
const SKIPPED: &[&str] = &["output", "precice-run", "precice-profiling", "__pycache__"];

/// Most files a case tree may have to be copied per cell (a bigger tree is likely not a case).
const MAX_FILES: usize = 2000;

/// Where the case lies in the folder every cell copies.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The copied folder (canonical).
    pub root: PathBuf,
    /// The case folder (the manifest's), relative to `root`.
    pub case: PathBuf,
    /// The XML, relative to `root`.
    pub xml: PathBuf,
    /// The files to copy, relative to `root`.
    pub files: Vec<PathBuf>,
}

/// The layout of `case`, with the grid's files checked to lie in the copied folder; `skip` is
/// the sweep's output folder, never copied (it may lie inside the case).
pub fn layout(case: &Case, grid: &Grid, skip: &Path) -> Result<Layout> {
    let canon = |p: &Path| p.canonicalize().with_context(|| format!("cannot resolve {}", p.display()));
    let case_dir = canon(if case.dir.as_os_str().is_empty() { Path::new(".") } else { &case.dir })?;
    let xml = canon(&case.xml_path())?;
    if grid.duration.is_some() && !std::fs::read_to_string(&xml).unwrap_or_default().contains("<max-time ") {
        bail!("{}", no_max_time(grid));
    }
    let mut root = case_dir.clone();
    let mut named = vec![xml.clone()];
    for (_, p) in case.launched() {
        if let Some(spec) = case.spec_path(p) {
            named.push(canon(&spec)?);
        }
        named.push(canon(&case.working_dir(p))?.join("x"));
    }
    for f in &named {
        while !f.starts_with(&root) {
            root = root.parent().map(Path::to_path_buf).context("the case's files have no common folder")?;
        }
    }
    for axis in std::iter::once(&grid.rows).chain(grid.columns.as_ref()) {
        let f = canon(&case_dir.join(&axis.file))?;
        if !f.starts_with(&root) {
            bail!(
                "{}: `{}` lies outside the folder the cells copy ({}); set a number of a file of the case",
                grid.path.display(),
                axis.file,
                root.display()
            );
        }
    }
    let skip = skip.canonicalize().unwrap_or_else(|_| skip.to_path_buf());
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))? {
            let p = entry?.path();
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if p.is_dir() {
                if !(name.starts_with('.') || SKIPPED.contains(&name.as_str()) || p == skip) {
                    stack.push(p);
                }
            } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| COPIED.contains(&e)) {
                files.push(p.strip_prefix(&root).map(Path::to_path_buf).unwrap_or(p.clone()));
                if files.len() > MAX_FILES {
                    bail!(
                        "the folder the cells would copy, {}, holds more than {MAX_FILES} input files; keep the case's \
                         files in their own folder",
                        root.display()
                    );
                }
            }
        }
    }
    files.sort();
    let rel = |p: &Path| p.strip_prefix(&root).map(Path::to_path_buf).unwrap_or_default();
    Ok(Layout { case: rel(&case_dir), xml: rel(&xml), root, files })
}

/// The error of a `duration` that the case's XML gives no max-time to set.
fn no_max_time(grid: &Grid) -> String {
    format!(
        "{}: error: `duration` is set but the case's XML has no <max-time value=…/> to set; remove `duration` (the \
         cells then run as long as the case does) or give the XML a max-time",
        grid.duration_at
    )
}

/// One number set in a file of the case.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Edit {
    /// The file, relative to the case folder.
    pub file: String,
    /// The key's path.
    pub key: String,
    /// The value.
    pub value: f64,
}

/// Writes the cell's copy of the case into `dir` (which must not exist) and returns the case
/// folder in it.
pub fn prepare(layout: &Layout, grid: &Grid, edits: &[Edit], dir: &Path) -> Result<PathBuf> {
    let copy = dir.join("case");
    let case_dir = layout.root.join(&layout.case);
    for f in &layout.files {
        let from = layout.root.join(f);
        let to = copy.join(f);
        std::fs::create_dir_all(to.parent().unwrap_or(&copy))?;
        let is_yaml = matches!(f.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
        let mine: Vec<&Edit> = edits.iter().filter(|e| same_file(&case_dir.join(&e.file), &from)).collect();
        if is_yaml {
            let text = std::fs::read_to_string(&from).with_context(|| format!("reading {}", from.display()))?;
            match adapt_yaml(&text, &from, &layout.root, &mine)? {
                Some(new) => std::fs::write(&to, new)?,
                None => std::fs::write(&to, text)?,
            }
        } else if *f == layout.xml {
            let text = std::fs::read_to_string(&from).with_context(|| format!("reading {}", from.display()))?;
            std::fs::write(&to, adapt_xml(&text, grid, &dir.join("exchange"))?)?;
        } else {
            std::fs::copy(&from, &to).with_context(|| format!("copying {}", from.display()))?;
        }
    }
    Ok(copy.join(&layout.case))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The YAML text with `edits` applied and the paths leading out of `root` made absolute;
/// `None` when nothing changes (the file is copied as written, comments and all).
fn adapt_yaml(text: &str, path: &Path, root: &Path, edits: &[&Edit]) -> Result<Option<String>> {
    let Ok(mut doc) = serde_yaml::from_str::<Value>(text) else {
        return Ok(None); // not YAML: copied as it is; the cell's run reports it
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut changed = absolutize(&mut doc, dir, root, None);
    for e in edits {
        let steps = super::keys::parse(&e.key).map_err(anyhow::Error::msg)?;
        super::keys::set(&mut doc, &steps, e.value)
            .map_err(|why| anyhow::anyhow!("{}: cannot set `{}`: {why}", path.display(), e.key))?;
        changed = true;
    }
    Ok(if changed {
        Some(format!(
            "# A sweep cell's copy of {} (numbers set, outside paths made absolute).\n{}",
            path.display(),
            serde_yaml::to_string(&doc)?
        ))
    } else {
        None
    })
}

/// Makes every relative path string of `v` that leads out of `root` (and exists) absolute;
/// output folders (`directory` keys) are left alone: a cell writes only inside its copy.
fn absolutize(v: &mut Value, dir: &Path, root: &Path, key: Option<&str>) -> bool {
    match v {
        Value::String(s) if key != Some("directory") && s.starts_with("..") => match dir.join(&*s).canonicalize() {
            Ok(p) if !p.starts_with(root) => {
                *s = p.display().to_string();
                true
            }
            _ => false,
        },
        Value::Mapping(m) => {
            let mut changed = false;
            for (k, v) in m.iter_mut() {
                changed |= absolutize(v, dir, root, k.as_str());
            }
            changed
        }
        Value::Sequence(s) => s.iter_mut().fold(false, |c, v| absolutize(v, dir, root, key) | c),
        _ => false,
    }
}

/// The XML with every `<max-time value=…>` set to the grid's duration and every exchange
/// directory that is absolute or climbs out (`..`) replaced by the cell's `exchange`.
fn adapt_xml(text: &str, grid: &Grid, exchange: &Path) -> Result<String> {
    let mut out = text.to_string();
    if let Some(d) = grid.duration {
        let n = replace_attr(&mut out, "<max-time ", "value", |_| Some(d.to_string()));
        if n == 0 {
            bail!("{}", no_max_time(grid));
        }
    }
    let exchange = exchange.display().to_string();
    replace_attr(&mut out, "<m2n:", "exchange-directory", |v| {
        (Path::new(v).is_absolute() || v.contains("..")).then(|| exchange.clone())
    });
    Ok(out)
}

/// In every tag starting with `tag`, replaces attribute `attr`'s value by `new(value)` when it
/// gives one; returns how many such tags have the attribute.
fn replace_attr(text: &mut String, tag: &str, attr: &str, new: impl Fn(&str) -> Option<String>) -> usize {
    let mut found = 0;
    let mut from = 0;
    while let Some(start) = text[from..].find(tag).map(|i| i + from) {
        let end = text[start..].find('>').map_or(text.len(), |i| i + start);
        let pattern = format!("{attr}=\"");
        if let Some(a) = text[start..end].find(&pattern).map(|i| i + start + pattern.len()) {
            if let Some(b) = text[a..end].find('"').map(|i| i + a) {
                found += 1;
                if let Some(v) = new(&text[a..b]) {
                    text.replace_range(a..b, &v);
                }
            }
        }
        from = start + tag.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_attributes_are_replaced_in_their_tags_only() {
        let mut x =
            "<a value=\"1\"/><max-time value=\"200\" />\n<m2n:sockets exchange-directory=\"../x\" />".to_string();
        assert_eq!(replace_attr(&mut x, "<max-time ", "value", |_| Some("60".into())), 1);
        assert_eq!(
            replace_attr(&mut x, "<m2n:", "exchange-directory", |v| v.contains("..").then(|| "/c/exchange".into())),
            1
        );
        assert_eq!(x, "<a value=\"1\"/><max-time value=\"60\" />\n<m2n:sockets exchange-directory=\"/c/exchange\" />");
    }

    #[test]
    fn paths_out_of_the_copied_folder_become_absolute_and_output_folders_stay() {
        let top = tempfile::tempdir().unwrap();
        let root = top.path().join("case");
        std::fs::create_dir_all(root.join("solid")).unwrap();
        std::fs::create_dir_all(top.path().join("data")).unwrap();
        let text =
            "data_path: {root: ../../data}\nmodel: model.yaml\noutput: {directory: ../../data}\nother: ../model.yaml\n";
        let path = root.join("solid/participant.yaml");
        let root = root.canonicalize().unwrap();
        let new = adapt_yaml(text, &path, &root, &[]).unwrap().unwrap();
        let data = top.path().join("data").canonicalize().unwrap();
        assert!(new.contains(&format!("root: {}", data.display())), "{new}");
        assert!(new.contains("directory: ../../data") && new.contains("other: ../model.yaml"), "{new}");
        assert_eq!(adapt_yaml("model: model.yaml\n", &path, &root, &[]).unwrap(), None);
    }
}
