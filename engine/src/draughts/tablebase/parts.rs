//! A slice solved in parts, for a memory cap its whole working set does
//! not fit under.
//!
//! A man move that neither captures nor promotes stays in the slice and
//! raises the advancement (the rows the men have walked) by exactly one;
//! captures and promotions lead to slices already on disk. So the
//! configurations of one advancement level need the values of the level
//! just above and nothing else of their own slice: the levels are solved
//! from the most advanced down with only two of them in memory, values
//! only, and each level a batch of configurations at a time. Each
//! configuration's values and distances go to a scratch file as soon as
//! it is solved; the slice's file is written from it at the end
//! ([`super::stream::Scratch::write_file`]).

use std::collections::BTreeMap;

use super::index::{Indexer, Material};
use super::solve::{solve_config, Current, Finished, Solved};
use super::stream::Scratch;
use super::{par, TablebaseError, Value};
use crate::draughts::rules::Variant;

/// The values of one advancement level: its configurations in increasing
/// order, each with its positions' 2-bit values, one after the other.
struct Level {
    configs: Vec<u64>,
    values: Vec<u8>,
    sub_len: u64,
}

impl Level {
    fn new(configs: Vec<u64>, sub_len: u64) -> Level {
        let n = configs.len() as u64 * sub_len;
        Level {
            configs,
            values: vec![0; n.div_ceil(4) as usize],
            sub_len,
        }
    }

    fn set(&mut self, i: u64, value: Value) {
        let shift = (i % 4) * 2;
        let byte = &mut self.values[(i / 4) as usize];
        *byte = (*byte & !(3 << shift)) | (value.code() << shift);
    }
}

impl Current for Level {
    /// The value of a position of the slice in this level (a man move's
    /// target from the level below); `Draw` for any other, which no move
    /// reaches.
    fn value_at(&self, index: u64) -> Value {
        let config = index / self.sub_len;
        match self.configs.binary_search(&config) {
            Ok(k) => {
                let i = k as u64 * self.sub_len + index % self.sub_len;
                Value::from_code(self.values[(i / 4) as usize] >> ((i % 4) * 2))
            }
            Err(_) => Value::Draw,
        }
    }
}

/// Solves `material`, whose valid configurations are `levels` by
/// advancement, `chunk` configurations at a time, into `scratch`; `tick`
/// gets the positions of each configuration solved. Returns the number of
/// parts (batches) solved.
pub(crate) fn solve_in_parts(
    tables: &dyn Finished,
    material: Material,
    variant: Variant,
    levels: &BTreeMap<u32, Vec<u64>>,
    chunk: u64,
    scratch: &mut Scratch,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<u64, TablebaseError> {
    let ix = Indexer::new(material);
    let sub = ix.sub_len();
    let chunk = usize::try_from(chunk.max(1)).unwrap_or(usize::MAX);
    let mut upper = Level::new(Vec::new(), sub);
    let mut parts = 0;
    for configs in levels.values().rev() {
        let mut level = Level::new(configs.clone(), sub);
        let solved = Solved {
            tables,
            current: &upper,
            indexer: ix,
            variant,
        };
        for (c, batch) in configs.chunks(chunk).enumerate() {
            parts += 1;
            let results = par::map_range(batch.len(), |j| {
                let r = solve_config(&solved, ix.men(batch[j]));
                tick(sub);
                r
            });
            for (j, r) in results.into_iter().enumerate() {
                let r = r?;
                let k = (c * chunk + j) as u64;
                for (local, &(v, _)) in r.iter().enumerate() {
                    level.set(k * sub + local as u64, v);
                }
                scratch.write(batch[j] * sub, &r)?;
            }
        }
        upper = level;
    }
    Ok(parts)
}
