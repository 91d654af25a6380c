//! The URL is the state: every edit is written to the fragment (`#v1.…`), a link reopens it, and
//! back/forward step through edits. Encoding lives in `crate::share::fragment`; this file only talks to
//! `location` and `history`.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use super::cycle::CycleState;
use super::{AppState, Page};
use crate::core::plan::Strategy;
use crate::share::fragment::{SharedState, ViewState, decode, encode};

/// Quiet time after the last edit before a history entry is written (typing makes one entry, not twenty).
const SETTLE_MS: u32 = 400;

/// The state in the page's fragment: `None` when there is none, `Some(Err)` when it cannot be opened.
pub fn state_in_url() -> Option<Result<SharedState, String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let fragment = hash.strip_prefix('#').unwrap_or(&hash);
    if fragment.is_empty() {
        return None;
    }
    Some(decode(fragment).map_err(|e| e.to_string()))
}

/// The shareable state of the whole app right now.
pub fn snapshot(state: AppState, cycle: CycleState, page: Page) -> SharedState {
    let view = state.view.get_untracked();
    SharedState {
        spec: state.input.get_untracked(),
        cycle: Some(cycle.spec.get_untracked()),
        view: ViewState {
            page: match page {
                Page::Layout => "layout".into(),
                Page::Cycle => "cycle".into(),
            },
            strategy: state.strategy.get_untracked().name().into(),
            tensor: view.tensor,
            row_dim: view.row_dim,
            col_dim: view.col_dim,
            slice: view.slice,
            show_whole_shard: view.show_whole_shard,
            fault: state.fault.get_untracked().map(|f| f.name().to_string()).unwrap_or_default(),
        },
    }
}

/// Puts a shared state into the app (used on load and on back/forward).
pub fn restore(shared: &SharedState, state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    state.input.set(shared.spec.clone());
    if let Some(spec) = &shared.cycle {
        cycle.spec.set(spec.clone());
        cycle.revision.update(|r| *r += 1);
    }
    if let Some(strategy) = Strategy::parse(&shared.view.strategy) {
        state.strategy.set(strategy);
    }
    state.fault.set(crate::core::verify::Fault::parse(&shared.view.fault));
    state.view.update(|v| {
        v.tensor = shared.view.tensor;
        v.row_dim = shared.view.row_dim;
        v.col_dim = shared.view.col_dim;
        v.slice = shared.view.slice.clone();
        v.show_whole_shard = shared.view.show_whole_shard;
    });
    page.set(if shared.view.page == "cycle" { Page::Cycle } else { Page::Layout });
}

/// Keeps the URL in step with the app: a settled edit pushes a history entry; back/forward restore it.
pub fn sync_url(state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    let restoring = StoredValue::new(false);
    let pending = StoredValue::new_local(None::<gloo::timers::callback::Timeout>);
    Effect::new(move |first: Option<()>| {
        // Track everything that is part of a link.
        state.input.track();
        cycle.spec.track();
        state.strategy.track();
        state.view.track();
        state.fault.track();
        page.track();
        if first.is_none() || restoring.get_value() {
            restoring.set_value(false);
            return;
        }
        let timeout = gloo::timers::callback::Timeout::new(SETTLE_MS, move || {
            let fragment = encode(&snapshot(state, cycle, page.get_untracked()));
            if let Some(window) = web_sys::window() {
                let current = window.location().hash().unwrap_or_default();
                if current.trim_start_matches('#') != fragment
                    && let Ok(history) = window.history()
                {
                    let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&format!("#{fragment}")));
                }
            }
        });
        pending.set_value(Some(timeout));
    });
    let on_pop = move |_: web_sys::PopStateEvent| {
        if let Some(Ok(shared)) = state_in_url() {
            restoring.set_value(true);
            restore(&shared, state, cycle, page);
        }
    };
    let handle = window_event_listener(leptos::ev::popstate, on_pop);
    on_cleanup(move || handle.remove());
}
