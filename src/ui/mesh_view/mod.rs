//! The mesh view (being built): both meshes as device tiles grouped by node.

use leptos::prelude::*;

#[component]
pub fn MeshView() -> impl IntoView {
    view! { <figure class="mesh-view"></figure> }
}
