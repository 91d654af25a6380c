//! A box a table scrolls in where it is wider than the page's column (a phone, an embed, a narrow window) or
//! taller than its box (the inventory's tensors). Only then is it a tab stop, a named region a keyboard
//! scrolls with the arrow keys: one that fits was a stop that did nothing, eight of them on a wide screen
//! (review 41).

use leptos::prelude::*;

/// Its children in a `.table-scroll` box that is focusable, and named `label`, while they overflow it.
#[component]
pub fn ScrollRegion(
    /// What a screen reader names the region, e.g. "Links, scrollable".
    #[prop(into)]
    label: Signal<String>,
    /// More classes for the box (`tall-table`).
    #[prop(optional)]
    class: &'static str,
    /// Hides the box (a table with nothing to list).
    #[prop(optional, into)]
    hidden: Signal<bool>,
    children: Children,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Div>::new();
    let overflows = super::fit::observed_overflow(node);
    let class = if class.is_empty() { "table-scroll".to_string() } else { format!("table-scroll {class}") };
    view! {
        <div
            node_ref=node
            class=class
            hidden=move || hidden.get()
            tabindex=move || overflows.get().then_some("0")
            role=move || overflows.get().then_some("region")
            aria-label=move || overflows.get().then(|| label.get())
        >
            {children()}
        </div>
    }
}
