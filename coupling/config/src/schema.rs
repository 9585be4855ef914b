//! Tag-level checks shared by all tag parsers: known attributes and children, required
//! attributes, value syntax and occurrence counts, with preCICE's message fragments (coupling-semantics.md §9.1).

use super::values::{parse_bool, parse_double, parse_int};
use super::xml::{Attr, Element};
use crate::diagnostics::{nearest, suggestion, Diagnostics, Location};
use std::path::Path;

/// Where diagnostics of one parse are collected.
pub(crate) struct Ctx<'p> {
    pub path: &'p Path,
    pub diags: Diagnostics,
}

impl<'p> Ctx<'p> {
    pub fn new(path: &'p Path) -> Self {
        Ctx { path, diags: Diagnostics::default() }
    }
    pub fn loc(&self, line: usize) -> Location {
        Location::new(self.path, line)
    }
    pub fn error(&mut self, line: usize, msg: impl Into<String>) {
        let loc = self.loc(line);
        self.diags.error(loc, msg);
    }
    pub fn warn(&mut self, line: usize, msg: impl Into<String>) {
        let loc = self.loc(line);
        self.diags.warning(loc, msg);
    }
}

/// The outcome of reading one typed attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Val<T> {
    Absent,
    Bad,
    Ok(T),
}

impl<T> Val<T> {
    pub fn ok(self) -> Option<T> {
        match self {
            Val::Ok(v) => Some(v),
            _ => None,
        }
    }
    pub fn or(self, default: T) -> Option<T> {
        match self {
            Val::Ok(v) => Some(v),
            Val::Absent => Some(default),
            Val::Bad => None,
        }
    }
}

/// The error for a `<solver-interface>` tag (a preCICE v2 file).
pub(crate) fn solver_interface_error(ctx: &mut Ctx, line: usize) {
    ctx.error(
        line,
        "The configuration contains the tag <solver-interface>, so it was created for a preCICE \
         version prior to version 3. Port it to v3: the root tag is <precice-configuration>, \
         meshes are declared with <provide-mesh>/<receive-mesh> and the dimensions move to <mesh>.",
    );
}

/// Reports every child of `el` not in `allowed` and returns the known ones in order.
pub(crate) fn known_children<'e>(ctx: &mut Ctx, el: &'e Element, allowed: &[&str]) -> Vec<&'e Element> {
    let mut out = Vec::new();
    for c in &el.children {
        if allowed.contains(&c.name.as_str()) {
            out.push(c);
        } else if c.name == "solver-interface" {
            solver_interface_error(ctx, c.line);
        } else {
            ctx.error(c.line, unknown_tag_message(&c.name, &el.name, allowed));
        }
    }
    out
}

/// "The configuration contains an unknown tag <X>. Did you mean <Y>?" with the parent named.
pub(crate) fn unknown_tag_message(name: &str, parent: &str, allowed: &[&str]) -> String {
    let hint = match nearest(name, allowed.iter().copied()) {
        Some(n) => format!(" Did you mean <{n}>?"),
        None if allowed.is_empty() => format!(" Tag <{parent}> takes no child tags."),
        None => {
            let list: Vec<String> = allowed.iter().map(|a| format!("<{a}>")).collect();
            format!(" Expected tags are {}.", list.join(", "))
        }
    };
    format!("The configuration contains an unknown tag <{name}>.{hint} (inside <{parent}>)")
}

/// Checks that children called `name` occur between `min` and `max` times.
pub(crate) fn check_count(ctx: &mut Ctx, el: &Element, name: &str, min: usize, max: Option<usize>) {
    let found: Vec<&Element> = el.children.iter().filter(|c| c.name == name).collect();
    if found.len() < min {
        ctx.error(
            el.line,
            format!("Tag <{name}> was not found but is required to occur at least once. Add it inside <{}>.", el.name),
        );
    }
    if let Some(max) = max {
        for extra in found.iter().skip(max) {
            ctx.error(
                extra.line,
                format!(
                    "Tag <{name}> is not allowed to occur multiple times inside <{}> (line {}). Remove the extra one.",
                    el.name, el.line
                ),
            );
        }
    }
}

/// Checked access to the attributes of one element.
#[derive(Clone, Copy)]
pub(crate) struct Attrs<'e> {
    pub el: &'e Element,
}

impl<'e> Attrs<'e> {
    /// Reports every attribute not in `allowed` ("contains an unknown attribute").
    pub fn new(ctx: &mut Ctx, el: &'e Element, allowed: &[&str]) -> Self {
        for a in &el.attrs {
            if !allowed.contains(&a.name.as_str()) {
                let hint = if allowed.is_empty() {
                    " This tag takes no attributes.".to_string()
                } else {
                    suggestion(&a.name, allowed)
                };
                ctx.error(a.line, format!("Tag <{}> contains an unknown attribute \"{}\".{hint}", el.name, a.name));
            }
        }
        Attrs { el }
    }

    pub fn raw(&self, name: &str) -> Option<&'e Attr> {
        self.el.attr(name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.raw(name).is_some()
    }

    pub fn str(&self, name: &str) -> Option<&'e str> {
        self.raw(name).map(|a| a.value.as_str())
    }

    /// Line of the attribute, or of the tag when it is absent.
    pub fn line_of(&self, name: &str) -> usize {
        self.raw(name).map(|a| a.line).unwrap_or(self.el.line)
    }

    /// A string attribute that must be present ("is missing required attribute").
    pub fn required(&self, ctx: &mut Ctx, name: &str) -> Option<&'e str> {
        let v = self.str(name);
        if v.is_none() {
            self.missing(ctx, name);
        }
        v
    }

    pub fn missing(&self, ctx: &mut Ctx, name: &str) {
        ctx.error(
            self.el.line,
            format!("Tag <{}> is missing required attribute \"{name}\". Add {name}=\"...\" to it.", self.el.name),
        );
    }

    pub fn string_or(&self, name: &str, default: &str) -> String {
        self.str(name).unwrap_or(default).to_string()
    }

    /// A preCICE boolean (never an error, coupling-semantics.md §9.2): a value that is none of
    /// preCICE's words reads as false, as in preCICE, with a warning so a typo is seen.
    pub fn bool_or(&self, ctx: &mut Ctx, name: &str, default: bool) -> bool {
        let Some(value) = self.str(name) else { return default };
        let word = value.trim().to_ascii_lowercase();
        if !matches!(word.as_str(), "1" | "yes" | "true" | "on" | "0" | "no" | "false" | "off") {
            ctx.warn(
                self.line_of(name),
                format!(
                    "attribute \"{name}\" of tag <{}> is \"{value}\", which preCICE reads as false; write \"true\" or \"false\"",
                    self.el.name
                ),
            );
        }
        parse_bool(value)
    }

    fn bad_value(&self, ctx: &mut Ctx, name: &str, value: &str, expected: &str) {
        ctx.error(
            self.line_of(name),
            format!("Invalid value \"{value}\" of attribute \"{name}\" of tag <{}>: {expected}.", self.el.name),
        );
    }

    /// A double (fractions "1/4" allowed).
    pub fn f64(&self, ctx: &mut Ctx, name: &str, required: bool) -> Val<f64> {
        match self.str(name) {
            None => {
                if required {
                    self.missing(ctx, name);
                }
                Val::Absent
            }
            Some(s) => match parse_double(s) {
                Some(v) => Val::Ok(v),
                None => {
                    self.bad_value(ctx, name, s, "value must be a number such as 0.5, 1e-3 or 1/4");
                    Val::Bad
                }
            },
        }
    }

    /// An integer.
    pub fn int(&self, ctx: &mut Ctx, name: &str, required: bool) -> Val<i64> {
        match self.str(name) {
            None => {
                if required {
                    self.missing(ctx, name);
                }
                Val::Absent
            }
            Some(s) => match parse_int(s) {
                Some(v) => Val::Ok(v),
                None => {
                    self.bad_value(ctx, name, s, &why_not_int(s));
                    Val::Bad
                }
            },
        }
    }

    /// One of `options` ("Invalid value ... value must be "x" or value must be "y"").
    pub fn choice(
        &self,
        ctx: &mut Ctx,
        name: &str,
        options: &[&'static str],
        default: Option<&'static str>,
    ) -> Val<&'e str> {
        match self.str(name) {
            None => match default {
                Some(d) => Val::Ok(d),
                None => {
                    self.missing(ctx, name);
                    Val::Absent
                }
            },
            Some(s) if options.contains(&s) => Val::Ok(s),
            Some(s) => {
                let musts: Vec<String> = options.iter().map(|o| format!("value must be \"{o}\"")).collect();
                let hint = match nearest(s, options.iter().copied()) {
                    Some(n) => format!(". Did you mean \"{n}\"?"),
                    None => String::new(),
                };
                ctx.error(
                    self.line_of(name),
                    format!(
                        "Invalid value \"{s}\" of attribute \"{name}\" of tag <{}>: {}{hint}",
                        self.el.name,
                        musts.join(" or ")
                    ),
                );
                Val::Bad
            }
        }
    }
}

/// Why `s` is not an integer attribute value: too large, written with an exponent, or no
/// whole number at all.
fn why_not_int(s: &str) -> String {
    let digits = s.trim().trim_start_matches(['+', '-']);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return format!("value is too large (the largest whole number accepted is {})", i64::MAX);
    }
    match super::values::parse_double(s) {
        Some(v) if v.fract() == 0.0 && v.abs() >= i64::MAX as f64 => {
            format!("value is too large (the largest whole number accepted is {})", i64::MAX)
        }
        Some(v) if v.fract() == 0.0 => format!("value must be a whole number written in digits, e.g. {v:.0}"),
        _ => "value must be a whole number".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_tag_hints_nearest_or_lists() {
        let m = unknown_tag_message("meshh", "precice-configuration", &["mesh", "participant"]);
        assert!(m.contains("The configuration contains an unknown tag <meshh>. Did you mean <mesh>?"), "{m}");
        let m = unknown_tag_message("zzzzzz", "x", &["mesh", "participant"]);
        assert!(m.contains("Expected tags are <mesh>, <participant>."), "{m}");
    }

    #[test]
    fn an_integer_that_does_not_fit_says_it_is_too_large() {
        assert!(why_not_int("99999999999999999999").contains("too large"));
        assert!(why_not_int("1e20").contains("too large"));
        assert_eq!(why_not_int("1e3"), "value must be a whole number written in digits, e.g. 1000");
        assert_eq!(why_not_int("2.5"), "value must be a whole number");
        assert_eq!(why_not_int("abc"), "value must be a whole number");
    }
}
