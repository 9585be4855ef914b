//! A nesting limit for YAML, checked on the text before the YAML parser sees it.
//!
//! The parser underneath serde_yaml (libyaml's algorithm) keeps one "simple key" slot per open
//! flow collection and scans all of them at every token, so `[[[[…` nested 10⁵ deep takes
//! minutes before serde_yaml's own recursion limit (128) refuses it. Counting the depth first is
//! linear, and a file deeper than [`MAX_DEPTH`] is refused at once with its line.

use crate::diagnostics::{Diagnostics, Location};
use std::path::Path;

/// The deepest nesting accepted (flow brackets plus block indentation levels). The project's
/// files are at most about eight levels deep (an added-mass block's rows inside its body inside
/// `precice_adapter_config`); serde_yaml itself refuses more than 128 levels.
pub const MAX_DEPTH: usize = 100;

/// An error at the line where the nesting first passes [`MAX_DEPTH`], or Ok.
pub fn check(text: &str, path: &Path) -> Result<(), Diagnostics> {
    match deepest(text) {
        Some(line) => {
            let mut d = Diagnostics::default();
            d.error(
                Location::new(path, line),
                format!(
                    "the YAML nests deeper than {MAX_DEPTH} levels here (the project's files need fewer than ten): \
                     is this the right file?"
                ),
            );
            Err(d)
        }
        None => Ok(()),
    }
}

/// The 1-based line where the depth (open flow collections plus block indentation levels)
/// first exceeds [`MAX_DEPTH`]. A `[` or `{` counts only where a value may start (after
/// `: `, `- `, `,`, another bracket, or at the start of a line), as in YAML, where a bracket
/// inside a plain scalar is text; quoted strings and comments are skipped.
fn deepest(text: &str) -> Option<usize> {
    let mut flow = 0usize;
    let mut indents: Vec<usize> = Vec::new();
    let mut quote: Option<u8> = None;
    for (n, line) in text.lines().enumerate() {
        let bytes = line.as_bytes();
        let indent = bytes.iter().take_while(|b| **b == b' ').count();
        let blank = bytes[indent..].is_empty() || bytes[indent] == b'#';
        if flow == 0 && quote.is_none() && !blank {
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            indents.push(indent);
        }
        let mut value_start = true;
        let mut opened = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if let Some(q) = quote {
                if b == b'\\' && q == b'"' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
                i += 1;
                continue;
            }
            match b {
                b'#' if i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t' => break,
                b'"' | b'\'' if value_start => quote = Some(b),
                b'[' | b'{' if value_start => {
                    opened = true;
                    flow += 1;
                    if flow + indents.len() > MAX_DEPTH {
                        return Some(n + 1);
                    }
                }
                b']' | b'}' => flow = flow.saturating_sub(1),
                _ => {}
            }
            value_start = match b {
                b' ' | b'\t' => value_start,
                // Only a bracket that opened a collection starts a value; one in text does not.
                b'[' | b'{' => std::mem::take(&mut opened),
                b',' => flow > 0,
                b':' | b'-' | b'?' => bytes.get(i + 1).is_none_or(|c| *c == b' ' || *c == b'\t'),
                _ => false,
            };
            i += 1;
        }
        if indents.len() > MAX_DEPTH {
            return Some(n + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_nesting_past_the_limit_is_found_at_once_with_its_line() {
        let text = format!("a: 1\nb: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = check(&text, Path::new("deep.yaml")).unwrap_err();
        assert_eq!(e.0[0].location.line, 2);
        assert!(e.0[0].message.contains("deeper than 100 levels"), "{}", e.0[0].message);
    }

    #[test]
    fn block_nesting_past_the_limit_is_found() {
        let text: String = (0..150).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert_eq!(check(&text, Path::new("deep.yaml")).unwrap_err().0[0].location.line, MAX_DEPTH + 1);
    }

    #[test]
    fn brackets_in_text_quotes_and_comments_do_not_count() {
        let open = "[".repeat(150);
        let text = format!(
            "a: see {open}\nb: '{open}'\nc: \"{open}\"\n# {open}\nd: [1, [2, {{e: 3}}]]  # {open}\n- x: [[1]]\n"
        );
        assert!(check(&text, Path::new("ok.yaml")).is_ok());
        // Fifty levels of real nesting pass.
        let text = format!("a: {}{}\n", "[".repeat(50), "]".repeat(50));
        assert!(check(&text, Path::new("ok.yaml")).is_ok());
    }
}
