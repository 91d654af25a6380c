//! The modelled transfer time: the formula with its numbers, and the link that bounds it. Labelled as a model
//! and a lower bound everywhere it appears, because it ignores contention, protocol overhead and overlap.

use leptos::prelude::*;

use super::{from_summary, link_name};
use crate::chart::readout::units_kept;
use crate::chart::scale::group_thousands;
use crate::core::traffic::{format_seconds, trim_float};
use crate::ui::AppState;

/// The estimated transfer time of the current plan.
#[component]
pub fn TransferEstimate() -> impl IntoView {
    let state = expect_context::<AppState>();
    let estimate = from_summary(state, |s| s.traffic.estimate());

    let seconds = move || estimate.with(|e| e.as_ref().map(|e| format_seconds(e.seconds)));
    let bandwidth_term = move || {
        estimate.with(|e| {
            let e = e.as_ref()?;
            // Bandwidth and latency come with the estimate (the settled plan's topology): an edit never shows
            // a new bandwidth beside an old load.
            Some(match e.bounding_link {
                // Exact bytes: a rounded "16 MiB ÷ 50 GB/s" did not come to the time beside it.
                Some(link) => format!("{} B ÷ {} GB/s", group_thousands(link.bytes), trim_float(e.bandwidth_gbps, 4)),
                None => "no link is used".to_string(),
            })
        })
    };
    let latency_term = move || {
        estimate.with(|e| e.as_ref().map(|e| format!("{} µs × {}", trim_float(e.latency_us, 4), e.max_messages)))
    };
    let terms = move || {
        estimate.with(|e| {
            e.as_ref()
                .map(|e| format!("{} + {}", format_seconds(e.bandwidth_seconds), format_seconds(e.latency_seconds)))
        })
    };
    let bound = move || {
        estimate.with(|e| {
            e.as_ref().map(|e| match e.bounding_link {
                // When latency is most of the estimate, the slowest link is not what to fix: say so first. "Slowest",
                // not "busiest": with a fast NIC the link that takes longest may carry fewer bytes.
                Some(link) if e.latency_seconds > e.bandwidth_seconds => format!(
                    "Mostly message latency ({} of {}): {} at one device cost more than carrying the bytes. \
                     The link slowest to carry its load, {}, needs {}.",
                    format_seconds(e.latency_seconds),
                    format_seconds(e.seconds),
                    crate::core::traffic::messages_text(e.max_messages),
                    link_name(&link),
                    format_seconds(link.seconds)
                ),
                Some(link) => format!(
                    "Bounded by {}: it takes longest to carry its load ({}).",
                    link_name(&link),
                    format_seconds(link.seconds)
                ),
                None => "No byte crosses a link: only the message latency counts.".to_string(),
            })
        })
    };

    view! {
        <section class="estimate" data-testid="estimate" aria-labelledby="estimate-title">
            <div class="estimate-head">
                <h3 class="analysis-subtitle" id="estimate-title">"Estimated transfer time"</h3>
                <span class="badge badge-model" title="A model, not a measurement">"model · lower bound"</span>
            </div>
            <p class="estimate-value" data-testid="estimate-seconds">{seconds}</p>
            <div class="estimate-formula" data-testid="estimate-formula">
                <p>
                    <span class="formula-eq">"="</span>
                    " max over links (load ÷ bandwidth) + latency × most messages one device sends or receives"
                </p>
                <p>
                    <span class="formula-eq">"="</span> " " <span class="mono">{bandwidth_term}</span> " + "
                    <span class="mono">{latency_term}</span>
                </p>
                <p>
                    <span class="formula-eq">"="</span> " " <span class="mono">{terms}</span>
                </p>
            </div>
            <p class="estimate-bound" data-testid="bounding-link">{move || bound().map(|bound| units_kept(&bound))}</p>
            <p class="estimate-caveat">
                "A lower bound: real transfers also pay for contention, protocol overhead and imperfect overlap. "
                "Like a link, a device's sending and receiving are counted apart: they overlap, each way at once."
            </p>
        </section>
    }
}
