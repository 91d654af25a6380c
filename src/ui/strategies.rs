//! The strategy comparison (being built): intersection, whole shard and gather side by side.

use leptos::prelude::*;

#[component]
pub fn StrategyComparison() -> impl IntoView {
    view! { <div class="strategies"></div> }
}
