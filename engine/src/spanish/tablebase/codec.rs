//! The block coder of format version 2: an adaptive binary range coder
//! (LZMA's) over each block's entries, the value of a position modelled on
//! the two entries before it (the same placement with the other side to
//! move, and the previous placement) and its distance, present only for
//! wins and losses, on its value. Every block starts from fresh models,
//! so a block decodes alone. See docs/TABLEBASES.md.

use super::Value;

/// Bits of a probability.
const PROB_BITS: u32 = 11;
/// Probability one half.
const HALF: u16 = 1 << (PROB_BITS - 1);
/// Adaptation speed: a probability moves by 1/32 of its distance to the
/// bit seen.
const MOVE_BITS: u32 = 5;
/// The range is renormalised below this.
const TOP: u32 = 1 << 24;

/// The entry symbols: what a position's value is, with the blessed loss
/// (stored in version 1 as a draw with a distance) a symbol of its own.
pub(crate) const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const CURSED: u8 = 3;
const BLESSED: u8 = 4;
const SYMBOLS: usize = 5;

/// The symbol of a stored value and distance (version 1's pair).
#[inline]
pub(crate) fn symbol(value: Value, distance: u8) -> u8 {
    match value {
        Value::Draw if distance > 0 => BLESSED,
        Value::Draw => DRAW,
        Value::Win => WIN,
        Value::Loss => LOSS,
        Value::CursedWin => CURSED,
    }
}

/// The stored value of a symbol (version 1's code; a blessed loss is a
/// draw with its distance).
#[inline]
pub(crate) fn value_of(symbol: u8) -> Value {
    match symbol {
        WIN => Value::Win,
        LOSS => Value::Loss,
        CURSED => Value::CursedWin,
        _ => Value::Draw,
    }
}

/// Contexts of a value: the parity of the index (the side to move) and
/// the two symbols before it in the block.
const CONTEXTS: usize = 2 * SYMBOLS * SYMBOLS;

/// The adaptive probabilities of one block.
struct Model {
    /// Per context: not a draw; a loss (or blessed loss) rather than a
    /// win; cursed among wins; blessed among losses.
    value: [[u16; 4]; CONTEXTS],
    /// A bit tree over the 8 bits of a distance, per class (win, loss).
    distance: [[u16; 256]; 2],
}

impl Model {
    fn new() -> Box<Model> {
        Box::new(Model {
            value: [[HALF; 4]; CONTEXTS],
            distance: [[HALF; 256]; 2],
        })
    }
}

#[inline(always)]
fn context(index: usize, previous: u8, before: u8) -> usize {
    ((index & 1) * SYMBOLS + usize::from(previous)) * SYMBOLS + usize::from(before)
}

#[inline(always)]
fn is_loss(symbol: u8) -> bool {
    symbol == LOSS || symbol == BLESSED
}

/// The range encoder.
struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
    /// The first byte out is always 0: it is not written.
    first: bool,
}

impl Encoder {
    fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::new(),
            first: true,
        }
    }

    #[inline(always)]
    fn bit(&mut self, p: &mut u16, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(*p);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
            *p -= *p >> MOVE_BITS;
        } else {
            self.range = bound;
            *p += ((1 << PROB_BITS) - *p) >> MOVE_BITS;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low > 0xFFFF_FFFF {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                if self.first {
                    self.first = false;
                } else {
                    self.out.push(byte.wrapping_add(carry));
                }
                byte = 0xFF;
                self.cache_size -= 1;
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = ((self.low >> 24) & 0xFF) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        // Trailing zeros are what the decoder reads past the end anyway.
        while self.out.last() == Some(&0) {
            self.out.pop();
        }
        self.out
    }
}

/// The range decoder; past the end of its bytes it reads zeros (a damaged
/// block decodes to garbage, never to a panic; its checksum is checked
/// first).
struct Decoder<'a> {
    range: u32,
    code: u32,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            range: u32::MAX,
            code: 0,
            bytes,
            at: 0,
        };
        for _ in 0..4 {
            d.code = (d.code << 8) | u32::from(d.next());
        }
        d
    }

    #[inline(always)]
    fn next(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    #[inline(always)]
    fn bit(&mut self, p: &mut u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*p);
        let bit = if self.code < bound {
            self.range = bound;
            *p += ((1 << PROB_BITS) - *p) >> MOVE_BITS;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            *p -= *p >> MOVE_BITS;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next());
        }
        bit
    }
}

/// Encodes one block: `entries` gives each position's symbol and distance
/// in index order (the distance of a draw is not stored). The block must
/// start at an even index. Without distances the block cannot be decoded:
/// what the values alone would take (a measurement).
pub(crate) fn encode(entries: impl Iterator<Item = (u8, u8)>, with_distances: bool) -> Vec<u8> {
    let mut model = Model::new();
    let mut enc = Encoder::new();
    let (mut previous, mut before) = (DRAW, DRAW);
    for (i, (s, d)) in entries.enumerate() {
        let p = &mut model.value[context(i, previous, before)];
        enc.bit(&mut p[0], s != DRAW);
        if s != DRAW {
            let loss = is_loss(s);
            enc.bit(&mut p[1], loss);
            enc.bit(&mut p[2 + usize::from(loss)], s == CURSED || s == BLESSED);
            if !with_distances {
                before = previous;
                previous = s;
                continue;
            }
            let tree = &mut model.distance[usize::from(loss)];
            let mut node = 1;
            for k in (0..8).rev() {
                let bit = (d >> k) & 1 == 1;
                enc.bit(&mut tree[node], bit);
                node = (node << 1) | usize::from(bit);
            }
        }
        before = previous;
        previous = s;
    }
    enc.finish()
}

/// Decodes the first `out.len()` entries of a block into `out`, each as
/// `symbol << 8 | distance`.
pub(crate) fn decode(bytes: &[u8], out: &mut [u16]) {
    let mut model = Model::new();
    let mut dec = Decoder::new(bytes);
    let (mut previous, mut before) = (DRAW, DRAW);
    for (i, slot) in out.iter_mut().enumerate() {
        let p = &mut model.value[context(i, previous, before)];
        let s = if dec.bit(&mut p[0]) {
            let loss = dec.bit(&mut p[1]);
            let rare = dec.bit(&mut p[2 + usize::from(loss)]);
            let s = match (loss, rare) {
                (false, false) => WIN,
                (false, true) => CURSED,
                (true, false) => LOSS,
                (true, true) => BLESSED,
            };
            let tree = &mut model.distance[usize::from(loss)];
            let mut node = 1;
            for _ in 0..8 {
                node = (node << 1) | usize::from(dec.bit(&mut tree[node]));
            }
            *slot = (u16::from(s) << 8) | (node & 0xFF) as u16;
            s
        } else {
            *slot = 0;
            DRAW
        };
        before = previous;
        previous = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(entries: &[(u8, u8)]) {
        let bytes = encode(entries.iter().copied(), true);
        let mut out = vec![0u16; entries.len()];
        decode(&bytes, &mut out);
        let want: Vec<u16> = entries
            .iter()
            .map(|&(s, d)| {
                if s == DRAW {
                    0
                } else {
                    (u16::from(s) << 8) | u16::from(d)
                }
            })
            .collect();
        assert_eq!(out, want);
    }

    #[test]
    fn blocks_survive_the_coder() {
        round_trip(&[]);
        round_trip(&[(DRAW, 0); 5000]);
        round_trip(&[(WIN, 255), (LOSS, 0), (CURSED, 81), (BLESSED, 200)]);
        // A pseudo-random mix, skewed as the tables are.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let entries: Vec<(u8, u8)> = (0..20_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let s = match x % 16 {
                    0..=9 => DRAW,
                    10..=12 => WIN,
                    13 | 14 => LOSS,
                    _ => (x >> 8) as u8 % 5,
                };
                (s, (x >> 20) as u8 % 40)
            })
            .collect();
        round_trip(&entries);
        let bytes = encode(entries.iter().copied(), true);
        // Garbage decodes without a panic.
        let mut out = vec![0u16; 30_000];
        decode(&bytes[..bytes.len() / 2], &mut out);
        decode(&[0xFF; 7], &mut out);
    }
}
