//! Damaging tablebase files for the tests of how they are refused.

use std::path::Path;

/// Swaps every stored win and loss of a slice file, leaving its header and
/// checksum as they were: a file only the checksum can tell is damaged.
pub fn invert_values(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    let positions = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    let values = 32..32 + positions.div_ceil(4) as usize;
    for byte in &mut bytes[values] {
        let mut inverted = 0;
        for shift in (0..8).step_by(2) {
            let code = match (*byte >> shift) & 3 {
                1 => 2,
                2 => 1,
                other => other,
            };
            inverted |= code << shift;
        }
        *byte = inverted;
    }
    std::fs::write(file, bytes).unwrap();
}
