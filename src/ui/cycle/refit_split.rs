//! The refit split: waiting before the transfer, the transfer itself, and the receivers' preparation.
//! Only the transfer gets faster with a better transport, so the split decides what a speedup can save.

use leptos::prelude::*;

use super::CycleState;
use super::field::{FieldProblems, NumberField, SECONDS, described_by};
use crate::chart::readout::seconds;
use crate::core::cycle::RefitSplit;

/// The path of the problems of the refit's parts together (they must add up to the refit stage).
const REFIT: &str = "refit";

/// Three fields; transfer left empty means "the rest of the refit stage".
#[component]
pub fn RefitSplitEditor() -> impl IntoView {
    let state = expect_context::<CycleState>();
    let edit = move |change: Box<dyn Fn(&mut RefitSplit)>| {
        state.spec.update(|spec| change(spec.refit.get_or_insert_with(RefitSplit::default)))
    };
    // A part is marked when its own number is wrong or the parts do not add up to the refit (the message
    // under the three, path `refit`, is about each of them).
    let invalid = move |path: &'static str| {
        Signal::derive(move || !state.problems_at(path).is_empty() || !state.problems_at(REFIT).is_empty())
    };
    let refit_seconds =
        move || state.spec.with(|spec| spec.refit_index().and_then(|i| spec.stages.get(i)).map(|s| s.seconds));
    let fields = move || {
        state.revision.track();
        let split = state.spec.with_untracked(|spec| spec.refit.clone().unwrap_or_default());
        let transfer_text = state
            .unread_text("refit.transfer")
            .unwrap_or_else(|| split.transfer.map(|t| crate::chart::readout::decimal(t, 6)).unwrap_or_default());
        view! {
            <label class="split-field">
                <span class="split-label">"Wait before transfer"</span>
                <NumberField
                    value=split.wait
                    label="Refit wait before transfer, seconds".to_string()
                    test_id="refit-wait".to_string()
                    invalid=invalid("refit.wait")
                    path="refit.wait".to_string()
                    group=REFIT
                    on_change=Callback::new(move |v| edit(Box::new(move |split| split.wait = v)))
                />
                <FieldProblems path="refit.wait".to_string()/>
            </label>
            <label class="split-field">
                <span class="split-label">"Transfer"</span>
                <input
                    type="text"
                    inputmode="decimal"
                    class="cycle-number"
                    prop:value=transfer_text
                    placeholder=move || {
                        let rest = state.spec.with(|spec| spec.refit_parts().map(|p| p.transfer));
                        // Short: "the rest: 10 s" was cut to "the rest: 10" in a phone's third of a row.
                        rest.map_or_else(|| "the rest".to_string(), |t| format!("rest: {}", seconds(t)))
                    }
                    aria-label="Refit transfer, seconds (empty: the rest of the refit)"
                    aria-invalid=move || invalid("refit.transfer").get().to_string()
                    aria-describedby=described_by("refit.transfer", Some(REFIT))
                    data-testid="refit-transfer"
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        if text.trim().is_empty() {
                            state.set_unread("refit.transfer", None);
                            edit(Box::new(|split| split.transfer = None));
                        } else {
                            state.read_field("refit.transfer", &text, SECONDS, |transfer| {
                                edit(Box::new(move |split| split.transfer = Some(transfer)))
                            });
                        }
                    }
                />
                <FieldProblems path="refit.transfer".to_string()/>
            </label>
            <label class="split-field">
                <span class="split-label">"Receiver preparation"</span>
                <NumberField
                    value=split.preparation
                    label="Refit receiver preparation, seconds".to_string()
                    test_id="refit-preparation".to_string()
                    invalid=invalid("refit.preparation")
                    path="refit.preparation".to_string()
                    group=REFIT
                    on_change=Callback::new(move |v| edit(Box::new(move |split| split.preparation = v)))
                />
                <FieldProblems path="refit.preparation".to_string()/>
            </label>
        }
    };
    view! {
        <fieldset class="cycle-fieldset" data-testid="refit-split">
            <legend class="cycle-legend">"Inside the refit"</legend>
            <p class="cycle-hint muted">
                {move || match refit_seconds() {
                    Some(total) => format!(
                        "The refit stage lasts {}. A faster transport shrinks only the transfer.",
                        seconds(total)
                    ),
                    None => "Mark one stage as the refit.".to_string(),
                }}
            </p>
            <div class="split-fields">{fields}</div>
            <FieldProblems path=REFIT.to_string()/>
        </fieldset>
    }
}
