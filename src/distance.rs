//! Levenshtein distance within a limit: the one measure of "did you mean" (the closest tool names
//! of describe and unwrap, the closest option names of an unknown option's warning).
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports nothing of the crate.

use alloc::vec::Vec;

/// Levenshtein distance, giving up (returning `limit + 1`) once every cell of a row exceeds `limit`.
pub fn edit_distance(a: &[char], b: &[char], limit: usize) -> usize {
    edit_distance_in(a, b, limit, &mut Vec::new(), &mut Vec::new())
}

/// [`edit_distance`] with its two rows in `previous` and `current` (any contents).
pub fn edit_distance_in(
    a: &[char],
    b: &[char],
    limit: usize,
    previous: &mut Vec<usize>,
    current: &mut Vec<usize>,
) -> usize {
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    previous.clear();
    previous.extend(0..=b.len());
    current.clear();
    current.resize(b.len() + 1, 0);
    for (i, ca) in a.iter().enumerate() {
        let Some(first) = current.first_mut() else { return limit + 1 };
        *first = i + 1;
        let mut row_min = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let (Some(&diagonal), Some(&above), Some(&left)) = (previous.get(j), previous.get(j + 1), current.get(j))
            else {
                return limit + 1;
            };
            let cell = (diagonal + usize::from(ca != cb)).min(above + 1).min(left + 1);
            if let Some(c) = current.get_mut(j + 1) {
                *c = cell;
            }
            row_min = row_min.min(cell);
        }
        if row_min > limit {
            return limit + 1;
        }
        core::mem::swap(previous, current);
    }
    previous.get(b.len()).copied().unwrap_or(limit + 1)
}
