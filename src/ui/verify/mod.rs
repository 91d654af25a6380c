//! The correctness check: a Verify button that executes the current plan on buffers whose every entry is
//! made from its coordinates and a version, a menu that injects a deliberate fault, and the outcome (all
//! entries match, or the first mismatches). The result goes to `state.verification`, where the tensor view
//! reads it to paint mismatching cells.

mod controls;
mod outcome;

use leptos::prelude::*;

use super::AppState;
use crate::core::model::Reshard;
use crate::core::plan::Strategy;
use crate::core::verify::{Fault, Verification, VerifyOptions, plan_and_verify};

/// Runs the check of `strategy`'s plan for `reshard`, with `fault` injected. The core refuses
/// gather-then-broadcast (modelled for traffic only) and changes too large to hold in memory, both before
/// any planning.
pub fn run_check(reshard: &Reshard, strategy: Strategy, fault: Option<Fault>) -> Result<Verification, String> {
    plan_and_verify(reshard, strategy, VerifyOptions { fault, ..VerifyOptions::default() }).map_err(|e| e.to_string())
}

/// How long [`check_soon`] waits.
pub const CHECK_SOON_MS: u32 = 60;

/// Runs the check of the plan and fault on screen once an edit just made has reached them (the edit's own
/// effects clear a stale result first): for a tour step and a link that show a check.
pub fn check_soon(state: AppState) {
    gloo::timers::callback::Timeout::new(CHECK_SOON_MS, move || {
        let (strategy, fault) = (state.strategy.get_untracked(), state.fault.get_untracked());
        let result = state.reshard.with_untracked(|r| run_check(r, strategy, fault));
        state.verification.set(Some(result));
    })
    .forget();
}

/// The correctness check panel.
#[component]
pub fn VerifyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    // A result describes one plan and one fault: choosing another makes it stale, so it goes (the state
    // already clears it when the change is edited).
    Effect::new(move |previous: Option<(Strategy, Option<Fault>)>| {
        let now = (state.strategy.get(), state.fault.get());
        if previous.is_some_and(|p| p != now) {
            state.verification.set(None);
        }
        now
    });

    view! {
        <div class="verify-panel analysis" data-testid="verify-panel">
            <header class="analysis-head">
                <h2 class="analysis-title">"Check correctness"</h2>
                <p class="analysis-lede">
                    // The version named: a reader asked where the verdict's "version 7" came from.
                    {format!(
                        "Runs the plan on buffers in memory that hold an id per entry, not its dtype's bits: entry x \
                         (its row-major index) of version v holds x × 1000 + v, so that every entry and version is \
                         told apart. The sources hold version {}, the update being sent. Every destination entry is \
                         then compared with what its region requires; when the dtypes differ, also by its value \
                         after the declared conversion.",
                        crate::core::verify::VerifyOptions::default().version
                    )}
                </p>
            </header>
            <controls::VerifyControls/>
            <crate::ui::announce::Announcer text=outcome::spoken_verdict(state) test_id="verify-announce"/>
            <outcome::VerifyOutcome/>
        </div>
    }
}
