//! A version 2 slice in memory: the file's compressed blocks, each decoded
//! (its checksum checked) the first time one of its positions is probed.

use std::sync::OnceLock;

use super::codec;
use super::index::Material;
use super::layout::{
    block_checksum, checksum, stride, u64_at, version_and_variant, Slice, HEADER_V2, VERSION_3,
};
use super::Value;
use crate::draughts::rules::Variant;

/// A block that cannot be decoded: its number (its checksum is wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DamagedBlock {
    pub(crate) block: u64,
    /// Whether this lookup found it (the first one to).
    pub(crate) first: bool,
}

/// A decoded block, as version 1 stores a slice: values four to a byte
/// and a distance byte per position (none at all in a block of draws), a
/// byte and a quarter per position at most.
pub(crate) struct Entries {
    values: Box<[u8]>,
    distances: Box<[u8]>,
}

impl Entries {
    /// The block of the decoder's entries (`symbol << 8 | distance`).
    fn of(raw: &[u16]) -> Entries {
        let mut values = vec![0u8; raw.len().div_ceil(4)].into_boxed_slice();
        for (i, &e) in raw.iter().enumerate() {
            values[i / 4] |= codec::value_of((e >> 8) as u8).code() << ((i % 4) * 2);
        }
        let distances = if raw.iter().any(|&e| e & 0xFF != 0) {
            raw.iter().map(|&e| e as u8).collect()
        } else {
            Box::default()
        };
        Entries { values, distances }
    }

    /// The value and distance of the block's entry `i`.
    #[inline]
    fn get(&self, i: usize) -> (Value, u8) {
        let value = Value::from_code(self.values[i / 4] >> ((i % 4) * 2));
        (value, self.distances.get(i).copied().unwrap_or(0))
    }
}

/// A version 2 slice in memory: the file's bytes, its block index, and
/// the blocks decoded so far (each once, when first probed).
pub(crate) struct Packed {
    material: Material,
    variant: Variant,
    /// Format version 3: the entries of positions with a capture mean
    /// nothing (the reader works them out).
    captures_free: bool,
    /// log2 of the positions per block.
    shift: u32,
    /// Where every block's coder starts.
    model: codec::Model,
    /// Where each block starts in `bytes`, and the end of the last.
    starts: Vec<u64>,
    sums: Vec<u64>,
    bytes: Vec<u8>,
    /// Each block's entries, or `None` when its checksum is wrong.
    decoded: Box<[OnceLock<Option<Entries>>]>,
}

impl Packed {
    /// The slice in the bytes of a version 2 file of `material` (header
    /// fields before the checksum already checked by [`open`]).
    pub(crate) fn parse(
        material: Material,
        variant: Variant,
        bytes: Vec<u8>,
    ) -> Result<Packed, &'static str> {
        if bytes.len() < HEADER_V2 {
            return Err("truncated or too long");
        }
        let n = material.positions();
        let block_len = u64::from(u32::from_le_bytes([
            bytes[32], bytes[33], bytes[34], bytes[35],
        ]));
        if !block_len.is_power_of_two() || block_len < 2 {
            return Err("the header's block length is wrong");
        }
        let blocks = n.div_ceil(block_len);
        let pairs = u64::from(u32::from_le_bytes([
            bytes[36], bytes[37], bytes[38], bytes[39],
        ]));
        let index_start = HEADER_V2 as u64 + 4 * pairs;
        let index_end = index_start + 16 * blocks;
        if index_end > bytes.len() as u64 {
            return Err("truncated or too long");
        }
        let (index_start, index_end) = (index_start as usize, index_end as usize);
        if checksum(&[&bytes[..40], &bytes[HEADER_V2..index_end]]) != u64_at(&bytes, 40) {
            return Err("checksum mismatch");
        }
        let model =
            codec::Model::from_sparse(bytes[HEADER_V2..index_start].chunks_exact(4).map(|c| {
                (
                    u16::from_le_bytes([c[0], c[1]]),
                    u16::from_le_bytes([c[2], c[3]]),
                )
            }))
            .ok_or("the header's model is wrong")?;
        let mut starts = Vec::with_capacity(blocks as usize + 1);
        let mut sums = Vec::with_capacity(blocks as usize);
        for b in 0..blocks as usize {
            starts.push(u64_at(&bytes, index_start + 16 * b));
            sums.push(u64_at(&bytes, index_start + 16 * b + 8));
        }
        starts.push(bytes.len() as u64);
        if starts.first().is_some_and(|&s| s != index_end as u64)
            || starts.windows(2).any(|w| w[0] > w[1])
        {
            return Err("the block index is wrong");
        }
        Ok(Packed {
            material,
            variant,
            captures_free: version_and_variant([bytes[8], bytes[9], bytes[10], bytes[11]]).0
                == VERSION_3,
            shift: block_len.trailing_zeros(),
            model,
            starts,
            sums,
            bytes,
            decoded: (0..blocks).map(|_| OnceLock::new()).collect(),
        })
    }

    /// Whether the entries of positions with a capture are left to the
    /// reader (format version 3).
    pub(crate) fn captures_free(&self) -> bool {
        self.captures_free
    }

    /// Positions per block.
    pub(crate) fn block_len(&self) -> u64 {
        1 << self.shift
    }

    /// The positions of block `block`.
    pub(crate) fn block_range(&self, block: u64) -> std::ops::Range<u64> {
        let start = block << self.shift;
        start..(start + self.block_len()).min(self.material.positions())
    }

    /// Decodes block `block`, `None` when its checksum is wrong.
    fn decode(&self, block: u64) -> Option<Entries> {
        self.decode_raw(block).map(|out| Entries::of(&out))
    }

    /// The decoder's entries of block `block` (`symbol << 8 | distance`),
    /// `None` when its checksum is wrong.
    fn decode_raw(&self, block: u64) -> Option<Box<[u16]>> {
        let b = block as usize;
        let bytes = &self.bytes[self.starts[b] as usize..self.starts[b + 1] as usize];
        if block_checksum(self.material, block, bytes) != self.sums[b] {
            return None;
        }
        let range = self.block_range(block);
        let mut out = vec![0u16; (range.end - range.start) as usize].into_boxed_slice();
        codec::decode(&self.model, stride(self.material), bytes, &mut out);
        Some(out)
    }

    /// Blocks in the slice.
    pub(crate) fn blocks(&self) -> u64 {
        self.decoded.len() as u64
    }

    /// The values and distances of block `block` in index order, or why
    /// it cannot be decoded.
    pub(crate) fn block_entries(&self, block: u64) -> Result<Vec<(Value, u8)>, String> {
        let raw = self
            .decode_raw(block)
            .ok_or_else(|| self.block_why(block))?;
        Ok(raw
            .iter()
            .map(|&e| (codec::value_of((e >> 8) as u8), e as u8))
            .collect())
    }

    /// The entries of block `block`, decoded now if no one has yet.
    fn block(&self, block: u64) -> Result<&Entries, DamagedBlock> {
        let mut first = false;
        let entries = self.decoded[block as usize].get_or_init(|| {
            let out = self.decode(block);
            first = out.is_none();
            out
        });
        entries.as_ref().ok_or(DamagedBlock { block, first })
    }

    #[inline]
    pub(crate) fn entry(&self, index: u64) -> Result<(Value, u8), DamagedBlock> {
        let block = self.block(index >> self.shift)?;
        Ok(block.get((index & (self.block_len() - 1)) as usize))
    }

    pub(crate) fn block_why(&self, block: u64) -> String {
        let range = self.block_range(block);
        format!(
            "block {block} of {}, positions {}-{}: checksum mismatch",
            self.decoded.len(),
            range.start,
            range.end - 1
        )
    }

    /// Every block decoded into a whole slice (its blocks are not kept).
    ///
    /// # Errors
    ///
    /// The first damaged block, in words.
    pub(crate) fn to_slice(&self) -> Result<Slice, String> {
        let mut slice = Slice::empty(self.material, self.variant);
        // The blocks not decoded yet, decoded now (and not kept).
        let fresh = super::par::map_range(self.decoded.len(), |b| match self.decoded[b].get() {
            Some(_) => None,
            None => Some(self.decode(b as u64)),
        });
        for (b, fresh) in fresh.iter().enumerate() {
            let entries = match (fresh, self.decoded[b].get()) {
                (Some(Some(entries)), _) | (None, Some(Some(entries))) => entries,
                _ => return Err(self.block_why(b as u64)),
            };
            for (k, i) in self.block_range(b as u64).enumerate() {
                let (value, distance) = entries.get(k);
                slice.set(i, value, distance);
            }
        }
        Ok(slice)
    }
}
