//! Flat arrays for the search index: many strings as one text with their ends, many lists as one
//! array with their ends. A built index holds a few allocations instead of one per term, and a
//! snapshot (`crate::shelf::snapshot`) stores and loads each as it is, with no rebuild.

use alloc::string::String;
use alloc::vec::Vec;

/// Strings in one text: string `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Texts {
    pub(crate) text: String,
    pub(crate) ends: Vec<u32>,
}

impl Texts {
    /// Appends a string.
    pub(crate) fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// String `i`, `None` past the end.
    pub(crate) fn get(&self, i: usize) -> Option<&str> {
        let start = match i.checked_sub(1) {
            Some(before) => *self.ends.get(before)? as usize,
            None => 0,
        };
        let end = *self.ends.get(i)? as usize;
        self.text.get(start..end)
    }

    /// The first index whose string is not `< key` (the strings being sorted).
    pub(crate) fn lower_bound(&self, key: &str) -> usize {
        first_where(self.len(), |i| self.get(i).unwrap_or_default() >= key)
    }

    /// Whether every string is, as bytes, at most the next: what [`Texts::lower_bound`] needs.
    pub(crate) fn is_sorted(&self) -> bool {
        let bytes = self.text.as_bytes();
        let mut start = 0;
        let mut last: &[u8] = &[];
        for &end in &self.ends {
            let Some(this) = bytes.get(start..end as usize) else { return false };
            if crate::swar::compare(this, last).is_lt() {
                return false;
            }
            (last, start) = (this, end as usize);
        }
        true
    }

    /// Whether every end is within the text, on a character boundary, and no end is before the
    /// one before it: what a snapshot checks before using strings it read.
    pub(crate) fn is_valid(&self) -> bool {
        let mut last = 0;
        self.ends.iter().all(|&end| {
            let ok = end >= last && self.text.is_char_boundary(end as usize);
            last = end;
            ok
        })
    }
}

/// Lists in one array: list `i` is `items[ends[i - 1]..ends[i]]` (from 0 for the first).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Lists<T> {
    pub(crate) items: Vec<T>,
    pub(crate) ends: Vec<u32>,
}

impl<T> Lists<T> {
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// List `i`, empty past the end.
    pub(crate) fn get(&self, i: usize) -> &[T] {
        let start = match i.checked_sub(1) {
            Some(before) => self.ends.get(before).map_or(usize::MAX, |&e| e as usize),
            None => 0,
        };
        let end = self.ends.get(i).map_or(0, |&e| e as usize);
        self.items.get(start..end).unwrap_or(&[])
    }
}

/// The first `i` of `0..n` for which `holds(i)`, `holds` being false then true (binary search).
pub(crate) fn first_where(n: usize, holds: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, n);
    while low < high {
        let mid = low + (high - low) / 2;
        if holds(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_and_lists_read_back_what_was_put() {
        let mut texts = Texts::default();
        for s in ["apple", "", "banana", "cherry"] {
            texts.push(s);
        }
        assert_eq!(texts.get(0), Some("apple"));
        assert_eq!(texts.get(1), Some(""));
        assert_eq!(texts.get(3), Some("cherry"));
        assert_eq!(texts.get(4), None);
        assert!(texts.is_valid());
        let sorted = Texts { text: "abbc".into(), ends: alloc::vec![1, 2, 3, 4] };
        assert!(sorted.is_sorted());
        assert_eq!(sorted.lower_bound("b"), 1);
        assert_eq!(sorted.lower_bound("bb"), 3);
        assert_eq!(sorted.lower_bound("z"), 4);
        let broken = Texts { text: "é".into(), ends: alloc::vec![1] };
        assert!(!broken.is_valid());
        let lists = Lists { items: alloc::vec![1, 2, 3], ends: alloc::vec![2, 2, 3] };
        assert_eq!(lists.get(0), &[1, 2]);
        assert!(lists.get(1).is_empty());
        assert_eq!(lists.get(2), &[3]);
        assert!(lists.get(3).is_empty());
    }
}
