//! The traffic panel (being built): the three quantities, per-link table, heatmap, per-device bars.

use leptos::prelude::*;

#[component]
pub fn TrafficPanel() -> impl IntoView {
    view! { <div class="traffic-panel"></div> }
}
