//! The pattern weights' file format (`engine/data/spanish_patterns.bin`,
//! compiled into the engine; written by `damas tune --patterns`).
//!
//! A 32-byte header, then the weights, all little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `DAMASPAT` |
//! | 8..10 | version, 1 |
//! | 10..12 | windows, 9 |
//! | 12..16 | configurations per window, 6561 (3⁸) |
//! | 16..18 | phases, 2 (middle game, ending) |
//! | 18..20 | bytes per weight, 2 (`i16`) |
//! | 20..24 | payload bytes |
//! | 24..32 | FNV-1a 64 checksum of the payload |
//!
//! The payload holds, window by window and configuration by
//! configuration, the middle-game weight then the ending weight. The
//! header names the layout so that a file written for another window set
//! is refused instead of misread.

/// The windows of the board the patterns cover (module `patterns`).
pub const WINDOWS: usize = 9;
/// The configurations of one window: each of its 8 squares empty, a man
/// of the side whose view it is, or an opponent's man (3⁸).
pub const CONFIGS: usize = 6561;

/// The first eight bytes of a pattern file.
pub const MAGIC: [u8; 8] = *b"DAMASPAT";
/// The version of the layout this engine reads and writes.
pub const VERSION: u16 = 1;
/// The header's length in bytes.
const HEADER: usize = 32;
/// Weights per configuration: middle game and ending.
const PHASES: usize = 2;
/// Bytes per weight.
const WEIGHT_BYTES: usize = 2;
/// The payload's length in bytes.
const PAYLOAD: usize = WINDOWS * CONFIGS * PHASES * WEIGHT_BYTES;

/// Why bytes are not a pattern file this engine can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternFileError {
    /// Fewer bytes than the header.
    #[error("{0} bytes: shorter than the 32-byte header")]
    TooShort(usize),
    /// The first eight bytes are not the magic `DAMASPAT`.
    #[error("not a pattern file (bad magic)")]
    BadMagic,
    /// A format version this engine does not read.
    #[error("version {0}; this engine reads version {VERSION}")]
    Version(u16),
    /// Windows, configurations, phases or weight size other than this
    /// engine's.
    #[error("layout {0}; this engine reads {WINDOWS} windows × {CONFIGS} configurations × {PHASES} phases of i16")]
    Layout(String),
    /// The payload's length differs from the header's or the layout's.
    #[error("payload of {found} bytes; expected {expected}")]
    Length {
        /// What the layout needs.
        expected: usize,
        /// What the file holds after the header.
        found: usize,
    },
    /// The payload's checksum differs from the header's: the file is
    /// damaged.
    #[error("checksum {found:016x}; the header says {expected:016x}")]
    Checksum {
        /// The header's checksum.
        expected: u64,
        /// The payload's.
        found: u64,
    },
}

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file (not an
/// adversary), and short enough to keep here.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The pattern weights: `(middle game, ending)` per window and
/// configuration, in the evaluation's units, window-major
/// (`window * CONFIGS + configuration`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    weights: Vec<[i16; 2]>,
}

impl PatternWeights {
    /// All weights zero: the evaluation of the hand features alone.
    pub fn zero() -> PatternWeights {
        PatternWeights {
            weights: vec![[0; 2]; WINDOWS * CONFIGS],
        }
    }

    /// The weights from `(middle game, ending)` pairs, window-major.
    ///
    /// # Errors
    ///
    /// [`PatternFileError::Length`] (counted in weights, not bytes) when
    /// `weights` does not hold one pair per window and configuration.
    pub fn from_pairs(weights: Vec<[i16; 2]>) -> Result<PatternWeights, PatternFileError> {
        if weights.len() != WINDOWS * CONFIGS {
            return Err(PatternFileError::Length {
                expected: WINDOWS * CONFIGS,
                found: weights.len(),
            });
        }
        Ok(PatternWeights { weights })
    }

    /// The `(middle game, ending)` pairs, window-major.
    pub fn pairs(&self) -> &[[i16; 2]] {
        &self.weights
    }

    /// Whether every weight is zero (the evaluation then skips the
    /// patterns).
    pub fn is_zero(&self) -> bool {
        self.weights.iter().all(|&w| w == [0, 0])
    }

    /// The file's bytes: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(PAYLOAD);
        for pair in &self.weights {
            for w in pair {
                payload.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut out = Vec::with_capacity(HEADER + PAYLOAD);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(WINDOWS as u16).to_le_bytes());
        out.extend_from_slice(&(CONFIGS as u32).to_le_bytes());
        out.extend_from_slice(&(PHASES as u16).to_le_bytes());
        out.extend_from_slice(&(WEIGHT_BYTES as u16).to_le_bytes());
        out.extend_from_slice(&(PAYLOAD as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a file's bytes.
    ///
    /// # Errors
    ///
    /// A [`PatternFileError`] when the bytes are short, of another format,
    /// version or layout, of the wrong length, or damaged (checksum).
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, PatternFileError> {
        if bytes.len() < HEADER {
            return Err(PatternFileError::TooShort(bytes.len()));
        }
        let (header, payload) = bytes.split_at(HEADER);
        if header[0..8] != MAGIC {
            return Err(PatternFileError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(PatternFileError::Version(version));
        }
        let layout = (
            usize::from(u16_at(10)),
            u32_at(12) as usize,
            usize::from(u16_at(16)),
            usize::from(u16_at(18)),
        );
        if layout != (WINDOWS, CONFIGS, PHASES, WEIGHT_BYTES) {
            return Err(PatternFileError::Layout(format!(
                "{} windows × {} configurations × {} phases of {} bytes",
                layout.0, layout.1, layout.2, layout.3
            )));
        }
        let declared = u32_at(20) as usize;
        if declared != PAYLOAD || payload.len() != PAYLOAD {
            return Err(PatternFileError::Length {
                expected: PAYLOAD,
                found: payload.len(),
            });
        }
        let mut checksum = [0u8; 8];
        checksum.copy_from_slice(&header[24..32]);
        let expected = u64::from_le_bytes(checksum);
        let found = fnv1a(payload);
        if found != expected {
            return Err(PatternFileError::Checksum { expected, found });
        }
        let weights = payload
            .chunks_exact(PHASES * WEIGHT_BYTES)
            .map(|c| {
                [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ]
            })
            .collect();
        Ok(PatternWeights { weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternWeights {
        let pairs = (0..WINDOWS * CONFIGS)
            .map(|i| [(i % 601) as i16 - 300, -((i % 97) as i16)])
            .collect();
        PatternWeights::from_pairs(pairs).expect("full size")
    }

    #[test]
    fn round_trip() {
        let weights = sample();
        let bytes = weights.to_bytes();
        assert_eq!(bytes.len(), HEADER + PAYLOAD);
        assert_eq!(&bytes[..8], b"DAMASPAT");
        assert_eq!(PatternWeights::from_bytes(&bytes), Ok(weights));
        let zero = PatternWeights::zero();
        assert!(zero.is_zero() && !sample().is_zero());
        assert_eq!(PatternWeights::from_bytes(&zero.to_bytes()), Ok(zero));
    }

    #[test]
    fn damage_is_refused() {
        let bytes = sample().to_bytes();
        let mut flipped = bytes.clone();
        flipped[HEADER + 1000] ^= 1;
        assert!(matches!(
            PatternWeights::from_bytes(&flipped),
            Err(PatternFileError::Checksum { .. })
        ));
        assert_eq!(
            PatternWeights::from_bytes(&bytes[..HEADER + PAYLOAD - 2]),
            Err(PatternFileError::Length {
                expected: PAYLOAD,
                found: PAYLOAD - 2
            })
        );
        assert_eq!(
            PatternWeights::from_bytes(&bytes[..10]),
            Err(PatternFileError::TooShort(10))
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(
            PatternWeights::from_bytes(&magic),
            Err(PatternFileError::BadMagic)
        );
        let mut version = bytes.clone();
        version[8] = 2;
        assert_eq!(
            PatternWeights::from_bytes(&version),
            Err(PatternFileError::Version(2))
        );
        let mut layout = bytes;
        layout[10] = 4;
        assert!(matches!(
            PatternWeights::from_bytes(&layout),
            Err(PatternFileError::Layout(_))
        ));
        assert!(PatternWeights::from_pairs(vec![[0, 0]; 3]).is_err());
    }
}
