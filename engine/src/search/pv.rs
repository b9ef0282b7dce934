//! The triangular principal-variation table of one search thread, for both
//! games.

/// `N` plies of principal variations: row `ply` holds the best line from
/// `ply` found so far.
pub(crate) struct PvTable<M, const N: usize> {
    line: Box<[[M; N]; N]>,
    len: [usize; N],
}

impl<M: Copy, const N: usize> PvTable<M, N> {
    /// An empty table; `filler` is never reported.
    pub(crate) fn new(filler: M) -> PvTable<M, N> {
        PvTable {
            line: Box::new([[filler; N]; N]),
            len: [0; N],
        }
    }

    /// Empties the line from `ply` (beyond the table: nothing to do).
    #[inline(always)]
    pub(crate) fn clear(&mut self, ply: usize) {
        if ply < N {
            self.len[ply] = ply;
        }
    }

    /// `mv` at `ply` followed by the line from `ply + 1`.
    #[inline(always)]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        let next = if ply + 1 < N {
            self.len[ply + 1]
        } else {
            ply + 1
        };
        let end = next.max(ply + 1);
        self.line[ply][ply] = mv;
        for i in ply + 1..end {
            self.line[ply][i] = self.line[ply + 1][i];
        }
        self.len[ply] = end;
    }

    /// The line from the root.
    pub(crate) fn root(&self) -> &[M] {
        &self.line[0][..self.len[0]]
    }
}
