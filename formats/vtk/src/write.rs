//! Serialising an [`UnstructuredGrid`] as a VTK XML `.vtu` file.

use std::fmt::Write as _;
use std::path::Path;

use crate::{base64, DataArray, UnstructuredGrid, VtkError};

/// How array values are stored in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// Inline base64 of the little-endian bytes, preceded by a UInt64 byte count (VTK's
    /// `format="binary"`): compact, exact, still well-formed XML.
    #[default]
    Base64,
    /// Numbers as text: larger, readable by eye.
    Ascii,
}

/// Width of the floating-point arrays (points and data).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FloatType {
    /// 4 bytes: what ParaView renders with; half the size.
    #[default]
    F32,
    /// 8 bytes: values read back exactly.
    F64,
}

/// Options of a `.vtu` file: encoding and float width (default base64, Float32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VtuOptions {
    /// Binary or text.
    pub encoding: Encoding,
    /// Float32 or Float64.
    pub float: FloatType,
}

/// Integer arrays' element kinds (connectivity and offsets as Int64, types as UInt8).
#[derive(Clone, Copy)]
enum Numbers<'a> {
    Float(&'a [f64], FloatType),
    Int64(&'a [u64]),
    UInt8(&'a [u8]),
}

impl Numbers<'_> {
    fn type_name(self) -> &'static str {
        match self {
            Numbers::Float(_, FloatType::F32) => "Float32",
            Numbers::Float(_, FloatType::F64) => "Float64",
            Numbers::Int64(_) => "Int64",
            Numbers::UInt8(_) => "UInt8",
        }
    }

    fn bytes(self) -> Vec<u8> {
        match self {
            Numbers::Float(v, FloatType::F32) => v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect(),
            Numbers::Float(v, FloatType::F64) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Numbers::Int64(v) => v.iter().flat_map(|x| (*x as i64).to_le_bytes()).collect(),
            Numbers::UInt8(v) => v.to_vec(),
        }
    }

    fn ascii(self, out: &mut String) {
        let sep = |k: usize, out: &mut String| out.push(if k % 9 == 8 { '\n' } else { ' ' });
        match self {
            Numbers::Float(v, FloatType::F32) => v.iter().enumerate().for_each(|(k, x)| {
                let _ = write!(out, "{:e}", *x as f32);
                sep(k, out);
            }),
            Numbers::Float(v, FloatType::F64) => v.iter().enumerate().for_each(|(k, x)| {
                let _ = write!(out, "{x:e}");
                sep(k, out);
            }),
            Numbers::Int64(v) => v.iter().enumerate().for_each(|(k, x)| {
                let _ = write!(out, "{x}");
                sep(k, out);
            }),
            Numbers::UInt8(v) => v.iter().enumerate().for_each(|(k, x)| {
                let _ = write!(out, "{x}");
                sep(k, out);
            }),
        }
    }
}

impl UnstructuredGrid {
    /// The whole `.vtu` file as text.
    pub fn to_xml(&self, options: &VtuOptions) -> String {
        let mut out = String::new();
        out.push_str("<?xml version=\"1.0\"?>\n");
        out.push_str(
            "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
        );
        out.push_str("  <UnstructuredGrid>\n");
        let _ = writeln!(
            out,
            "    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">",
            self.points.len(),
            self.cell_count()
        );
        section(&mut out, "PointData", &self.point_data, options);
        section(&mut out, "CellData", &self.cell_data, options);
        out.push_str("      <Points>\n");
        let flat: Vec<f64> = self.points.iter().flatten().copied().collect();
        array(&mut out, None, 3, Numbers::Float(&flat, options.float), options.encoding);
        out.push_str("      </Points>\n      <Cells>\n");
        array(&mut out, Some("connectivity"), 1, Numbers::Int64(&self.connectivity), options.encoding);
        array(&mut out, Some("offsets"), 1, Numbers::Int64(&self.offsets), options.encoding);
        array(&mut out, Some("types"), 1, Numbers::UInt8(&self.types), options.encoding);
        out.push_str("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n");
        out
    }

    /// Writes the grid to `path` (created or replaced).
    pub fn write(&self, path: &Path, options: &VtuOptions) -> Result<(), VtkError> {
        std::fs::write(path, self.to_xml(options)).map_err(|source| VtkError::Io { path: path.into(), source })
    }
}

/// `<PointData>` or `<CellData>` with its arrays; the first scalar and first vector are marked
/// active so that ParaView colours by them without a choice.
fn section(out: &mut String, tag: &str, arrays: &[DataArray], options: &VtuOptions) {
    let _ = write!(out, "      <{tag}");
    if let Some(a) = arrays.iter().find(|a| a.components == 1) {
        let _ = write!(out, " Scalars=\"{}\"", escape(&a.name));
    }
    if let Some(a) = arrays.iter().find(|a| a.components == 3) {
        let _ = write!(out, " Vectors=\"{}\"", escape(&a.name));
    }
    out.push_str(">\n");
    for a in arrays {
        array(out, Some(&a.name), a.components, Numbers::Float(&a.values, options.float), options.encoding);
    }
    let _ = writeln!(out, "      </{tag}>");
}

fn array(out: &mut String, name: Option<&str>, components: usize, values: Numbers<'_>, encoding: Encoding) {
    let _ = write!(out, "        <DataArray type=\"{}\"", values.type_name());
    if let Some(name) = name {
        let _ = write!(out, " Name=\"{}\"", escape(name));
    }
    let format = match encoding {
        Encoding::Base64 => "binary",
        Encoding::Ascii => "ascii",
    };
    let _ = write!(out, " NumberOfComponents=\"{components}\" format=\"{format}\">\n          ");
    match encoding {
        Encoding::Base64 => {
            // Uncompressed inline binary: the byte count and the data form one base64 stream.
            let data = values.bytes();
            let mut raw = (data.len() as u64).to_le_bytes().to_vec();
            raw.extend_from_slice(&data);
            base64::encode_into(&raw, out);
        }
        Encoding::Ascii => values.ascii(out),
    }
    out.push_str("\n        </DataArray>\n");
}

/// Escapes the characters that cannot stand in an XML attribute value.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
