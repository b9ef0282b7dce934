//! Material signatures and the perfect index of the positions of one
//! material slice.
//!
//! A slice holds every position with a given number of white kings, white
//! men, black kings and black men, for both sides to move. Its index is,
//! from the most significant part down:
//!
//! 1. the *men configuration*: the colex rank of the white men among the 28
//!    squares 1–28 (a white man never stands on 29–32) times `C(28, bm)`
//!    plus the colex rank of the black men among the 28 squares 5–32;
//!    configurations where a white and a black man share a square are
//!    holes in the index;
//! 2. the white kings as a colex rank among the squares left free by the
//!    men, then the black kings among the squares still free;
//! 3. the side to move (0 White, 1 Black).
//!
//! King moves keep the men configuration, so the positions of one
//! configuration are one contiguous block (a *sub-slice*) that the
//! generator solves on its own.

use std::fmt;

use crate::spanish::{Color, Position, Rules, Variant};

/// Most pieces of a material signature the index handles (the 8-piece plan
/// of docs/TABLEBASES.md); the generator and the files go to
/// [`MAX_PIECES`](super::MAX_PIECES).
pub(crate) const MAX_INDEX_PIECES: u32 = 8;

/// Squares a man can stand on (all but its promotion row).
const MAN_SQUARES: u32 = 28;

/// Binomial coefficients `C(n, k)` for `n, k <= 32`.
static BINOM: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, zero when `k > n`.
#[inline(always)]
pub(crate) fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// A material signature: how many kings and men each side has.
///
/// Printed and read as `KkMm`-style names: `w` followed by the white
/// kings and men, then `b` and the black ones, e.g. `2k1m-1k0m` for two
/// white kings and a man against a black king.
///
/// ```
/// use damas::spanish::tablebase::Material;
/// use damas::spanish::Position;
/// let pos: Position = "W:WK1,K2,10:BK30".parse().unwrap();
/// let m = Material::of(&pos);
/// assert_eq!(m.to_string(), "2k1m-1k0m");
/// assert_eq!(m.pieces(), 4);
/// assert_eq!("2k1m-1k0m".parse::<Material>().unwrap(), m);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White kings.
    pub white_kings: u8,
    /// White men.
    pub white_men: u8,
    /// Black kings.
    pub black_kings: u8,
    /// Black men.
    pub black_men: u8,
}

impl Material {
    /// The signature with these counts (not checked: see
    /// [`Material::is_valid`]).
    pub const fn new(white_kings: u8, white_men: u8, black_kings: u8, black_men: u8) -> Material {
        Material {
            white_kings,
            white_men,
            black_kings,
            black_men,
        }
    }

    /// The material of `pos`.
    pub fn of(pos: &Position) -> Material {
        Material {
            white_kings: pos.kings(Color::White).count() as u8,
            white_men: pos.men(Color::White).count() as u8,
            black_kings: pos.kings(Color::Black).count() as u8,
            black_men: pos.men(Color::Black).count() as u8,
        }
    }

    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.white_kings)
            + u32::from(self.white_men)
            + u32::from(self.black_kings)
            + u32::from(self.black_men)
    }

    /// Men on the board (promotions lower it, so slices with fewer men of
    /// the same size are solved first).
    pub fn men(self) -> u32 {
        u32::from(self.white_men) + u32::from(self.black_men)
    }

    /// Whether a slice of this material exists: both sides have a piece
    /// and there are at most 8 pieces.
    pub fn is_valid(self) -> bool {
        self.white_kings + self.white_men >= 1
            && self.black_kings + self.black_men >= 1
            && self.pieces() <= MAX_INDEX_PIECES
    }

    /// Every valid material signature with exactly `pieces` pieces, in the
    /// order the generator solves them (fewer men first, so that a
    /// promotion's target slice is ready).
    pub fn all_with(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let p = pieces as u8;
        for wk in 0..=p {
            for wm in 0..=p - wk {
                for bk in 0..=p - wk - wm {
                    let m = Material::new(wk, wm, bk, p - wk - wm - bk);
                    if m.is_valid() {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.men(), *m));
        out
    }

    /// The position at `index` of this slice (the order of the files,
    /// docs/TABLEBASES.md), or `None` for an index hole (a white and a
    /// black man on one square) or an index past the slice.
    ///
    /// ```
    /// use damas::spanish::tablebase::Material;
    /// let m: Material = "1k0m-1k0m".parse().unwrap();
    /// let pos = m.position_at(1).unwrap();
    /// assert_eq!(Material::of(&pos), m);
    /// assert_eq!(pos.hash(), pos.compute_hash());
    /// assert_eq!(m.position_at(m.positions()), None);
    /// ```
    pub fn position_at(self, index: u64) -> Option<Position> {
        self.position_at_in(index, Variant::Spanish)
    }

    /// [`Material::position_at`] as a position of `variant` (the same
    /// pieces and side to move; the index does not depend on the rules).
    ///
    /// ```
    /// use damas::spanish::tablebase::Material;
    /// use damas::spanish::Variant;
    /// let m: Material = "0k1m-1k0m".parse().unwrap();
    /// let pos = m.position_at_in(5, Variant::Russian).unwrap();
    /// assert_eq!(pos.rules().variant(), Variant::Russian);
    /// assert_eq!(Material::of(&pos), m);
    /// ```
    pub fn position_at_in(self, index: u64, variant: Variant) -> Option<Position> {
        if !self.is_valid() || self.pieces() > MAX_INDEX_PIECES || index >= self.positions() {
            return None;
        }
        let ix = Indexer::new(self);
        let men = ix.men(index / ix.sub_len());
        men.is_valid().then(|| {
            let mut pos = ix.position(men, index % ix.sub_len(), variant);
            pos.hash = pos.compute_hash();
            pos
        })
    }

    /// Dense key for table lookups: each count below 9.
    pub(crate) fn key(self) -> usize {
        let (a, b, c, d) = (
            self.white_kings as usize,
            self.white_men as usize,
            self.black_kings as usize,
            self.black_men as usize,
        );
        ((a * 9 + b) * 9 + c) * 9 + d
    }

    /// Number of keys [`Material::key`] can return.
    pub(crate) const KEYS: usize = 9 * 9 * 9 * 9;

    /// Number of men configurations (holes included).
    pub(crate) fn men_configs(self) -> u64 {
        binom(MAN_SQUARES, self.white_men.into()) * binom(MAN_SQUARES, self.black_men.into())
    }

    /// Number of king placements for one men configuration.
    pub(crate) fn king_placements(self) -> u64 {
        let free = 32 - u32::from(self.white_men) - u32::from(self.black_men);
        binom(free, self.white_kings.into())
            * binom(free - u32::from(self.white_kings), self.black_kings.into())
    }

    /// Positions of one men configuration, both sides to move.
    pub(crate) fn sub_slice_len(self) -> u64 {
        self.king_placements() * 2
    }

    /// Index size of the slice (holes included).
    pub fn positions(self) -> u64 {
        self.men_configs() * self.sub_slice_len()
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}k{}m-{}k{}m",
            self.white_kings, self.white_men, self.black_kings, self.black_men
        )
    }
}

/// Why a material name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a material name like 2k1m-1k0m: {0:?}")]
pub struct MaterialParseError(pub String);

impl std::str::FromStr for Material {
    type Err = MaterialParseError;

    fn from_str(s: &str) -> Result<Material, MaterialParseError> {
        let err = || MaterialParseError(s.to_string());
        let (w, b) = s.split_once('-').ok_or_else(err)?;
        let side = |t: &str| -> Option<(u8, u8)> {
            let (k, m) = t.strip_suffix('m')?.split_once('k')?;
            let k: u8 = k.parse().ok()?;
            let m: u8 = m.parse().ok()?;
            (k <= 8 && m <= 8).then_some((k, m))
        };
        let (wk, wm) = side(w).ok_or_else(err)?;
        let (bk, bm) = side(b).ok_or_else(err)?;
        let m = Material::new(wk, wm, bk, bm);
        if m.is_valid() {
            Ok(m)
        } else {
            Err(err())
        }
    }
}

/// Colex rank of the set bits of `set` (as positions 0..).
#[inline(always)]
fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let p = set.trailing_zeros();
        set &= set - 1;
        r += binom(p, i);
        i += 1;
    }
    r
}

/// The set of `k` positions with colex rank `r`.
#[inline]
fn unrank(mut r: u64, k: u32) -> u32 {
    let mut set = 0;
    let mut p = 32u32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        p -= 1;
        while binom(p, i) > r {
            p -= 1;
        }
        r -= binom(p, i);
        set |= 1 << p;
    }
    set
}

/// The bits of `set` squeezed to the positions of the zero bits of
/// `taken` (a software `pext` over the free squares).
#[inline(always)]
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let b = s.trailing_zeros();
        s &= s - 1;
        let below = taken & ((1u32 << b) - 1);
        out |= 1 << (b - below.count_ones());
    }
    out
}

/// The inverse of [`squeeze`]: positions among the free squares back to
/// squares (a software `pdep`).
#[inline(always)]
fn spread(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = !taken;
    let mut pos = 0;
    let mut s = set;
    while s != 0 {
        let want = s.trailing_zeros();
        s &= s - 1;
        while pos < want {
            free &= free - 1;
            pos += 1;
        }
        out |= 1 << free.trailing_zeros();
    }
    out
}

/// The men of one configuration: white and black men squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Men {
    pub(crate) white: u32,
    pub(crate) black: u32,
}

impl Men {
    /// Whether no square holds two men (the others are index holes).
    pub(crate) fn is_valid(self) -> bool {
        self.white & self.black == 0
    }

    /// Sum of the men's advances (rows walked from their own side): every
    /// man move raises it by one, so configurations are solved from the
    /// most advanced down.
    pub(crate) fn advancement(self) -> u32 {
        let mut a = 0;
        for b in super::super::Bitboard(self.white) {
            a += u32::from(b.rank());
        }
        for b in super::super::Bitboard(self.black) {
            a += 7 - u32::from(b.rank());
        }
        a
    }
}

/// The indexing of one material slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Indexer {
    pub(crate) material: Material,
    black_men_configs: u64,
    black_king_placements: u64,
    sub_len: u64,
}

impl Indexer {
    pub(crate) fn new(material: Material) -> Indexer {
        let free = 32 - u32::from(material.white_men) - u32::from(material.black_men);
        Indexer {
            material,
            black_men_configs: binom(MAN_SQUARES, material.black_men.into()),
            black_king_placements: binom(
                free - u32::from(material.white_kings),
                material.black_kings.into(),
            ),
            sub_len: material.sub_slice_len(),
        }
    }

    /// Placements of the black kings for each placement of the white ones.
    pub(crate) fn black_king_placements(&self) -> u64 {
        self.black_king_placements
    }

    /// Positions per men configuration.
    pub(crate) fn sub_len(&self) -> u64 {
        self.sub_len
    }

    /// The men of configuration `config`.
    pub(crate) fn men(&self, config: u64) -> Men {
        let m = self.material;
        let w = unrank(config / self.black_men_configs, m.white_men.into());
        let b = unrank(config % self.black_men_configs, m.black_men.into()) << 4;
        Men { white: w, black: b }
    }

    /// The configuration of `men`.
    pub(crate) fn config(&self, men: Men) -> u64 {
        rank(men.white) * self.black_men_configs + rank(men.black >> 4)
    }

    /// Index of `pos` within its men configuration.
    #[inline]
    pub(crate) fn local_index(&self, pos: &Position) -> u64 {
        let men = pos.white & !pos.kings | pos.black & !pos.kings;
        let wk = pos.white & pos.kings;
        let bk = pos.black & pos.kings;
        let wr = rank(squeeze(wk, men));
        let br = rank(squeeze(bk, men | wk));
        (wr * self.black_king_placements + br) * 2 + u64::from(pos.side == Color::Black)
    }

    /// Index of `pos`, which must have this material.
    #[inline]
    pub(crate) fn index(&self, pos: &Position) -> u64 {
        let men = Men {
            white: pos.white & !pos.kings,
            black: pos.black & !pos.kings,
        };
        self.config(men) * self.sub_len + self.local_index(pos)
    }

    /// The position at `local` within configuration `men` (valid `men`),
    /// under the rules of `variant`.
    pub(crate) fn position(&self, men: Men, local: u64, variant: Variant) -> Position {
        let m = self.material;
        let side = if local & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let k = local / 2;
        let taken = men.white | men.black;
        let wk = spread(
            unrank(k / self.black_king_placements, m.white_kings.into()),
            taken,
        );
        let bk = spread(
            unrank(k % self.black_king_placements, m.black_kings.into()),
            taken | wk,
        );
        Position {
            white: men.white | wk,
            black: men.black | bk,
            kings: wk | bk,
            side,
            rules: Rules::of_variant(variant),
            hash: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for k in 0..=4u32 {
            for r in 0..binom(28, k) {
                let s = unrank(r, k);
                assert_eq!(s.count_ones(), k);
                assert_eq!(rank(s), r);
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let taken = 0b1011_0000_0000_0000_0000_0000_0100_0001u32;
        for set in [0u32, 1, 0b110, 0x00F0_0000, 1 << 26] {
            assert_eq!(squeeze(spread(set, taken), taken), set);
        }
    }

    #[test]
    fn every_index_round_trips() {
        for m in ["1k1m-0k1m", "0k2m-1k0m", "2k0m-1k0m", "0k1m-0k2m"] {
            let m: Material = m.parse().unwrap();
            let ix = Indexer::new(m);
            let mut valid = 0u64;
            for config in 0..m.men_configs() {
                let men = ix.men(config);
                assert_eq!(ix.config(men), config);
                if !men.is_valid() {
                    continue;
                }
                for local in 0..ix.sub_len() {
                    let pos = ix.position(men, local, Variant::Spanish);
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(ix.index(&pos), config * ix.sub_len() + local);
                    valid += 1;
                }
            }
            assert!(valid > 0 && valid <= m.positions());
        }
        let m: Material = "2k0m-1k0m".parse().unwrap();
        assert_eq!(m.positions(), 496 * 30 * 2);
    }

    #[test]
    fn material_order_puts_promotions_first() {
        let all = Material::all_with(3);
        let pos = |s: &str| all.iter().position(|m| *m == s.parse().unwrap()).unwrap();
        // 1k1m-1k0m promotes into 2k0m-1k0m, which must come earlier.
        assert!(pos("2k0m-1k0m") < pos("1k1m-1k0m"));
        assert!("1k0m-0k0m".parse::<Material>().is_err());
        assert!("junk".parse::<Material>().is_err());
    }
}
