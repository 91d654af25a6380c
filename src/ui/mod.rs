//! The browser app (Leptos, client-side rendered): components that read the planning core's results.
//!
//! The state is one [`AppState`], provided at the top by [`App`]; components read it with
//! `expect_context`. Everything derived from it (the plan, the traffic, the comparison) is a `Memo`,
//! computed once per change. Each file (or folder) holds one visual concern: the editors, the tensor view,
//! the mesh view, the traffic panel, the strategy comparison, the correctness check.

mod change;
pub mod editor;
mod footer;
mod header;
pub mod mesh_view;
pub mod panic;
mod pieces;
mod state;
pub mod strategies;
pub mod tensor_view;
mod totals;
pub mod traffic;
pub mod verify;

use leptos::prelude::*;

pub use change::{ChangeSummary, describe_change};
pub use footer::AppFooter;
pub use header::AppHeader;
pub use pieces::{PieceTable, format_offset, format_shape};
pub use state::{AppState, Focus, Fresh, Regions, Side, StrategyRow, ViewChoice};
pub use totals::{TrafficTotals, format_count};

/// The query parameter `name` of the page's URL, if any.
pub fn query_parameter(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// The whole page: header, the editors beside the pictures, the numbers below, footer.
#[component]
pub fn App() -> impl IntoView {
    let preset = query_parameter("preset").unwrap_or_else(|| "toy".to_string());
    provide_context(AppState::from_preset(&preset));
    view! {
        <div class="shell">
            <AppHeader/>
            <editor::PresetBar/>
            <main class="main workspace" data-testid="main">
                <aside class="editors" aria-label="Describe the change">
                    <editor::Editors/>
                </aside>
                <div class="stage">
                    <section class="panel" aria-labelledby="change-title">
                        <ChangeSummary title_id="change-title"/>
                        <TrafficTotals/>
                    </section>
                    <section class="panel pictures" aria-label="The tensor and the devices">
                        <tensor_view::TensorView/>
                        <mesh_view::MeshView/>
                    </section>
                    <section class="panel" aria-label="Traffic">
                        <traffic::TrafficPanel/>
                    </section>
                    <section class="panel" aria-label="Strategies">
                        <strategies::StrategyComparison/>
                    </section>
                    <section class="panel" aria-label="Correctness check">
                        <verify::VerifyPanel/>
                    </section>
                    <section class="panel" aria-label="Pieces">
                        <PieceTable/>
                    </section>
                </div>
            </main>
            <AppFooter/>
        </div>
    }
}
