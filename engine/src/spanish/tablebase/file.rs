//! The slice file: a versioned header, the 2-bit value table, the distance
//! table and a checksum. See docs/TABLEBASES.md for the layout.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::index::Material;
use super::{TablebaseError, Value};

/// First bytes of every slice file.
const MAGIC: &[u8; 8] = b"DAMASTB\0";
/// Format version; a reader refuses any other.
pub(crate) const VERSION: u32 = 1;
/// Header bytes before the tables.
const HEADER_LEN: usize = 8 + 4 + 4 + 8 + 8;

/// One solved material slice in memory: the packed values (four positions
/// a byte) and one distance byte per position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slice {
    pub(crate) material: Material,
    pub(crate) values: Vec<u8>,
    pub(crate) distances: Vec<u8>,
}

impl Slice {
    /// A slice of `material` with every value a draw at distance 0.
    pub(crate) fn empty(material: Material) -> Slice {
        let n = material.positions() as usize;
        Slice {
            material,
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

/// 64-bit FNV-1a, over the whole file before the checksum field.
fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn header(slice: &Slice) -> [u8; HEADER_LEN - 8] {
    let m = slice.material;
    let mut h = [0u8; HEADER_LEN - 8];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&[m.white_kings, m.white_men, m.black_kings, m.black_men]);
    h[16..24].copy_from_slice(&m.positions().to_le_bytes());
    h
}

/// Writes `slice` to its file under `dir`, through a temporary file
/// renamed at the end so that an interrupted run leaves no partial slice.
pub(crate) fn write(dir: &Path, slice: &Slice) -> Result<(), TablebaseError> {
    let io = |e| TablebaseError::Io(dir.display().to_string(), e);
    fs::create_dir_all(dir).map_err(io)?;
    let head = header(slice);
    let sum = checksum(&[&head, &slice.values, &slice.distances]);
    let final_path = path(dir, slice.material);
    let tmp = final_path.with_extension("dtb.tmp");
    let io_at = |p: &Path| {
        let s = p.display().to_string();
        move |e| TablebaseError::Io(s, e)
    };
    let mut f = fs::File::create(&tmp).map_err(io_at(&tmp))?;
    f.write_all(&head).map_err(io_at(&tmp))?;
    f.write_all(&sum.to_le_bytes()).map_err(io_at(&tmp))?;
    f.write_all(&slice.values).map_err(io_at(&tmp))?;
    f.write_all(&slice.distances).map_err(io_at(&tmp))?;
    f.sync_all().map_err(io_at(&tmp))?;
    drop(f);
    fs::rename(&tmp, &final_path).map_err(io_at(&final_path))
}

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

/// A slice file opened with its header checked (regular file, magic,
/// version, material, position count and length), the tables not yet
/// read.
pub(crate) struct OpenSlice {
    file: fs::File,
    /// The file's path, for errors.
    name: String,
    material: Material,
    /// The header, its last 8 bytes the checksum of the whole file.
    head: [u8; HEADER_LEN],
}

/// Opens the file of `material` under `dir` and checks its header.
pub(crate) fn open(dir: &Path, material: Material) -> Result<OpenSlice, TablebaseError> {
    let p = path(dir, material);
    let name = p.display().to_string();
    let bad = |why: &str| TablebaseError::BadFile(name.clone(), why.to_string());
    let io = |e| TablebaseError::Io(name.clone(), e);
    let n = material.positions();
    let expected_len = HEADER_LEN as u64 + n.div_ceil(4) + n;
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
    // Checked before reading, so that a stray huge file is not loaded.
    if meta.len() != expected_len {
        return Err(bad("truncated or too long"));
    }
    let mut head = [0u8; HEADER_LEN];
    file.read_exact(&mut head).map_err(io)?;
    if &head[..8] != MAGIC {
        return Err(bad("not a damas tablebase file"));
    }
    let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    if version != VERSION {
        return Err(bad(&format!(
            "format version {version}, expected {VERSION}"
        )));
    }
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
    let mut word = [0u8; 8];
    word.copy_from_slice(&head[16..24]);
    if u64::from_le_bytes(word) != n {
        return Err(bad("the header's position count is wrong"));
    }
    Ok(OpenSlice {
        file,
        name,
        material,
        head,
    })
}

impl OpenSlice {
    /// Reads the tables and checks the checksum.
    pub(crate) fn load(mut self) -> Result<Slice, TablebaseError> {
        let name = self.name;
        let io = |e| TablebaseError::Io(name.clone(), e);
        let n = self.material.positions();
        // The tables are read straight into their own buffers: a slice can
        // be hundreds of megabytes, so it is not copied twice.
        let mut values = vec![0u8; n.div_ceil(4) as usize];
        let mut distances = vec![0u8; n as usize];
        self.file.read_exact(&mut values).map_err(io)?;
        self.file.read_exact(&mut distances).map_err(io)?;
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&self.head[24..32]);
        if checksum(&[&self.head[..24], &values, &distances]) != u64::from_le_bytes(stored) {
            return Err(TablebaseError::BadFile(
                name,
                "checksum mismatch".to_string(),
            ));
        }
        Ok(Slice {
            material: self.material,
            values,
            distances,
        })
    }
}

/// Reads and checks the file of `material` under `dir`.
pub(crate) fn read(dir: &Path, material: Material) -> Result<Slice, TablebaseError> {
    open(dir, material)?.load()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_survives_the_file_and_damage_is_caught() {
        let dir = std::env::temp_dir().join(format!("damas-tb-file-{}", std::process::id()));
        let m: Material = "1k0m-1k0m".parse().unwrap();
        let mut s = Slice::empty(m);
        s.set(5, Value::Win, 7);
        s.set(6, Value::Loss, 3);
        s.set(7, Value::CursedWin, 200);
        write(&dir, &s).unwrap();
        let back = read(&dir, m).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.value(7), Value::CursedWin);
        let p = path(&dir, m);
        let mut bytes = fs::read(&p).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&p, &bytes).unwrap();
        let why = |bytes: &[u8]| {
            fs::write(&p, bytes).unwrap();
            match read(&dir, m) {
                Err(TablebaseError::BadFile(_, why)) => why,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(why(&bytes), "checksum mismatch");
        bytes[last] ^= 1;
        let mut other_version = bytes.clone();
        other_version[8] = 2;
        assert_eq!(why(&other_version), "format version 2, expected 1");
        let mut other_magic = bytes.clone();
        other_magic[0] = b'X';
        assert_eq!(why(&other_magic), "not a damas tablebase file");
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(why(&longer), "truncated or too long");
        bytes.truncate(20);
        assert_eq!(why(&bytes), "truncated or too long");
        fs::remove_dir_all(&dir).unwrap();
    }
}
