//! The named presets as real links (`?preset=NAME`, stable for tests, docs and reviews) that also open in
//! place, with the current one marked.

use leptos::prelude::*;

use crate::core::model::Reshard;
use crate::core::presets::{PRESETS, Preset, build, find};
use crate::core::spec::parse_input;
use crate::ui::{AppState, query_parameter, url_state};

/// The preset the page's URL names, if it is a layout preset.
fn preset_in_url() -> Option<&'static Preset> {
    query_parameter("preset").and_then(|name| find(&name))
}

/// Opens `preset` in place: the spec becomes the preset's (the core re-plans).
fn open(state: AppState, preset: &Preset) {
    if let Ok(input) = parse_input(preset.spec) {
        state.replace_input(input);
    }
}

/// The named presets, as links that open `?preset=NAME` (in place when clicked).
#[component]
pub fn PresetBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Presets are fixed text; build each once to recognise the current change.
    let built: Vec<(&'static str, Reshard)> = PRESETS.iter().map(|p| (p.name, build(p))).collect();
    let current = Memo::new(move |_| {
        state.checked.with(|checked| {
            checked.as_ref().ok().and_then(|r| built.iter().find(|(_, b)| b == r).map(|(name, _)| *name))
        })
    });
    // Back and forward in the browser reopen the preset the URL names.
    // A URL that carries a whole state (`#v1.…`) is restored by `url_state` instead.
    let listener = window_event_listener_untyped("popstate", move |_| {
        let carries_state = web_sys::window().and_then(|w| w.location().hash().ok()).is_some_and(|h| h.len() > 1);
        if carries_state {
            return;
        }
        if let Some(preset) = preset_in_url() {
            open(state, preset);
        }
    });
    on_cleanup(move || listener.remove());

    view! {
        <nav class="preset-bar" aria-label="Presets" data-testid="preset-bar">
            <span class="preset-bar-label" aria-hidden="true">"Presets"</span>
            <ul class="preset-list">
                {PRESETS
                    .iter()
                    .map(|preset| {
                        let name = preset.name;
                        let is_current = move || current.get() == Some(name);
                        view! {
                            <li>
                                <a
                                    class="preset-link"
                                    class:preset-current=is_current
                                    href=format!("?preset={name}")
                                    title=preset.title
                                    aria-current=move || is_current().then_some("true")
                                    data-testid=format!("preset-{name}")
                                    on:click=move |ev| {
                                        // A modified click opens a new tab as any link would.
                                        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
                                            return;
                                        }
                                        ev.prevent_default();
                                        if let Some(preset) = find(name) {
                                            // The address first: an edit still settling is written before it.
                                            url_state::push_address(&format!("?preset={name}"));
                                            open(state, preset);
                                        }
                                    }
                                >
                                    {name}
                                </a>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <p class="preset-title" data-testid="preset-title">
                {move || current.get().and_then(find).map_or("Edited: not a preset", |p| p.title)}
            </p>
        </nav>
    }
}
