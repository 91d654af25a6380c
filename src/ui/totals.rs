//! The three traffic quantities that must never be confused, each with its own label.

use leptos::prelude::*;

use super::AppState;
use crate::core::traffic::format_bytes;
pub use crate::core::traffic::format_count;

/// Unique logical entries, bytes received by devices, and the largest load of one link.
#[component]
pub fn TrafficTotals() -> impl IntoView {
    let state = expect_context::<AppState>();
    // One tensor's bytes are its received entries times one dtype: said beside the bytes, so that a
    // reader comparing with entries (the article's toy: 72 entries, 144 B of bf16) sees where 144 comes from.
    let wire = Memo::new(move |_| {
        state.reshard.with(|r| match r.tensors.as_slice() {
            [tensor] => Some(r.wire_dtype(tensor)),
            _ => None,
        })
    });
    let bytes_note = move |bytes: u64| match wire.get() {
        Some(dtype) if bytes > 0 => format!(
            "= {} entries × {} B ({}), same-device copies excluded",
            format_count(bytes / dtype.bytes()),
            dtype.bytes(),
            dtype.name()
        ),
        _ => "summed over destinations, same-device copies excluded".to_string(),
    };

    move || match state.totals.get() {
        Ok(totals) => view! {
            <dl class="totals" data-testid="totals">
                <Total
                    test_id="total-unique-entries"
                    label="Unique logical entries"
                    value=format_count(totals.unique_entries)
                    note="entries of the logical tensor, each counted once"
                />
                <Total
                    test_id="total-bytes-received"
                    label="Bytes received by devices"
                    value=format_bytes(totals.bytes_received)
                    note=bytes_note(totals.bytes_received)
                />
                <Total
                    test_id="total-max-link-bytes"
                    label="Largest bytes crossing one link"
                    value=format_bytes(totals.max_link_bytes)
                    note="the busiest single link, one direction"
                />
            </dl>
        }
        .into_any(),
        Err(message) => view! { <p class="problem" role="alert" data-testid="totals-error">{message}</p> }.into_any(),
    }
}

/// One labelled figure of [`TrafficTotals`].
#[component]
fn Total(
    /// The `data-testid` of the figure's container.
    test_id: &'static str,
    /// What is counted, in words.
    label: &'static str,
    /// The formatted number.
    value: String,
    /// How it is counted, in a few words.
    #[prop(into)]
    note: String,
) -> impl IntoView {
    view! {
        <div class="total" data-testid=test_id>
            <dt class="total-label">{label}</dt>
            <dd class="total-value">{value}</dd>
            <dd class="total-note">{note}</dd>
        </div>
    }
}
