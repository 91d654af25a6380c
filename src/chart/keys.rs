//! Keys for redrawing lists by content: an item whose drawn content is unchanged keeps its key, so a keyed
//! list (Leptos' `For`) leaves its DOM alone; a changed or new item gets a new key and is built afresh.
//!
//! Why: the app's views are type-erased (`--cfg erase_components`, for the bundle size), and an erased
//! element redrawn in place removes and sets every attribute again, changed or not. On an edit most of a
//! picture stays as it was (the grid, the other mesh, most tiles), so keeping unchanged items is most of
//! the work saved.

use std::collections::HashMap;
use std::fmt::{self, Debug, Write};
use std::hash::{DefaultHasher, Hasher};

/// A key: the hash of the item's content, and which occurrence of that content it is (identical items,
/// such as two equal boundary lines, stay distinct keys).
pub type ContentKey = (u64, u32);

/// Feeds formatted text into a hasher without building a string.
struct HashWriter(DefaultHasher);

impl Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// The hash of an item's content, through its `Debug` form (every drawn field, floats included, shows in
/// it; floats have no `Hash`).
pub fn content_hash<T: Debug + ?Sized>(item: &T) -> u64 {
    let mut writer = HashWriter(DefaultHasher::new());
    // Writing into a hasher cannot fail, and a `Debug` impl that fails only shortens the hashed text.
    let _ = write!(writer, "{item:?}");
    writer.0.finish()
}

/// Each item with its [`ContentKey`], in order.
pub fn content_keys<T: Debug>(items: impl IntoIterator<Item = T>) -> Vec<(ContentKey, T)> {
    let mut seen: HashMap<u64, u32> = HashMap::new();
    items
        .into_iter()
        .map(|item| {
            let hash = content_hash(&item);
            let count = seen.entry(hash).or_insert(0);
            let key = (hash, *count);
            *count += 1;
            (key, item)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn equal_content_keeps_its_key_and_a_change_gets_a_new_one() {
        let before = content_keys(vec![(1.0, "a"), (2.0, "b"), (3.0, "c")]);
        let after = content_keys(vec![(1.0, "a"), (2.5, "b"), (3.0, "c")]);
        assert_eq!(before[0].0, after[0].0);
        assert_ne!(before[1].0, after[1].0);
        assert_eq!(before[2].0, after[2].0);
    }

    #[test]
    fn identical_items_get_distinct_keys() {
        let keys: Vec<ContentKey> = content_keys(vec![7, 7, 7]).into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys[0].0, keys[1].0);
        assert_eq!(keys, vec![(keys[0].0, 0), (keys[0].0, 1), (keys[0].0, 2)]);
    }

    proptest! {
        /// Keys within one list are unique (a keyed list requires it), whatever repeats in it.
        #[test]
        fn keys_are_unique(items in proptest::collection::vec(0u8..4, 0..40)) {
            let keys: Vec<ContentKey> = content_keys(items.clone()).into_iter().map(|(k, _)| k).collect();
            let unique: std::collections::HashSet<&ContentKey> = keys.iter().collect();
            prop_assert_eq!(unique.len(), items.len());
        }

        /// Keys depend on content and position among equals only: the same list gives the same keys.
        #[test]
        fn keys_are_stable(items in proptest::collection::vec(any::<i32>(), 0..40)) {
            let first: Vec<ContentKey> = content_keys(items.clone()).into_iter().map(|(k, _)| k).collect();
            let second: Vec<ContentKey> = content_keys(items).into_iter().map(|(k, _)| k).collect();
            prop_assert_eq!(first, second);
        }
    }
}
