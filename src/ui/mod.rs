//! The browser app (Leptos, client-side rendered): components that read the planning core's results.
//!
//! The state is one [`AppState`], provided at the top by [`App`]; components read it with
//! `expect_context`. Everything derived from it (the plan's pieces, the traffic totals) is a `Memo`,
//! computed once per change. Each file holds one visual concern.

mod change;
mod footer;
mod header;
pub mod panic;
mod pieces;
mod state;
mod totals;

use leptos::prelude::*;

use crate::core::{plan::Strategy, presets};

pub use change::{ChangeSummary, describe_change};
pub use footer::AppFooter;
pub use header::AppHeader;
pub use pieces::{PieceTable, format_offset, format_shape};
pub use state::AppState;
pub use totals::{TrafficTotals, format_count};

/// The whole page: header, the article's toy with its plan and traffic, footer.
#[component]
pub fn App() -> impl IntoView {
    provide_context(AppState::new(presets::toy(), Strategy::Intersection));

    view! {
        <div class="shell">
            <AppHeader/>
            <main class="main" data-testid="main">
                <section class="panel" aria-labelledby="change-title">
                    <ChangeSummary title_id="change-title"/>
                    <TrafficTotals/>
                    <PieceTable/>
                </section>
            </main>
            <AppFooter/>
        </div>
    }
}
