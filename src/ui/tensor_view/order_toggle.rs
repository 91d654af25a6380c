//! The order of nested shards, beside the picture it redraws. The tensor card's "strided order" box is in
//! the editors, which Present hides: a lecturer on the nested example could say that the order decides who
//! holds which rows, but not show it. Shown only for a side where the order changes something.

use leptos::prelude::*;

use crate::core::notation::order_matters;
use crate::core::spec_edit::{SideName, from_jax, is_strided, set_strided};
use crate::ui::AppState;

/// One box per side whose nested shards the order rearranges, for the tensor the view shows.
#[component]
pub fn OrderToggles() -> impl IntoView {
    let state = expect_context::<AppState>();
    // From the change drawn, so that a box never offers to reorder what the picture does not show.
    let sides = Memo::new(move |_| {
        let index = state.view.with(|v| v.tensor);
        state.reshard.with(|r| {
            let Some(t) = r.tensors.get(index) else { return Vec::new() };
            let nested = |layout, mesh: &crate::core::model::Mesh| order_matters(layout, &mesh.shape);
            let mut sides = Vec::new();
            if nested(&t.source, &r.source_mesh) {
                sides.push(SideName::Source);
            }
            if nested(&t.destination, &r.destination_mesh) {
                sides.push(SideName::Destination);
            }
            sides
        })
    });
    move || {
        let sides = sides.get();
        let named = sides.len() > 1;
        sides.into_iter().map(move |name| view! { <OrderToggle name named/> }).collect_view()
    }
}

/// "Strided order": nested shards applied right to left (the last mesh dim splits first).
#[component]
fn OrderToggle(name: SideName, named: bool) -> impl IntoView {
    let state = expect_context::<AppState>();
    let index = move || state.view.with_untracked(|v| v.tensor);
    // From the input, as the editor's box reads it: a click shows at once, before the plan follows.
    let strided = Memo::new(move |_| state.input.with(|input| is_strided(input, index(), name)));
    let jax = Memo::new(move |_| state.input.with(|input| from_jax(input, index(), name)));
    let label = match (named, name) {
        (false, _) => "Strided order",
        (true, SideName::Source) => "Source in strided order",
        (true, SideName::Destination) => "Destination in strided order",
    };
    let testid = format!("view-order-{}", name.key());
    view! {
        <label class="toggle" title="_StridedShard: nested shards of one tensor dim applied right to left, as FSDP2 + TP lay them out">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || strided.get()
                prop:disabled=move || jax.get()
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    state.input.update(|input| set_strided(input, index(), name, on));
                }
            />
            <span>{label}</span>
        </label>
    }
}
