//! Lists and groups redrawn by content (see [`crate::chart::keys`] for why): an item whose content did not
//! change keeps its DOM untouched, a changed one is built afresh.
//!
//! Every keyed list goes through one non-generic [`For`] (items erased to boxed builders): Leptos' keyed
//! diff is large, and one copy of it per list type cost the bundle ~20 KB gzipped.

use std::fmt::Debug;

use leptos::prelude::*;

use crate::chart::keys::{ContentKey, content_hash, content_keys};

/// One item: its key and what builds its view.
type Entry = (ContentKey, Box<dyn FnOnce() -> AnyView + Send>);

/// The one instance of Leptos' keyed list.
#[inline(never)]
fn keyed_entries(entries: Box<dyn Fn() -> Vec<Entry> + Send>) -> AnyView {
    fn key(entry: &Entry) -> ContentKey {
        entry.0
    }
    fn build(entry: Entry) -> AnyView {
        (entry.1)()
    }
    view! { <For each=entries key=key children=build/> }.into_any()
}

/// Draws `items()` with `render`, one keyed entry per item: on a change only new or changed items are built
/// and only vanished ones removed.
pub fn keyed<T, I, V>(
    items: impl Fn() -> I + Send + Sync + 'static,
    render: impl Fn(T) -> V + Send + Sync + Clone + 'static,
) -> AnyView
where
    T: Debug + Send + Sync + 'static,
    I: IntoIterator<Item = T>,
    V: IntoView + 'static,
{
    keyed_entries(Box::new(move || {
        content_keys(items())
            .into_iter()
            .map(|(key, item)| {
                let render = render.clone();
                let build: Box<dyn FnOnce() -> AnyView + Send> = Box::new(move || render(item).into_any());
                (key, build)
            })
            .collect()
    }))
}

/// Draws `render()` afresh only when `key()`'s content changes: for a group whose drawing depends on a
/// small part of a larger memo (the axes depend on the tensor's shape, not on the plan).
pub fn redraw_on<K, V>(
    key: impl Fn() -> K + Send + Sync + 'static,
    render: impl Fn() -> V + Send + Sync + Clone + 'static,
) -> AnyView
where
    K: Debug + Send + Sync + 'static,
    V: IntoView + 'static,
{
    keyed(move || std::iter::once(content_hash(&key())), move |_| untrack(&render))
}
