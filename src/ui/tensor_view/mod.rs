//! The tensor view (being built): the logical tensor with source and destination boundaries and pieces.

use leptos::prelude::*;

#[component]
pub fn TensorView() -> impl IntoView {
    view! { <figure class="tensor-view"></figure> }
}
