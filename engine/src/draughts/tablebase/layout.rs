//! The layout shared by the slice files and their readers: the header's
//! fields, the checksums, a slice in memory and the coder's stride.

use std::path::{Path, PathBuf};

use super::index::Material;
use super::Value;
use crate::draughts::rules::Variant;

/// First bytes of every slice file.
pub(crate) const MAGIC: &[u8; 8] = b"DAMASTB\0";
/// Format version 1: values and distances uncompressed.
pub(crate) const VERSION: u32 = 1;
/// Format version 2: compressed blocks.
pub(crate) const VERSION_2: u32 = 2;
/// Format version 3: version 2's layout, the entries of positions with a
/// capture left to the reader (they follow from smaller slices); a reader
/// refuses any version but these three, so a reader of versions 1 and 2
/// never misreads one.
pub(crate) const VERSION_3: u32 = 3;
/// Header bytes before the tables (version 1).
pub(crate) const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 8;
/// Header bytes before the block index (version 2).
pub(crate) const HEADER_V2: usize = 48;
/// Positions per block of a version 2 file written by default.
pub(crate) const BLOCK_LEN: u64 = 4096;

/// One solved material slice in memory: the packed values (four positions
/// a byte) and one distance byte per position, under the rules of its
/// variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slice {
    pub(crate) material: Material,
    pub(crate) variant: Variant,
    pub(crate) values: Vec<u8>,
    pub(crate) distances: Vec<u8>,
}

impl Slice {
    /// A slice of `material` in `variant` with every value a draw at
    /// distance 0.
    pub(crate) fn empty(material: Material, variant: Variant) -> Slice {
        let n = material.positions() as usize;
        Slice {
            material,
            variant,
            values: vec![0; n.div_ceil(4)],
            distances: vec![0; n],
        }
    }

    /// The stored value code at `index`.
    #[inline(always)]
    pub(crate) fn value(&self, index: u64) -> Value {
        let byte = self.values[(index / 4) as usize];
        Value::from_code((byte >> ((index % 4) * 2)) & 3)
    }

    /// The stored distance at `index` (0 in a values-only slice).
    #[inline(always)]
    pub(crate) fn distance(&self, index: u64) -> u8 {
        self.distances.get(index as usize).copied().unwrap_or(0)
    }

    /// The slice without its distances: what the generator keeps of a
    /// finished slice, since exits only need values (a quarter byte per
    /// position instead of a byte and a quarter).
    pub(crate) fn values_only(mut self) -> Slice {
        self.distances = Vec::new();
        self
    }

    /// Stores `value` at `index` (of a slice with or without distances).
    #[inline(always)]
    pub(crate) fn set_value(&mut self, index: u64, value: Value) {
        let shift = (index % 4) * 2;
        let byte = &mut self.values[(index / 4) as usize];
        *byte = (*byte & !(3 << shift)) | (value.code() << shift);
    }

    /// Stores `value` and `distance` at `index`.
    #[inline(always)]
    pub(crate) fn set(&mut self, index: u64, value: Value, distance: u8) {
        let shift = (index % 4) * 2;
        let byte = &mut self.values[(index / 4) as usize];
        *byte = (*byte & !(3 << shift)) | (value.code() << shift);
        self.distances[index as usize] = distance;
    }
}

/// The file name of a slice: `2k1m-1k0m.dtb`.
pub(crate) fn file_name(material: Material) -> String {
    format!("{material}.dtb")
}

/// The path of `material`'s file under `dir`.
pub(crate) fn path(dir: &Path, material: Material) -> PathBuf {
    dir.join(file_name(material))
}

/// 64-bit FNV-1a, fed a part at a time (a file streamed through memory).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// 64-bit FNV-1a, over the whole file before the checksum field.
pub(crate) fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h = Fnv::new();
    for part in parts {
        h.update(part);
    }
    h.finish()
}

/// The code of `variant` in a file's header: the third byte of the
/// version field (0 for Spanish draughts, so that a Spanish file reads as
/// before and a reader that knows no variants refuses the others' files
/// for their version).
pub(crate) fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Spanish => 0,
        Variant::Portuguese => 1,
        Variant::Brazilian => 2,
        Variant::Russian => 3,
    }
}

/// The variant of a header's variant code, if it names one.
pub(crate) fn variant_of_code(code: u8) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| variant_code(v) == code)
}

/// The format version and the variant code of a header's version field
/// (its low two bytes and its third; the fourth is 0).
pub(crate) fn version_and_variant(field: [u8; 4]) -> (u32, u32) {
    let raw = u32::from_le_bytes(field);
    (raw & 0xFFFF, raw >> 16)
}

/// The first 24 bytes of a file of `m` in `variant`: magic, version (with
/// the variant's code), material and position count.
pub(crate) fn header(m: Material, version: u32, variant: Variant) -> [u8; HEADER_LEN - 8] {
    let mut h = [0u8; HEADER_LEN - 8];
    h[..8].copy_from_slice(MAGIC);
    let field = version | u32::from(variant_code(variant)) << 16;
    h[8..12].copy_from_slice(&field.to_le_bytes());
    h[12..16].copy_from_slice(&[m.white_kings, m.white_men, m.black_kings, m.black_men]);
    h[16..24].copy_from_slice(&m.positions().to_le_bytes());
    h
}

/// The checksum of block `block` of a version 2 slice: FNV-1a 64 over the
/// material, the block's number and its bytes (so a block copied to
/// another place or slice is caught too).
pub(crate) fn block_checksum(material: Material, block: u64, bytes: &[u8]) -> u64 {
    checksum(&[
        &[
            material.white_kings,
            material.white_men,
            material.black_kings,
            material.black_men,
        ],
        &block.to_le_bytes(),
        bytes,
    ])
}

/// The coder's stride in a slice of `material`: the index distance between
/// two positions with the same black kings and side to move and the white
/// kings one placement apart.
pub(crate) fn stride(material: Material) -> usize {
    usize::try_from(2 * super::index::Indexer::new(material).black_king_placements())
        .unwrap_or(usize::MAX)
}

/// The little-endian `u64` at `at` of `bytes`.
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}
