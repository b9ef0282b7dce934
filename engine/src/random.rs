//! Small deterministic random numbers: SplitMix64 for the compile-time
//! Zobrist tables, and [`Rng`] for the random choices of the baseline
//! players and the match runner's openings. No external crate: the needs are
//! tiny and the streams must be the same on every machine.

/// One SplitMix64 step: the next state and the output.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A seed from the clock: the nanoseconds since the Unix epoch (a fixed
/// value if the clock is before it).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x1234_5678, |d| d.as_nanos() as u64)
}

/// A small xorshift64* generator.
#[derive(Clone, Copy, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`; 0 takes a seed from the clock.
    pub fn new(seed: u64) -> Rng {
        let s = if seed == 0 { clock_seed() } else { seed };
        Rng(s.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn streams_are_reproducible() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.next_u64(), b.next_u64());
        assert!(a.below(10) < 10);
    }
}
