//! The block coder of format version 2: an adaptive binary range coder
//! (LZMA's) over each block's entries. The value of a position is modelled
//! on the entries before it (the same placement with the other side to
//! move, and the previous placements) and its distance, present only for
//! wins and losses, on its class and the previous placement's distance.
//! Every block starts from the slice's model (probabilities counted over
//! the whole slice, stored in its header) and adapts from there, so a
//! block decodes alone. See docs/TABLEBASES.md.

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
/// Not a symbol of the decoder's: an entry whose value the reader works
/// out itself (a position with a capture, in a version 3 file). The
/// encoder codes whatever is cheapest there: at each binary decision, the
/// bit its adaptive state finds more probable.
pub(crate) const ANY: u8 = 0xFF;

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

/// Symbols just before an entry that its value's context holds.
const BACK: usize = 2;
/// Contexts of a value: the parity of the index (the side to move), the
/// two symbols before it in the block and the symbol one stride back (the
/// same black kings with the white kings one placement back).
const CONTEXTS: usize = 2 * SYMBOLS.pow(BACK as u32 + 1);
/// Contexts of a distance per class: the distance two entries before
/// (the previous placement, same side to move) when of the same class,
/// capped, or none.
const DISTANCE_CONTEXTS: usize = 17;
/// Probabilities per value context: not a draw; a loss (or blessed loss)
/// rather than a win; cursed among wins; blessed among losses.
const VALUE_SLOTS: usize = CONTEXTS * 4;
/// Distances below this are coded in 4 bits; this value is an escape,
/// followed by the distance in 8 bits.
const SHORT: u8 = 15;
/// Slots of the 4-bit distance trees, per class and distance context.
const SHORT_SLOTS: usize = 2 * DISTANCE_CONTEXTS * 16;
/// Every probability of the model: the value's, then a 4-bit tree per
/// class and distance context, then an 8-bit tree per class for the long
/// distances.
pub(crate) const SLOTS: usize = VALUE_SLOTS + SHORT_SLOTS + 2 * 256;

/// The slot of bit `k` of a value in context `context`.
#[inline(always)]
fn value_slot(context: usize, k: usize) -> usize {
    context * 4 + k
}

/// The slot of node `node` of the short distance tree of `loss` and
/// `context`.
#[inline(always)]
fn short_slot(loss: bool, context: usize, node: usize) -> usize {
    VALUE_SLOTS + ((usize::from(loss) * DISTANCE_CONTEXTS + context) << 4) + node
}

/// The slot of node `node` of the long distance tree of `loss`.
#[inline(always)]
fn long_slot(loss: bool, node: usize) -> usize {
    VALUE_SLOTS + SHORT_SLOTS + (usize::from(loss) << 8) + node
}

/// Codes the `bits` low bits of `value` on the tree at `slot(node)` (the
/// likelier bit at each node when `any`), and returns what was coded.
#[inline(always)]
fn code_tree(
    sink: &mut impl Sink,
    bits: u32,
    value: u8,
    any: bool,
    slot: impl Fn(usize) -> usize,
) -> u8 {
    let mut node = 1;
    for k in (0..bits).rev() {
        let bit = decide(sink, any, slot(node), (value >> k) & 1 == 1);
        node = (node << 1) | usize::from(bit);
    }
    (node & ((1 << bits) - 1)) as u8
}

/// What the model remembers of the entries before the one coded.
#[derive(Clone, Copy, Default)]
struct History {
    /// Symbols one, two and three entries back.
    s: [u8; BACK],
    /// Distances one and two entries back.
    d1: u8,
    d2: u8,
}

impl History {
    /// The value context of entry `index`, whose symbol one stride back
    /// is `far`.
    #[inline(always)]
    fn context(&self, index: usize, far: u8) -> usize {
        let mut c = index & 1;
        for &s in &self.s {
            c = c * SYMBOLS + usize::from(s);
        }
        c * SYMBOLS + usize::from(far)
    }

    /// The distance context of a symbol of class `loss`.
    #[inline(always)]
    fn distance_context(&self, loss: bool) -> usize {
        let s2 = self.s[1];
        if s2 != DRAW && is_loss(s2) == loss {
            1 + usize::from(self.d2.min(15))
        } else {
            0
        }
    }

    #[inline(always)]
    fn push(&mut self, symbol: u8, distance: u8) {
        self.s.copy_within(0..BACK - 1, 1);
        self.s[0] = symbol;
        self.d2 = self.d1;
        self.d1 = distance;
    }
}

#[inline(always)]
fn is_loss(symbol: u8) -> bool {
    symbol == LOSS || symbol == BLESSED
}

/// A slice's model: the probability of a 0 bit in every slot (of
/// [`PROB_BITS`] bits), where each block's coder starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Model {
    probs: Box<[u16]>,
}

impl Model {
    /// Every probability one half.
    pub(crate) fn flat() -> Model {
        Model {
            probs: vec![HALF; SLOTS].into_boxed_slice(),
        }
    }

    /// The slots whose probability is not one half, as (slot, probability)
    /// pairs: what a file stores.
    pub(crate) fn sparse(&self) -> Vec<(u16, u16)> {
        self.probs
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p != HALF)
            .map(|(slot, &p)| (slot as u16, p))
            .collect()
    }

    /// The model of stored pairs, `None` when a slot or a probability is
    /// out of range.
    pub(crate) fn from_sparse(pairs: impl Iterator<Item = (u16, u16)>) -> Option<Model> {
        let mut model = Model::flat();
        for (slot, p) in pairs {
            if !(1..(1 << PROB_BITS)).contains(&p) {
                return None;
            }
            *model.probs.get_mut(usize::from(slot))? = p;
        }
        Some(model)
    }
}

/// Where the coding of a block sends its bits: the range encoder, or the
/// counts a model is made from.
trait Sink {
    fn bit(&mut self, slot: usize, bit: bool);
    /// The bit more probable at `slot` now: what an [`ANY`] entry takes.
    fn likely(&self, slot: usize) -> bool;
}

/// How often each slot saw a 0 and a 1 bit, over a whole slice.
pub(crate) struct Counts(Vec<[u64; 2]>);

impl Counts {
    pub(crate) fn new() -> Counts {
        Counts(vec![[0; 2]; SLOTS])
    }

    /// Adds the counts of a block.
    pub(crate) fn count(&mut self, stride: usize, entries: impl Iterator<Item = (u8, u8)>) {
        code(self, stride, entries, true);
    }

    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: &Counts) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }

    /// The model of these counts: each slot's frequency of 0 bits (one half
    /// where nothing was seen), kept off the extremes so that a rare bit
    /// stays codable.
    pub(crate) fn model(&self) -> Model {
        let one = 1u64 << PROB_BITS;
        let probs = self
            .0
            .iter()
            .map(|&[zeros, ones]| {
                if zeros + ones == 0 {
                    return HALF;
                }
                let p = (zeros * one + (zeros + ones) / 2) / (zeros + ones);
                p.clamp(31, one - 31) as u16
            })
            .collect();
        Model { probs }
    }
}

impl Sink for Counts {
    #[inline(always)]
    fn bit(&mut self, slot: usize, bit: bool) {
        self.0[slot][usize::from(bit)] += 1;
    }

    #[inline(always)]
    fn likely(&self, slot: usize) -> bool {
        self.0[slot][1] > self.0[slot][0]
    }
}

/// The walk shared by the encoder and the counts: every bit of every entry
/// with its slot. An [`ANY`] entry takes the likelier bit at each
/// decision, so it becomes whatever entry costs least there.
#[inline(always)]
fn code(
    sink: &mut impl Sink,
    stride: usize,
    entries: impl Iterator<Item = (u8, u8)>,
    with_distances: bool,
) {
    let mut h = History::default();
    let mut symbols = Vec::new();
    for (i, (s, d)) in entries.enumerate() {
        let any = s == ANY;
        let far = if i >= stride {
            symbols[i - stride]
        } else {
            DRAW
        };
        let c = h.context(i, far);
        if !decide(sink, any, value_slot(c, 0), s != DRAW) {
            symbols.push(DRAW);
            h.push(DRAW, 0);
            continue;
        }
        let loss = decide(sink, any, value_slot(c, 1), is_loss(s));
        let rare = decide(
            sink,
            any,
            value_slot(c, 2 + usize::from(loss)),
            s == CURSED || s == BLESSED,
        );
        let s = symbol_of(loss, rare);
        symbols.push(s);
        let mut d = d;
        if with_distances {
            let dc = h.distance_context(loss);
            let short = code_tree(sink, 4, d.min(SHORT), any, |node| {
                short_slot(loss, dc, node)
            });
            if short >= SHORT {
                d = code_tree(sink, 8, d, any, |node| long_slot(loss, node));
            } else {
                d = short;
            }
        }
        h.push(s, d);
    }
}

/// Codes `bit` at `slot`, or the likelier bit when `any`; returns the bit
/// coded.
#[inline(always)]
fn decide(sink: &mut impl Sink, any: bool, slot: usize, bit: bool) -> bool {
    let bit = if any { sink.likely(slot) } else { bit };
    sink.bit(slot, bit);
    bit
}

/// The symbol of a non-draw's two decisions.
#[inline(always)]
fn symbol_of(loss: bool, rare: bool) -> u8 {
    match (loss, rare) {
        (false, false) => WIN,
        (false, true) => CURSED,
        (true, false) => LOSS,
        (true, true) => BLESSED,
    }
}

/// The range encoder, with its adaptive probabilities.
struct Encoder {
    probs: Box<[u16]>,
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
    /// The first byte out is always 0: it is not written.
    first: bool,
}

impl Sink for Encoder {
    #[inline(always)]
    fn likely(&self, slot: usize) -> bool {
        self.probs[slot] < HALF
    }

    #[inline(always)]
    fn bit(&mut self, slot: usize, bit: bool) {
        let p = &mut self.probs[slot];
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
}

impl Encoder {
    fn new(model: &Model) -> Encoder {
        Encoder {
            probs: model.probs.clone(),
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::new(),
            first: true,
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
    probs: Box<[u16]>,
    range: u32,
    code: u32,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(model: &Model, bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            probs: model.probs.clone(),
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
    fn bit(&mut self, slot: usize) -> bool {
        let p = &mut self.probs[slot];
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

/// Encodes one block from `model`: `entries` gives each position's symbol
/// and distance in index order (the distance of a draw is not stored).
/// The block must start at an even index. Without distances the block
/// cannot be decoded: what the values alone would take (a measurement).
pub(crate) fn encode(
    model: &Model,
    stride: usize,
    entries: impl Iterator<Item = (u8, u8)>,
    with_distances: bool,
) -> Vec<u8> {
    let mut enc = Encoder::new(model);
    code(&mut enc, stride, entries, with_distances);
    enc.finish()
}

/// Decodes the first `out.len()` entries of a block encoded from `model`
/// into `out`, each as `symbol << 8 | distance`.
pub(crate) fn decode(model: &Model, stride: usize, bytes: &[u8], out: &mut [u16]) {
    let mut dec = Decoder::new(model, bytes);
    let mut h = History::default();
    for i in 0..out.len() {
        let far = if i >= stride {
            (out[i - stride] >> 8) as u8
        } else {
            DRAW
        };
        let c = h.context(i, far);
        if !dec.bit(value_slot(c, 0)) {
            out[i] = 0;
            h.push(DRAW, 0);
            continue;
        }
        let loss = dec.bit(value_slot(c, 1));
        let rare = dec.bit(value_slot(c, 2 + usize::from(loss)));
        let s = symbol_of(loss, rare);
        let dc = h.distance_context(loss);
        let mut node = 1;
        for _ in 0..4 {
            node = (node << 1) | usize::from(dec.bit(short_slot(loss, dc, node)));
        }
        let mut d = (node & 0xF) as u8;
        if d == SHORT {
            node = 1;
            for _ in 0..8 {
                node = (node << 1) | usize::from(dec.bit(long_slot(loss, node)));
            }
            d = (node & 0xFF) as u8;
        }
        out[i] = (u16::from(s) << 8) | u16::from(d);
        h.push(s, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(entries: &[(u8, u8)]) {
        for model in [Model::flat(), {
            let mut counts = Counts::new();
            counts.count(6, entries.iter().copied());
            counts.model()
        }] {
            let bytes = encode(&model, 6, entries.iter().copied(), true);
            let mut out = vec![0u16; entries.len()];
            decode(&model, 6, &bytes, &mut out);
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
            assert_eq!(Model::from_sparse(model.sparse().into_iter()), Some(model));
        }
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
        let model = Model::flat();
        let bytes = encode(&model, 6, entries.iter().copied(), true);
        // Garbage decodes without a panic.
        let mut out = vec![0u16; 30_000];
        decode(&model, 6, &bytes[..bytes.len() / 2], &mut out);
        decode(&model, 6, &[0xFF; 7], &mut out);
        assert_eq!(Model::from_sparse([(SLOTS as u16, 5)].into_iter()), None);
        assert_eq!(Model::from_sparse([(0, 0)].into_iter()), None);
    }
}
