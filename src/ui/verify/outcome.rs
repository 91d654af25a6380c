//! The outcome of the last check: the one-line verdict, the injected fault, and the first mismatches.

use leptos::prelude::*;

use crate::chart::scale::group_thousands;
use crate::core::placement::Placement;
use crate::core::verify::{Mismatch, Verification};
use crate::ui::{AppState, format_offset};

/// Mismatches listed (all are counted).
const LISTED: usize = 12;

/// The last check's outcome, or a hint when there is none.
#[component]
pub fn VerifyOutcome() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tensor_names = Memo::new(move |_| {
        state
            .reshard
            .with(|r| (r.tensors.len() > 1).then(|| r.tensors.iter().map(|t| t.name.clone()).collect::<Vec<_>>()))
    });
    move || {
        match state.verification.get() {
        None => view! {
            <p class="verify-idle" data-testid="verify-idle">"Not checked yet: press Verify."</p>
        }
        .into_any(),
        Some(Err(message)) => view! {
            <p class="problem verify-refused" role="alert" data-testid="verify-error">{crate::chart::readout::sentence_case(&message)}</p>
        }
        .into_any(),
        Some(Ok(verification)) => view! { <Verdict verification=verification tensor_names=tensor_names/> }.into_any(),
    }
    }
}

/// What the panel's live region says of the last check: its one-line verdict (a refusal is an alert of
/// its own).
pub fn spoken_verdict(state: AppState) -> Signal<String> {
    Signal::derive(move || {
        state.verification.with(|v| match v {
            None => String::new(),
            Some(Ok(verification)) => verification.summary(),
            Some(Err(_)) => String::new(),
        })
    })
}

/// A finished check.
#[component]
fn Verdict(
    /// The check's result.
    verification: Verification,
    /// Tensor names when the change has several tensors (a column of the mismatch list), else `None`.
    tensor_names: Memo<Option<Vec<String>>>,
) -> impl IntoView {
    let passed = verification.passed();
    let summary = verification.summary();
    // A change that converts dtypes: what comparing converted values alone would have said.
    let values = verification.value_summary();
    let fault =
        verification.fault.as_ref().map(|f| format!("Injected fault ({}): {}.", f.fault.label(), f.description));
    // A Partial source's entries are sums of shares: a wrong sum cannot be read as an entry and version.
    let partial = expect_context::<AppState>()
        .reshard
        .with_untracked(|r| r.tensors.iter().any(|t| t.source.placements.contains(&Placement::Partial)));
    let caption = if partial {
        "Expected is x × 1000 + v for entry x at version v, the sum of every contributor's share; each share \
         depends on the version, so a stale, missing or misplaced share makes the sum another number altogether."
    } else {
        "Expected is x × 1000 + v for entry x at version v: a found value ending in another version is stale; \
         another entry means a misplaced read."
    };
    let listed = verification.mismatches.len().min(LISTED);
    let more = verification.mismatch_count.saturating_sub(listed as u64);
    let mismatches: Vec<Mismatch> = verification.mismatches.into_iter().take(LISTED).collect();
    let show_tensor = move || tensor_names.with(Option::is_some);
    let tensor_name = move |index: usize| {
        tensor_names.with(|names| names.as_ref().and_then(|n| n.get(index).cloned()).unwrap_or_default())
    };

    view! {
        // Said by the panel's announcer (`spoken_verdict`), which is there before the verdict arrives.
        <div class="verdict" class:verdict-pass=passed class:verdict-fail=!passed data-testid="verify-result">
            <p class="verdict-line" data-testid="verify-summary">
                <span class="verdict-mark" aria-hidden="true">{if passed { "✓" } else { "✗" }}</span>
                {summary}
            </p>
            {fault.map(|text| view! { <p class="verdict-fault" data-testid="verify-fault">{text}</p> })}
            {values.map(|text| view! { <p class="verdict-values" data-testid="verify-values">{text}</p> })}
        </div>
        {(!mismatches.is_empty()).then(move || view! {
            <h3 class="analysis-subtitle" id="mismatches-title">"First mismatches"</h3>
            <div class="table-scroll">
                // On a phone, cards (inventory.css): as a table its "found" column stood behind a sideways scroll.
                <table class="mismatch-table cards-on-phone" data-testid="mismatch-list" aria-labelledby="mismatches-title">
                    <thead>
                        <tr>
                            <th scope="col">"Device"</th>
                            <Show when=show_tensor><th scope="col">"Tensor"</th></Show>
                            <th scope="col">"Coordinate"</th>
                            <th scope="col" class="num">"Expected"</th>
                            <th scope="col" class="num">"Found"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {mismatches
                            .into_iter()
                            .map(|m| {
                                let tensor = m.tensor;
                                view! {
                                    <tr data-testid="mismatch-row">
                                        <td data-label="Device">"d" {m.device}</td>
                                        <Show when=show_tensor><td class="mono" data-label="Tensor">{move || tensor_name(tensor)}</td></Show>
                                        <td class="mono" data-label="Coordinate">{format_offset(&m.coord)}</td>
                                        <td class="num mono" data-label="Expected">{m.expected}</td>
                                        <td class="num found" data-label="Found">
                                            // A value in the figures' font; "nothing arrived" in words.
                                            <span class=if m.found.is_some() && !m.read_outside_sender { "mono" } else { "found-words" }>
                                                {m.found_text()}
                                            </span>
                                            {m.found_reading().map(|reading| view! {
                                                <span class="found-reading">{reading}</span>
                                            })}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            {(more > 0).then(|| view! {
                <p class="analysis-caption" data-testid="mismatch-more">
                    {format!("and {} more mismatching entries", group_thousands(more))}
                </p>
            })}
            <p class="analysis-caption" data-testid="mismatch-note">{caption}</p>
        })}
    }
}
