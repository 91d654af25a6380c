//! The Verify button and the fault-injection menu.

use leptos::prelude::*;

use super::run_check;
use crate::core::plan::Strategy;
use crate::core::verify::Fault;
use crate::ui::AppState;

/// What each fault does, in a few words, for the menu's note.
fn fault_note(fault: Option<Fault>) -> &'static str {
    match fault {
        None => "No fault injected: every piece is read as planned.",
        Some(Fault::Offset) => "One piece is read shifted by one along dim 0 (an off-by-one offset).",
        Some(Fault::Swap) => "One piece is read with dims 0 and 1 exchanged.",
        Some(Fault::Stale) => "One source device still holds the previous version.",
    }
}

/// The fault menu, the Verify button, and which plan is checked.
#[component]
pub fn VerifyControls() -> impl IntoView {
    let state = expect_context::<AppState>();
    let on_fault = move |ev: leptos::ev::Event| state.fault.set(Fault::parse(&event_target_value(&ev)));
    let selected = move || state.fault.get().map_or("none", Fault::name);
    let options = std::iter::once(("none", "none"))
        .chain(Fault::ALL.into_iter().map(|f| (f.name(), f.label())))
        .map(|(value, label)| view! { <option value=value selected=move || selected() == value>{label}</option> })
        .collect_view();
    let verify = move |_| {
        let strategy = state.strategy.get_untracked();
        let fault = state.fault.get_untracked();
        let result = state.reshard.with_untracked(|r| run_check(r, strategy, fault));
        state.verification.set(Some(result));
    };
    let plan_note = move || match state.strategy.get() {
        Strategy::Gather => {
            "Gather then broadcast is modelled for traffic only: choose intersection or whole shard to run the check."
                .to_string()
        }
        strategy => format!("Checks the “{}” plan.", strategy.label()),
    };

    view! {
        <div class="verify-controls">
            <label class="fault-menu">
                <span class="control-label">"Inject a fault"</span>
                <select data-testid="fault-select" prop:value=selected on:change=on_fault>
                    {options}
                </select>
            </label>
            <button type="button" class="primary-button" data-testid="verify-button" on:click=verify>
                "Verify"
            </button>
            <div class="verify-notes">
                <p class="verify-note" data-testid="fault-note">{move || fault_note(state.fault.get())}</p>
                <p class="verify-note" data-testid="verify-plan">{plan_note}</p>
            </div>
        </div>
    }
}
