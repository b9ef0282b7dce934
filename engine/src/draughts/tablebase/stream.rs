//! Slices streamed through bounded memory: a file read a chunk at a time,
//! its checksums checked (the counts of a slice a resumed run keeps, the
//! values of the slices a generation reads), and the scratch file of a
//! slice solved in parts written out in either format version, byte for
//! byte the file the whole slice in memory gives.

use std::fs;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::codec;
use super::file::{self, Fnv, Packed, Slice};
use super::index::{Indexer, Material};
use super::memory::CHUNK;
use super::probe::Tablebase;
use super::{par, resolve, TablebaseError, Value, MAX_PIECES};
use crate::draughts::rules::Variant;

/// Values and distances of consecutive positions, as the generator and
/// the files hold them.
type Entries = [(Value, u8)];

/// The counts of a slice's entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) wins: u64,
    pub(crate) draws: u64,
    pub(crate) losses: u64,
    pub(crate) cursed_wins: u64,
    pub(crate) blessed_losses: u64,
    /// Largest distance of a win or loss within the 80-ply rule.
    pub(crate) max_distance: u32,
}

impl Tally {
    #[inline]
    pub(crate) fn add(&mut self, value: Value, distance: u8) {
        let d = u32::from(distance);
        match value {
            Value::Win => {
                self.wins += 1;
                self.max_distance = self.max_distance.max(d);
            }
            Value::Loss => {
                self.losses += 1;
                self.max_distance = self.max_distance.max(d);
            }
            Value::CursedWin => self.cursed_wins += 1,
            Value::Draw if d > 0 => self.blessed_losses += 1,
            Value::Draw => self.draws += 1,
        }
    }

    /// The counts of every index position less the holes of `material`
    /// (configurations with two men on a square, stored as draws).
    pub(crate) fn without_holes(mut self, material: Material) -> Tally {
        let ix = Indexer::new(material);
        let holes = (0..material.men_configs())
            .filter(|&c| !ix.men(c).is_valid())
            .count() as u64;
        self.draws -= holes * ix.sub_len();
        self
    }
}

/// Calls `f` with the entries of `material`'s file under `dir` in index
/// order, [`CHUNK`] positions at a time, with its checksums checked: a
/// version 1 file's before the first call, a version 2 or 3 block's before
/// its entries are handed on (so a damaged block fails the scan part way;
/// the caller drops what it has). The capture positions of a version 3
/// file are worked out from the smaller slices under `dir`.
pub(crate) fn scan(
    dir: &Path,
    material: Material,
    variant: Variant,
    f: &mut dyn FnMut(u64, &Entries),
) -> Result<(), TablebaseError> {
    let open = file::open(dir, material, variant)?;
    let name = open.name.clone();
    let io = |e| TablebaseError::Io(name.clone(), e);
    let bad = |why: String| TablebaseError::BadFile(name.clone(), why);
    let n = material.positions();
    let mut file = open.file;
    if open.version != file::VERSION {
        // The compressed file is small (a tenth of version 1): read whole.
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.read_to_end(&mut bytes).map_err(io)?;
        let packed = Packed::parse(material, variant, bytes).map_err(|why| bad(why.to_string()))?;
        let resolver = packed.captures_free().then(|| resolver(dir, variant));
        let per_chunk = (CHUNK / packed.block_len()).max(1);
        let mut b = 0;
        while b < packed.blocks() {
            let end = (b + per_chunk).min(packed.blocks());
            let decoded =
                par::map_range((end - b) as usize, |k| packed.block_entries(b + k as u64));
            let mut entries = Vec::with_capacity((CHUNK as usize).min(n as usize));
            for block in decoded {
                entries.extend(block.map_err(bad)?);
            }
            let start = packed.block_range(b).start;
            if let Some(tables) = &resolver {
                fix_captures(tables, material, start, &mut entries)?;
            }
            f(start, &entries);
            b = end;
        }
        return Ok(());
    }
    // Version 1: the checksum covers the values and then the distances,
    // which the entries pair up, so the file is read twice.
    let mut stored = [0u8; 8];
    file.seek(SeekFrom::Start(24)).map_err(io)?;
    file.read_exact(&mut stored).map_err(io)?;
    let mut sum = Fnv::new();
    sum.update(&open.head);
    let mut buf = vec![0u8; CHUNK as usize];
    loop {
        let got = file.read(&mut buf).map_err(io)?;
        if got == 0 {
            break;
        }
        sum.update(&buf[..got]);
    }
    if sum.finish() != u64::from_le_bytes(stored) {
        return Err(bad("checksum mismatch".to_string()));
    }
    let values_at = file::HEADER_LEN as u64;
    let distances_at = values_at + n.div_ceil(4);
    let mut values = vec![0u8; (CHUNK / 4) as usize];
    let mut entries = Vec::with_capacity((CHUNK as usize).min(n as usize));
    let mut start = 0;
    while start < n {
        let len = (n - start).min(CHUNK) as usize;
        let value_bytes = len.div_ceil(4);
        file.seek(SeekFrom::Start(values_at + start / 4))
            .map_err(io)?;
        file.read_exact(&mut values[..value_bytes]).map_err(io)?;
        file.seek(SeekFrom::Start(distances_at + start))
            .map_err(io)?;
        file.read_exact(&mut buf[..len]).map_err(io)?;
        entries.clear();
        entries
            .extend((0..len).map(|k| (Value::from_code(values[k / 4] >> ((k % 4) * 2)), buf[k])));
        f(start, &entries);
        start += len as u64;
    }
    Ok(())
}

/// The reader a version 3 file's capture positions are worked out with:
/// the slices of `variant` under `dir`, read as probed (compressed, a
/// block decoded when first probed) and dropped with it.
fn resolver(dir: &Path, variant: Variant) -> Tablebase {
    Tablebase::empty(dir, MAX_PIECES, variant)
}

/// Works out the entries of `material`'s capture positions from index
/// `start` on from the slices of `tables`.
fn fix_captures(
    tables: &Tablebase,
    material: Material,
    start: u64,
    entries: &mut [(Value, u8)],
) -> Result<(), TablebaseError> {
    resolve::fix(material, tables.variant(), start, entries, &|pos| {
        tables.stored(pos).map(|(v, _)| v)
    })
}

/// Reads the file of `material` in `variant` under `dir` whole, in any
/// version, every checksum checked and the capture positions of a version
/// 3 file worked out from the smaller slices under `dir`.
pub(crate) fn read(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<Slice, TablebaseError> {
    let table = file::read_table(dir, material, variant)?;
    let captures_free = table.captures_free();
    let mut slice = file::whole(dir, material, table)?;
    if captures_free {
        resolve_slice(&resolver(dir, variant), &mut slice)?;
    }
    Ok(slice)
}

/// Works out the entries of the capture positions of `slice` (decoded
/// from a version 3 file) from the slices of `tables`.
pub(crate) fn resolve_slice(tables: &Tablebase, slice: &mut Slice) -> Result<(), TablebaseError> {
    let m = slice.material;
    let n = m.positions();
    let mut start = 0;
    while start < n {
        let end = (start + CHUNK).min(n);
        let mut entries: Vec<(Value, u8)> = (start..end)
            .map(|i| (slice.value(i), slice.distance(i)))
            .collect();
        fix_captures(tables, m, start, &mut entries)?;
        for (k, &(v, d)) in entries.iter().enumerate() {
            slice.set(start + k as u64, v, d);
        }
        start = end;
    }
    Ok(())
}

/// The values of `material`'s slice in `variant` from its file (any
/// version), with no distances: what a generation keeps of the slices it
/// reads (a quarter byte a position).
pub(crate) fn read_values(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<Slice, TablebaseError> {
    let mut slice = Slice {
        material,
        variant,
        values: vec![0; material.positions().div_ceil(4) as usize],
        distances: Vec::new(),
    };
    scan(dir, material, variant, &mut |start, entries| {
        for (k, &(v, _)) in entries.iter().enumerate() {
            slice.set_value(start + k as u64, v);
        }
    })?;
    Ok(slice)
}

/// The counts of `material`'s slice in `variant` from its file, checksums
/// checked.
pub(crate) fn tally_file(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<Tally, TablebaseError> {
    let mut tally = Tally::default();
    scan(dir, material, variant, &mut |_, entries| {
        for &(v, d) in entries {
            tally.add(v, d);
        }
    })?;
    Ok(tally.without_holes(material))
}

/// The scratch file of a slice solved in parts: a value code byte and a
/// distance byte per index position, at twice its index (holes and
/// configurations not yet solved read as draws at distance 0). It sits
/// next to the slice's file as `<material>.dtb.parts` and is removed once
/// the file is written; an interrupted run leaves it, and the next run
/// starts it again.
pub(crate) struct Scratch {
    file: fs::File,
    path: PathBuf,
    material: Material,
    variant: Variant,
}

impl Scratch {
    /// A fresh scratch file for `material` in `variant` under `dir`.
    pub(crate) fn create(
        dir: &Path,
        material: Material,
        variant: Variant,
    ) -> Result<Scratch, TablebaseError> {
        let path = Scratch::path(dir, material);
        let io = |e| TablebaseError::Io(path.display().to_string(), e);
        fs::create_dir_all(dir).map_err(|e| TablebaseError::Io(dir.display().to_string(), e))?;
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(io)?;
        file.set_len(2 * material.positions()).map_err(io)?;
        Ok(Scratch {
            file,
            path,
            material,
            variant,
        })
    }

    /// Where the scratch file of `material` is.
    pub(crate) fn path(dir: &Path, material: Material) -> PathBuf {
        file::path(dir, material).with_extension("dtb.parts")
    }

    fn io(&self) -> impl Fn(std::io::Error) -> TablebaseError + '_ {
        move |e| TablebaseError::Io(self.path.display().to_string(), e)
    }

    /// Stores `entries` from index `start` on.
    pub(crate) fn write(
        &mut self,
        start: u64,
        entries: &[(Value, u8)],
    ) -> Result<(), TablebaseError> {
        let bytes: Vec<u8> = entries.iter().flat_map(|&(v, d)| [v.code(), d]).collect();
        self.file
            .seek(SeekFrom::Start(2 * start))
            .map_err(self.io())?;
        self.file.write_all(&bytes).map_err(self.io())
    }

    /// Calls `f` with the entries in index order, [`CHUNK`] at a time.
    fn each_chunk(
        &mut self,
        f: &mut dyn FnMut(u64, &Entries) -> Result<(), TablebaseError>,
    ) -> Result<(), TablebaseError> {
        let n = self.material.positions();
        self.file.seek(SeekFrom::Start(0)).map_err(self.io())?;
        let mut bytes = vec![0u8; 2 * CHUNK.min(n) as usize];
        let mut entries = Vec::with_capacity(CHUNK.min(n) as usize);
        let mut start = 0;
        while start < n {
            let len = (n - start).min(CHUNK) as usize;
            self.file
                .read_exact(&mut bytes[..2 * len])
                .map_err(self.io())?;
            entries.clear();
            entries.extend(
                bytes[..2 * len]
                    .chunks_exact(2)
                    .map(|p| (Value::from_code(p[0]), p[1])),
            );
            f(start, &entries)?;
            start += len as u64;
        }
        Ok(())
    }

    /// Writes the slice's file in format `version` (1, 2 or 3), through
    /// its temporary name, and removes the scratch file; returns the
    /// file's length and the slice's counts.
    pub(crate) fn write_file(
        mut self,
        dir: &Path,
        version: u32,
    ) -> Result<(u64, Tally), TablebaseError> {
        let m = self.material;
        let tmp = file::tmp_path(dir, m);
        let tmp_io = |e| TablebaseError::Io(tmp.display().to_string(), e);
        let out = fs::File::create(&tmp).map_err(tmp_io)?;
        let (mut out, tally) = if version == file::VERSION {
            self.write_plain(out, &tmp)?
        } else {
            self.write_packed(out, &tmp, version)?
        };
        out.flush().map_err(tmp_io)?;
        let out = out.into_inner().map_err(|e| tmp_io(e.into_error()))?;
        out.sync_all().map_err(tmp_io)?;
        let len = out.metadata().map_err(tmp_io)?.len();
        drop(out);
        let final_path = file::path(dir, m);
        fs::rename(&tmp, &final_path)
            .map_err(|e| TablebaseError::Io(final_path.display().to_string(), e))?;
        let _ = fs::remove_file(&self.path);
        Ok((len, tally.without_holes(m)))
    }

    /// Version 1: the header, the values, the distances, then the
    /// checksum written into the header.
    fn write_plain(
        &mut self,
        out: fs::File,
        tmp: &Path,
    ) -> Result<(BufWriter<fs::File>, Tally), TablebaseError> {
        let m = self.material;
        let io = |e| TablebaseError::Io(tmp.display().to_string(), e);
        let mut out = BufWriter::new(out);
        let head = file::header(m, file::VERSION, self.variant);
        let mut sum = Fnv::new();
        sum.update(&head);
        out.write_all(&head).map_err(io)?;
        out.write_all(&[0; 8]).map_err(io)?;
        let mut tally = Tally::default();
        self.each_chunk(&mut |_, entries| {
            let mut bytes = vec![0u8; entries.len().div_ceil(4)];
            for (k, &(v, d)) in entries.iter().enumerate() {
                bytes[k / 4] |= v.code() << ((k % 4) * 2);
                tally.add(v, d);
            }
            sum.update(&bytes);
            out.write_all(&bytes).map_err(io)
        })?;
        self.each_chunk(&mut |_, entries| {
            let bytes: Vec<u8> = entries.iter().map(|&(_, d)| d).collect();
            sum.update(&bytes);
            out.write_all(&bytes).map_err(io)
        })?;
        out.seek(SeekFrom::Start(24)).map_err(io)?;
        out.write_all(&sum.finish().to_le_bytes()).map_err(io)?;
        Ok((out, tally))
    }

    /// Version 2 or 3: the model counted over the slice, then the blocks
    /// written after the room for the header and index, then those.
    fn write_packed(
        &mut self,
        out: fs::File,
        tmp: &Path,
        version: u32,
    ) -> Result<(BufWriter<fs::File>, Tally), TablebaseError> {
        let m = self.material;
        let variant = self.variant;
        let io = |e| TablebaseError::Io(tmp.display().to_string(), e);
        let block_len = file::BLOCK_LEN;
        let stride = file::stride(m);
        let free = version == file::VERSION_3;
        // The coder's entries of each block of a chunk, made in parallel
        // (finding the capture positions costs more than coding them).
        let blocks_of = |start: u64, entries: &[(Value, u8)]| -> Vec<Vec<(u8, u8)>> {
            let blocks: Vec<&[(Value, u8)]> = entries.chunks(block_len as usize).collect();
            par::map_range(blocks.len(), |b| {
                file::coded(m, variant, start + b as u64 * block_len, blocks[b], free)
            })
        };
        let mut counts = codec::Counts::new();
        let mut tally = Tally::default();
        self.each_chunk(&mut |start, entries| {
            for &(v, d) in entries {
                tally.add(v, d);
            }
            let blocks = blocks_of(start, entries);
            for c in par::map_range(blocks.len(), |b| {
                let mut c = codec::Counts::new();
                c.count(stride, blocks[b].iter().copied());
                c
            }) {
                counts.add(&c);
            }
            Ok(())
        })?;
        let model = counts.model();
        let blocks = m.positions().div_ceil(block_len);
        let data_start = file::packed_data_start(model.sparse().len(), blocks);
        let mut out = BufWriter::new(out);
        out.seek(SeekFrom::Start(data_start)).map_err(io)?;
        let mut sums = Vec::with_capacity(blocks as usize);
        self.each_chunk(&mut |start, entries| {
            let chunk = blocks_of(start, entries);
            let coded = par::map_range(chunk.len(), |b| {
                codec::encode(&model, stride, chunk[b].iter().copied(), true)
            });
            for (b, bytes) in coded.iter().enumerate() {
                let number = start / block_len + b as u64;
                sums.push((bytes.len() as u64, file::block_checksum(m, number, bytes)));
                out.write_all(bytes).map_err(io)?;
            }
            Ok(())
        })?;
        let (head, index) = file::packed_head(m, variant, version, block_len, &model, &sums);
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&head).map_err(io)?;
        out.write_all(&index).map_err(io)?;
        Ok((out, tally))
    }
}
