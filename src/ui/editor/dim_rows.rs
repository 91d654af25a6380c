//! Rows that keep their identity when a dim before them is removed.

use leptos::prelude::*;

/// The identities of the rows of a list of dims (a mesh's or a tensor's), one per dim, in order. The editors
/// key their rows by these, not by position: removing a dim removes its own row, and the rows after it move
/// up with what was typed in them. Keyed by position, each of those rows was handed its successor's value
/// and dropped text that did not parse yet.
#[derive(Clone, Copy)]
pub struct DimRows {
    ids: Memo<Vec<u64>>,
    /// The dim the user asked to remove, taken by the next count of rows.
    removed: StoredValue<Option<usize>>,
    /// A dim the user added in front (a mesh's outer dim), taken by the next count of rows.
    in_front: StoredValue<bool>,
}

impl DimRows {
    /// Rows for `rank` dims, following it.
    pub fn new(rank: Memo<usize>) -> DimRows {
        let removed = StoredValue::new(None::<usize>);
        let in_front = StoredValue::new(false);
        let ids = Memo::new(move |previous: Option<&Vec<u64>>| {
            let rank = rank.get();
            let mut ids = previous.cloned().unwrap_or_default();
            let next = ids.iter().max().map_or(0, |last| last + 1);
            // A removal asked for here takes out its own row; any other change of rank (a preset, undo,
            // another tensor of an inventory) adds or drops rows at the end.
            let asked = removed.try_update_value(Option::take).flatten();
            if let Some(dim) = asked.filter(|&dim| dim < ids.len() && ids.len() == rank + 1) {
                ids.remove(dim);
            }
            // A dim added in front takes a new row there; the rows after it keep what was typed in them.
            if in_front.try_update_value(std::mem::take).unwrap_or(false) && rank == ids.len() + 1 {
                ids.insert(0, next);
            }
            ids.truncate(rank);
            let missing = rank - ids.len();
            ids.extend((next..).take(missing));
            ids
        });
        DimRows { ids, removed, in_front }
    }

    /// The rows' identities, in dim order.
    pub fn ids(self) -> Vec<u64> {
        self.ids.get()
    }

    /// Which dim the row `id` edits now.
    pub fn dim(self, id: u64) -> Signal<usize> {
        let ids = self.ids;
        Memo::new(move |_| ids.with(|ids| ids.iter().position(|&i| i == id).unwrap_or(0))).into()
    }

    /// Says that `dim` is about to be removed from the spec, so that its row goes with it.
    pub fn remove(self, dim: usize) {
        self.removed.set_value(Some(dim));
    }

    /// Says that a dim is about to be added in front, so that its row goes there.
    pub fn add_in_front(self) {
        self.in_front.set_value(true);
    }
}

/// The × that removes a dim's row. It tells `rows` before `remove` edits the spec, so the row goes with its
/// dim and the rows after it keep what was typed in them (the order both editors must keep).
#[component]
pub fn RemoveDimButton(
    /// Which dim the row edits now.
    dim: Signal<usize>,
    rows: DimRows,
    /// The dim in the accessible name, e.g. "tensor dim" or "source mesh dim".
    name: String,
    /// The test id before the dim's number, e.g. "remove-tensor-dim".
    test_id: String,
    /// The tooltip.
    title: &'static str,
    /// A mesh or tensor keeps at least one dim.
    #[prop(into)]
    disabled: Signal<bool>,
    /// Removes dim `n` from the spec.
    remove: Callback<usize>,
    /// Where the focus goes when no other dim's × can take it (the one dim left keeps its ×, disabled): the
    /// test id of the button that adds a dim.
    add_test_id: String,
) -> impl IntoView {
    let id = test_id.clone();
    view! {
        <button
            type="button"
            class="remove"
            aria-label=move || format!("remove {name} {}", dim.get())
            title=title
            data-testid=move || format!("{id}-{}", dim.get())
            disabled=disabled
            on:click=move |_| {
                let dim = dim.get_untracked();
                rows.remove(dim);
                remove.run(dim);
                // The button is gone with its row: the focus goes to the × now in its place (or before it),
                // not to the page's body (a screen reader lost its place).
                let next = [format!("{test_id}-{dim}"), format!("{test_id}-{}", dim.saturating_sub(1)), add_test_id.clone()];
                crate::ui::focus::after_render(move |document| crate::ui::focus::focus_first_enabled(&document, &next));
            }
        >
            "×"
        </button>
    }
}
