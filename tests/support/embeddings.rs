//! Reader of the committed embedding fixtures, `tests/data/embeddings/<stem>.vec.gz` (format in
//! that directory's README.md): all-MiniLM-L6-v2 vectors by key, stored as int8 with one scale per
//! vector. A native test or example includes it with
//! `#[path = "support/embeddings.rs"] mod embeddings;` and calls [`read`].
#![allow(dead_code)] // each user needs a different part

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

use toolshelf::json;

/// The vectors of one fixture file, in file order, with an index by key.
pub struct Vectors {
    /// The model that made them (`all-MiniLM-L6-v2`).
    pub model: String,
    /// Dimension of every vector (384).
    pub dim: usize,
    keys: Vec<u64>,
    scales: Vec<f32>,
    values: Vec<i8>,
    index: HashMap<u64, usize>,
}

/// `tests/data/embeddings/<stem>.vec.gz`: `tools`, or `queries-<set>` for set `keyword`, `model`,
/// `absent`, `toolbench`, `bfcl`, `metatool`. Panics with the path on a missing or bad file.
pub fn read(stem: &str) -> Vectors {
    let path = dir().join(format!("{stem}.vec.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(file).read_to_end(&mut bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/data/embeddings/`.
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data").join("embeddings")
}

/// The fixture's key of a text: 16 lowercase hex digits of FNV-1a 64 of its UTF-8 bytes (the
/// core's `embed::embedding_key`, which the tests compare with this).
pub fn key_of(text: &str) -> String {
    let hash =
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

/// The decompressed bytes of a fixture: a JSON header line, then `count` u64 keys, `count` f32
/// scales (little-endian) and `count × dim` int8 values.
pub fn parse(bytes: &[u8]) -> Result<Vectors, String> {
    let end = bytes.iter().position(|&b| b == b'\n').ok_or("no header line")?;
    let header = std::str::from_utf8(&bytes[..end]).map_err(|e| e.to_string())?;
    let header = json::parse(header).map_err(|e| format!("header: {e:?}"))?;
    let field = |name: &str| header.get(name).ok_or(format!("header has no {name}"));
    if field("format")?.as_str() != Some("toolshelf-vectors") || field("version")?.as_f64() != Some(1.0) {
        return Err("not a toolshelf-vectors version 1 file".into());
    }
    let number = |name: &str| field(name)?.as_f64().map(|n| n as usize).ok_or(format!("{name} is not a number"));
    let (count, dim) = (number("count")?, number("dim")?);
    let model = field("model")?.as_str().ok_or("model is not a string")?.to_string();
    let body = &bytes[end + 1..];
    if body.len() != count * (8 + 4 + dim) {
        return Err(format!(
            "{} bytes after the header, {count} vectors of {dim} need {}",
            body.len(),
            count * (12 + dim)
        ));
    }
    let (key_bytes, rest) = body.split_at(8 * count);
    let (scale_bytes, value_bytes) = rest.split_at(4 * count);
    let keys: Vec<u64> = key_bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
    let scales = scale_bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let values = value_bytes.iter().map(|&b| b as i8).collect();
    let index: HashMap<u64, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    if index.len() != keys.len() {
        return Err("a key is repeated".into());
    }
    Ok(Vectors { model, dim, keys, scales, values, index })
}

impl Vectors {
    /// How many vectors the file holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The keys in file order, as 16 hex digits.
    pub fn keys(&self) -> impl Iterator<Item = String> + '_ {
        self.keys.iter().map(|k| format!("{k:016x}"))
    }

    /// The vector of a key (int8 × scale), if the file has it.
    pub fn get(&self, key: &str) -> Option<Vec<f32>> {
        let at = *self.index.get(&u64::from_str_radix(key, 16).ok()?)?;
        Some(self.at(at))
    }

    /// The vector at position `i` of the file.
    pub fn at(&self, i: usize) -> Vec<f32> {
        let (int8, scale) = self.int8_at(i);
        int8.iter().map(|&v| f32::from(v) * scale).collect()
    }

    /// The stored int8 values at position `i` and their scale.
    pub fn int8_at(&self, i: usize) -> (&[i8], f32) {
        (&self.values[i * self.dim..(i + 1) * self.dim], self.scales[i])
    }
}
