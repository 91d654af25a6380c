//! The traffic panel: what the current plan costs, with the three quantities kept apart (unique logical
//! entries, bytes received by devices, bytes crossing one link), the per-link table, the source ×
//! destination heatmap, per-device bars, and the modelled transfer time.
//!
//! Every sub-view reads one small `Memo` derived from the plan summary, so a change re-plans once and each
//! picture redraws from its own bounded slice of the result (top links, busiest devices, a ≤ 48 × 48 matrix).

mod device_bars;
mod estimate;
mod heatmap;
mod link_table;
pub use link_table::LinkClassKey;
mod quantities;

use leptos::prelude::*;

use super::AppState;
use crate::core::traffic::{LinkLoad, PlanSummary};

/// The traffic of the current strategy's plan.
#[component]
pub fn TrafficPanel() -> impl IntoView {
    view! {
        <div class="traffic-panel analysis" data-testid="traffic-panel">
            <TrafficHead/>
            <quantities::Quantities/>
            <estimate::TransferEstimate/>
            <div class="traffic-grid">
                <link_table::LinkTable/>
                <heatmap::PairHeatmap/>
            </div>
            <device_bars::DeviceBars/>
        </div>
    }
}

/// The panel's totals alone: the three quantities and the estimated time (the `totals` embed, for a docs
/// page's column, where the whole panel, its per-device table above all, ran to thousands of pixels).
#[component]
pub fn TrafficTotals() -> impl IntoView {
    view! {
        <div class="traffic-panel analysis" data-testid="traffic-totals">
            <TrafficHead/>
            <quantities::Quantities/>
            <estimate::TransferEstimate/>
        </div>
    }
}

/// The panel's title, the plan it counts, and why it counts nothing when planning failed.
#[component]
fn TrafficHead() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The strategy of the plan the panel shows (it follows an edit one paint later).
    let strategy = move || state.settled.with(|s| (**s).as_ref().ok().map(|s| s.strategy.label()));
    let error = move || {
        state.settled.with(|s| (**s).as_ref().err().cloned()).map(|message| {
            view! { <p class="problem" role="alert" data-testid="traffic-error">{message}</p> }
        })
    };
    view! {
        <header class="analysis-head">
            <h2 class="analysis-title" id="traffic-title">"Count the traffic"</h2>
            <p class="analysis-lede">
                "Plan shown: " <strong data-testid="traffic-strategy">{strategy}</strong>
                ". Its traffic, counted three ways that are easy to confuse."
            </p>
        </header>
        {error}
    }
}

/// A value read from the current plan summary (one paint after an edit: `AppState::settled`), recomputed
/// only when the plan changes (`None` while the plan failed).
fn from_summary<T>(state: AppState, read: impl Fn(&PlanSummary) -> T + Send + Sync + 'static) -> Memo<Option<T>>
where
    T: PartialEq + Clone + Send + Sync + 'static,
{
    Memo::new(move |_| state.settled.with(|s| (**s).as_ref().ok().map(&read)))
}

/// A link as people say it: `nvlink_in of d3`.
pub(super) fn link_name(link: &LinkLoad) -> String {
    format!("{} of d{}", link.link.name(), link.device)
}
