//! The slice file. Version 1: a header, the 2-bit value table, the
//! distance table and one checksum. Version 2: a header, a block index
//! with a checksum per block, and the blocks, compressed by the block
//! coder. See docs/TABLEBASES.md for the layouts.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::codec;
use super::index::Material;
pub(crate) use super::layout::{
    block_checksum, checksum, file_name, header, path, stride, u64_at, variant_of_code,
    version_and_variant, Fnv, Slice, BLOCK_LEN, HEADER_LEN, HEADER_V2, MAGIC, VERSION, VERSION_2,
    VERSION_3,
};
pub(crate) use super::packed::{DamagedBlock, Packed};
use super::resolve;
use super::{TablebaseError, Value};
use crate::draughts::rules::Variant;

/// What a file that is not a regular file is (a slice file must be one),
/// or `None` for a regular file.
pub(crate) fn not_regular(meta: &fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a plain file")
}

/// Writes `slice` to its file under `dir` in format version 1, through a
/// temporary file renamed at the end so that an interrupted run leaves no
/// partial slice.
pub(crate) fn write(dir: &Path, slice: &Slice) -> Result<(), TablebaseError> {
    let head = header(slice.material, VERSION, slice.variant);
    let sum = checksum(&[&head, &slice.values, &slice.distances]);
    write_parts(
        dir,
        slice.material,
        &[&head, &sum.to_le_bytes(), &slice.values, &slice.distances],
    )
}

/// The temporary name a slice's file is written under before it is
/// renamed into place: a file under it is never taken for a slice.
pub(crate) fn tmp_path(dir: &Path, material: Material) -> PathBuf {
    path(dir, material).with_extension("dtb.tmp")
}

/// Writes `parts` one after the other as the file of `material`, through a
/// temporary file renamed at the end.
fn write_parts(dir: &Path, material: Material, parts: &[&[u8]]) -> Result<(), TablebaseError> {
    let io = |e| TablebaseError::Io(dir.display().to_string(), e);
    fs::create_dir_all(dir).map_err(io)?;
    let final_path = path(dir, material);
    let tmp = tmp_path(dir, material);
    let io_at = |p: &Path| {
        let s = p.display().to_string();
        move |e| TablebaseError::Io(s, e)
    };
    let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io_at(&tmp))?);
    for part in parts {
        f.write_all(part).map_err(io_at(&tmp))?;
    }
    let f = f.into_inner().map_err(|e| io_at(&tmp)(e.into_error()))?;
    f.sync_all().map_err(io_at(&tmp))?;
    drop(f);
    fs::rename(&tmp, &final_path).map_err(io_at(&final_path))
}

/// The entries of `slice` from `start` to `end`, as the coder takes them:
/// with `captures_free`, the positions with a capture left to the reader.
fn entries(slice: &Slice, start: u64, end: u64, captures_free: bool) -> Vec<(u8, u8)> {
    let stored: Vec<(Value, u8)> = (start..end)
        .map(|i| (slice.value(i), slice.distance(i)))
        .collect();
    coded(slice.material, slice.variant, start, &stored, captures_free)
}

/// The coder's entries of `entries` (values and distances from index
/// `start` of `material` in `variant`): with `captures_free`, the
/// positions with a capture left to the reader.
pub(crate) fn coded(
    material: Material,
    variant: Variant,
    start: u64,
    entries: &[(Value, u8)],
    captures_free: bool,
) -> Vec<(u8, u8)> {
    let free = if captures_free {
        resolve::captures(material, variant, start, entries.len())
    } else {
        vec![false; entries.len()]
    };
    entries
        .iter()
        .zip(free)
        .map(|(&(v, d), free)| {
            if free {
                (codec::ANY, 0)
            } else {
                (codec::symbol(v, d), d)
            }
        })
        .collect()
}

/// The model of `slice` in blocks of `block_len`: its bits counted over
/// the whole slice (in parallel, a run of blocks at a time).
pub(crate) fn slice_model(slice: &Slice, block_len: u64, captures_free: bool) -> codec::Model {
    let m = slice.material;
    let n = m.positions();
    let blocks = n.div_ceil(block_len);
    let runs = blocks.min(64);
    let per_run = blocks.div_ceil(runs.max(1));
    let counted = super::par::map_range(runs as usize, |r| {
        let mut counts = codec::Counts::new();
        for b in r as u64 * per_run..((r as u64 + 1) * per_run).min(blocks) {
            let start = b * block_len;
            let end = (start + block_len).min(n);
            // Each block counted alone: what its capture positions take
            // depends on the counts before them, so the slice solved in
            // parts, counted by blocks, gets the same model.
            let mut block = codec::Counts::new();
            block.count(
                stride(m),
                entries(slice, start, end, captures_free).into_iter(),
            );
            counts.add(&block);
        }
        counts
    });
    let mut total = codec::Counts::new();
    for c in &counted {
        total.add(c);
    }
    total.model()
}

/// The blocks of `slice` compressed from `model`, in order.
pub(crate) fn compress_blocks(
    slice: &Slice,
    block_len: u64,
    model: &codec::Model,
    with_distances: bool,
    captures_free: bool,
) -> Vec<Vec<u8>> {
    let n = slice.material.positions();
    let blocks = n.div_ceil(block_len) as usize;
    super::par::map_range(blocks, |b| {
        let start = b as u64 * block_len;
        codec::encode(
            model,
            stride(slice.material),
            entries(slice, start, (start + block_len).min(n), captures_free).into_iter(),
            with_distances,
        )
    })
}

/// Writes `slice` to its file under `dir` in format version 3 (blocks of
/// `block_len` positions, a power of two, the positions with a capture
/// left to the reader) or, with `captures_stored`, version 2 (every
/// position stored), atomically as [`write`] does; returns the file's
/// length.
pub(crate) fn write_packed(
    dir: &Path,
    slice: &Slice,
    block_len: u64,
    captures_stored: bool,
) -> Result<u64, TablebaseError> {
    debug_assert!(block_len.is_power_of_two() && block_len >= 2);
    let m = slice.material;
    let free = !captures_stored;
    let model = slice_model(slice, block_len, free);
    let blocks = compress_blocks(slice, block_len, &model, true, free);
    let sums: Vec<(u64, u64)> = blocks
        .iter()
        .enumerate()
        .map(|(b, bytes)| (bytes.len() as u64, block_checksum(m, b as u64, bytes)))
        .collect();
    let version = if captures_stored {
        VERSION_2
    } else {
        VERSION_3
    };
    let (head, index) = packed_head(m, slice.variant, version, block_len, &model, &sums);
    let mut parts: Vec<&[u8]> = vec![&head, &index];
    parts.extend(blocks.iter().map(Vec::as_slice));
    write_parts(dir, m, &parts)?;
    Ok(u64_at(&head, 24))
}

/// Where the blocks of a version 2 file start, for a model of `pairs`
/// entries and `blocks` blocks.
pub(crate) fn packed_data_start(pairs: usize, blocks: u64) -> u64 {
    (HEADER_V2 + 4 * pairs) as u64 + 16 * blocks
}

/// The header (48 bytes, its checksum included) and the model and block
/// index of a file of `material` in `variant` and format `version` (2 or
/// 3) whose blocks have these lengths and checksums, in order: everything
/// before the first block.
pub(crate) fn packed_head(
    material: Material,
    variant: Variant,
    version: u32,
    block_len: u64,
    model: &codec::Model,
    blocks: &[(u64, u64)],
) -> (Vec<u8>, Vec<u8>) {
    let pairs = model.sparse();
    let data_start = packed_data_start(pairs.len(), blocks.len() as u64);
    let len = data_start + blocks.iter().map(|&(len, _)| len).sum::<u64>();
    let mut head = header(material, version, variant).to_vec();
    head.extend_from_slice(&len.to_le_bytes());
    head.extend_from_slice(&(block_len as u32).to_le_bytes());
    head.extend_from_slice(&(pairs.len() as u32).to_le_bytes());
    let mut index = Vec::with_capacity(4 * pairs.len() + 16 * blocks.len());
    for (slot, p) in pairs {
        index.extend_from_slice(&slot.to_le_bytes());
        index.extend_from_slice(&p.to_le_bytes());
    }
    let mut at = data_start;
    for &(len, sum) in blocks {
        index.extend_from_slice(&at.to_le_bytes());
        index.extend_from_slice(&sum.to_le_bytes());
        at += len;
    }
    let sum = checksum(&[&head, &index]);
    head.extend_from_slice(&sum.to_le_bytes());
    (head, index)
}

/// A slice file opened with its header checked (regular file, magic,
/// version, material, position count and length), the tables not yet
/// read.
pub(crate) struct OpenSlice {
    pub(crate) file: fs::File,
    /// The file's path, for errors.
    pub(crate) name: String,
    pub(crate) material: Material,
    pub(crate) variant: Variant,
    pub(crate) version: u32,
    /// The first 24 bytes (magic, version, material, position count).
    pub(crate) head: [u8; 24],
}

/// Opens the file of `material` under `dir` and checks its header, which
/// must name `variant`.
pub(crate) fn open(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<OpenSlice, TablebaseError> {
    let slice = open_any(dir, material)?;
    if slice.variant != variant {
        let why = format!("the header names {} draughts, not {variant}", slice.variant);
        return Err(TablebaseError::BadFile(slice.name, why));
    }
    Ok(slice)
}

/// Opens the file of `material` under `dir` and checks its header, in
/// whichever variant it is.
pub(crate) fn open_any(dir: &Path, material: Material) -> Result<OpenSlice, TablebaseError> {
    let p = path(dir, material);
    let name = p.display().to_string();
    let bad = |why: &str| TablebaseError::BadFile(name.clone(), why.to_string());
    let io = |e| TablebaseError::Io(name.clone(), e);
    let n = material.positions();
    // Checked before opening: opening a FIFO for reading waits for a
    // writer, and a device or directory is no slice either.
    if let Some(kind) = not_regular(&fs::metadata(&p).map_err(io)?) {
        return Err(bad(&format!("not a regular file ({kind})")));
    }
    let mut file = fs::File::open(&p).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if let Some(kind) = not_regular(&meta) {
        return Err(bad(&format!("not a regular file ({kind})")));
    }
    let truncated = || bad("truncated or too long");
    if meta.len() < HEADER_LEN as u64 {
        return Err(truncated());
    }
    let mut head = [0u8; 24];
    file.read_exact(&mut head).map_err(io)?;
    if &head[..8] != MAGIC {
        return Err(bad("not a damas tablebase file"));
    }
    let (version, code) = version_and_variant([head[8], head[9], head[10], head[11]]);
    if ![VERSION, VERSION_2, VERSION_3].contains(&version) {
        return Err(bad(&format!(
            "format version {version}, expected {VERSION}, {VERSION_2} or {VERSION_3}"
        )));
    }
    let variant = u8::try_from(code)
        .ok()
        .and_then(variant_of_code)
        .ok_or_else(|| bad(&format!("unknown variant code {code}")))?;
    if head[12..16]
        != [
            material.white_kings,
            material.white_men,
            material.black_kings,
            material.black_men,
        ]
    {
        return Err(bad("the header names another material"));
    }
    if u64_at(&head, 16) != n {
        return Err(bad("the header's position count is wrong"));
    }
    // Checked before reading, so that a stray huge file is not loaded.
    if version == VERSION {
        if meta.len() != HEADER_LEN as u64 + n.div_ceil(4) + n {
            return Err(truncated());
        }
    } else {
        let mut word = [0u8; 8];
        file.read_exact(&mut word).map_err(io)?;
        if meta.len() < HEADER_V2 as u64 || u64::from_le_bytes(word) != meta.len() {
            return Err(truncated());
        }
    }
    Ok(OpenSlice {
        file,
        name,
        material,
        variant,
        version,
        head,
    })
}

impl OpenSlice {
    /// Reads the tables: version 1 whole, its checksum checked; version 2
    /// compressed, the checksum of its header and block index checked
    /// (each block's own when it is decoded).
    pub(crate) fn load(mut self) -> Result<Table, TablebaseError> {
        let name = self.name;
        let io = |e| TablebaseError::Io(name.clone(), e);
        let mismatch = || TablebaseError::BadFile(name.clone(), "checksum mismatch".to_string());
        let n = self.material.positions();
        if self.version != VERSION {
            let mut bytes = Vec::new();
            self.file.seek(SeekFrom::Start(0)).map_err(io)?;
            self.file.read_to_end(&mut bytes).map_err(io)?;
            return Packed::parse(self.material, self.variant, bytes)
                .map(Table::Packed)
                .map_err(|why| TablebaseError::BadFile(name.clone(), why.to_string()));
        }
        let mut stored = [0u8; 8];
        self.file.read_exact(&mut stored).map_err(io)?;
        // The tables are read straight into their own buffers: a slice can
        // be hundreds of megabytes, so it is not copied twice.
        let mut values = vec![0u8; n.div_ceil(4) as usize];
        let mut distances = vec![0u8; n as usize];
        self.file.read_exact(&mut values).map_err(io)?;
        self.file.read_exact(&mut distances).map_err(io)?;
        if checksum(&[&self.head, &values, &distances]) != u64::from_le_bytes(stored) {
            return Err(mismatch());
        }
        Ok(Table::Plain(Slice {
            material: self.material,
            variant: self.variant,
            values,
            distances,
        }))
    }
}

/// Reads and checks the file of `material` in `variant` under `dir` (any
/// version).
pub(crate) fn read_table(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<Table, TablebaseError> {
    open(dir, material, variant)?.load()
}

/// Reads the file of `material` under `dir` whole (a version 2 or 3 file
/// decoded, every block's checksum checked), as stored: the capture
/// positions of a version 3 file are not worked out (`stream::read`
/// does).
#[cfg(test)]
pub(crate) fn read(
    dir: &Path,
    material: Material,
    variant: Variant,
) -> Result<Slice, TablebaseError> {
    whole(dir, material, read_table(dir, material, variant)?)
}

/// `table`, read from the file of `material` under `dir`, whole (decoded,
/// every block's checksum checked), as stored.
pub(crate) fn whole(dir: &Path, material: Material, table: Table) -> Result<Slice, TablebaseError> {
    match table {
        Table::Plain(slice) => Ok(slice),
        Table::Packed(packed) => packed
            .to_slice()
            .map_err(|why| TablebaseError::BadFile(path(dir, material).display().to_string(), why)),
    }
}

/// A slice read from its file: whole (version 1, or solved in memory) or
/// compressed by blocks (versions 2 and 3).
pub(crate) enum Table {
    /// Every value and distance.
    Plain(Slice),
    /// The compressed blocks, decoded when probed.
    Packed(Packed),
}

impl Table {
    /// The stored value and distance at `index`, or the damaged block
    /// that holds it.
    #[inline]
    pub(crate) fn entry(&self, index: u64) -> Result<(Value, u8), DamagedBlock> {
        match self {
            Table::Plain(slice) => Ok((slice.value(index), slice.distance(index))),
            Table::Packed(packed) => packed.entry(index),
        }
    }

    /// Why block `block` is damaged, in words (for a damaged slice's
    /// report).
    pub(crate) fn block_why(&self, block: u64) -> String {
        match self {
            Table::Plain(_) => "checksum mismatch".to_string(),
            Table::Packed(packed) => packed.block_why(block),
        }
    }

    /// Whether the entries of the positions with a capture are left to
    /// the reader (format version 3): what [`Table::entry`] gives there
    /// means nothing.
    #[inline]
    pub(crate) fn captures_free(&self) -> bool {
        match self {
            Table::Plain(_) => false,
            Table::Packed(packed) => packed.captures_free(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_survives_the_file_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("damas-tb-file-{}", std::process::id()));
        let m: Material = "1k0m-1k0m".parse().unwrap();
        let mut s = Slice::empty(m, Variant::Spanish);
        s.set(5, Value::Win, 7);
        s.set(6, Value::Loss, 3);
        s.set(7, Value::CursedWin, 200);
        write(&dir, &s).unwrap();
        let back = read(&dir, m, Variant::Spanish).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.value(7), Value::CursedWin);
        let p = path(&dir, m);
        let mut bytes = fs::read(&p).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&p, &bytes).unwrap();
        let why = |bytes: &[u8]| {
            fs::write(&p, bytes).unwrap();
            match read(&dir, m, Variant::Spanish) {
                Err(TablebaseError::BadFile(_, why)) => why,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(why(&bytes), "checksum mismatch");
        bytes[last] ^= 1;
        let mut other_version = bytes.clone();
        other_version[8] = 4;
        assert_eq!(why(&other_version), "format version 4, expected 1, 2 or 3");
        let mut other_magic = bytes.clone();
        other_magic[0] = b'X';
        assert_eq!(why(&other_magic), "not a damas tablebase file");
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(why(&longer), "truncated or too long");
        // The variant is the version field's third byte: Spanish files
        // have 0 there, another code names another variant's rules.
        assert_eq!(bytes[10], 0);
        let mut unknown = bytes.clone();
        unknown[10] = 9;
        assert_eq!(why(&unknown), "unknown variant code 9");
        bytes.truncate(20);
        assert_eq!(why(&bytes), "truncated or too long");
        let russian = Slice {
            variant: Variant::Russian,
            ..s.clone()
        };
        write(&dir, &russian).unwrap();
        assert_eq!(fs::read(&p).unwrap()[10], 3);
        assert_eq!(read(&dir, m, Variant::Russian).unwrap(), russian);
        match read(&dir, m, Variant::Spanish) {
            Err(TablebaseError::BadFile(_, why)) => {
                assert_eq!(why, "the header names russian draughts, not spanish");
            }
            other => panic!("{other:?}"),
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_packed_slice_survives_and_a_damaged_block_stays_alone() {
        let dir = std::env::temp_dir().join(format!("damas-tb-packed-{}", std::process::id()));
        let m: Material = "1k0m-1k0m".parse().unwrap();
        let mut s = Slice::empty(m, Variant::Spanish);
        for i in 0..m.positions() {
            let (v, d) = match i % 7 {
                0 | 1 => (Value::Win, (i % 50) as u8),
                2 => (Value::Loss, (i % 13) as u8),
                3 if i % 5 == 0 => (Value::CursedWin, 200),
                4 if i % 3 == 0 => (Value::Draw, 90),
                _ => (Value::Draw, 0),
            };
            s.set(i, v, d);
        }
        let len = write_packed(&dir, &s, 64, true).unwrap();
        let p = path(&dir, m);
        assert_eq!(fs::metadata(&p).unwrap().len(), len);
        assert_eq!(read(&dir, m, Variant::Spanish).unwrap(), s);
        let Table::Packed(packed) = read_table(&dir, m, Variant::Spanish).unwrap() else {
            panic!("not packed")
        };
        assert_eq!(packed.entry(100), Ok((s.value(100), s.distance(100))));
        // Damage the first byte of block 3: only positions 192-255 fail.
        let mut bytes = fs::read(&p).unwrap();
        let index = HEADER_V2 + 4 * u32::from_le_bytes(bytes[36..40].try_into().unwrap()) as usize;
        let at = u64_at(&bytes, index + 16 * 3) as usize;
        bytes[at] ^= 0x10;
        fs::write(&p, &bytes).unwrap();
        let table = read_table(&dir, m, Variant::Spanish).unwrap();
        for i in 0..m.positions() {
            let got = table.entry(i);
            if (192..256).contains(&i) {
                assert_eq!(
                    got,
                    Err(DamagedBlock {
                        block: 3,
                        first: i == 192
                    })
                );
            } else {
                assert_eq!(got, Ok((s.value(i), s.distance(i))), "{i}");
            }
        }
        assert_eq!(
            table.block_why(3),
            "block 3 of 31, positions 192-255: checksum mismatch"
        );
        match read(&dir, m, Variant::Spanish) {
            Err(TablebaseError::BadFile(_, why)) => {
                assert_eq!(why, "block 3 of 31, positions 192-255: checksum mismatch");
            }
            other => panic!("{other:?}"),
        }
        // A damaged block index damages the slice; so does a wrong length.
        bytes[at] ^= 0x10;
        bytes[index + 16 * 3] ^= 1;
        fs::write(&p, &bytes).unwrap();
        assert!(
            matches!(read_table(&dir, m, Variant::Spanish), Err(TablebaseError::BadFile(_, why)) if why == "checksum mismatch")
        );
        bytes.push(0);
        fs::write(&p, &bytes).unwrap();
        assert!(
            matches!(read_table(&dir, m, Variant::Spanish), Err(TablebaseError::BadFile(_, why)) if why == "truncated or too long")
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
