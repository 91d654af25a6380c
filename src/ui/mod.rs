//! The browser app (Leptos, client-side rendered): components that read the planning core's results.
//!
//! The state is one [`AppState`], provided at the top by [`App`]; components read it with
//! `expect_context`. Everything derived from it (the plan, the traffic, the comparison) is a `Memo`,
//! computed once per change. Each file (or folder) holds one visual concern: the editors, the tensor view,
//! the mesh view, the traffic panel, the strategy comparison, the correctness check.

mod after_paint;
mod announce;
mod change;
pub mod constraints;
pub mod cycle;
pub mod editor;
pub mod embed;
pub mod export;
mod fit;
mod focus;
mod footer;
mod header;
pub mod inventory;
pub(crate) mod keyed;
pub mod mesh_view;
pub mod panic;
pub mod partial_sums;
mod pieces;
pub mod present;
mod restored;
mod scroll_region;
mod share_bar;
mod state;
pub mod strategies;
pub mod tensor_view;
pub(crate) mod timing;
mod totals;
pub mod tour;
pub mod traffic;
pub mod url_state;
pub mod verify;
pub mod widgets;

use leptos::prelude::*;

pub use change::{ChangeSummary, describe_change, describe_placements};
pub use footer::AppFooter;
pub use header::AppHeader;
pub use pieces::{PieceTable, format_offset, format_shape};
pub(crate) use scroll_region::ScrollRegion;
pub use state::{AppState, Focus, Fresh, Regions, Side, StrategyRow, ViewChoice};
pub use totals::{TrafficTotals, format_count};

/// The query parameter `name` of the page's URL, if any.
pub fn query_parameter(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// A name the address gives (`?preset=`, `?model=`, `?view=`, `?theme=`) as the app writes its names: trimmed,
/// in lower case. `?model=LLAMA-3-8B` was no model.
pub fn name_parameter(name: &str) -> Option<String> {
    query_parameter(name).map(|value| value.trim().to_ascii_lowercase())
}

/// The id of the element holding the current view (the tabs' `aria-controls`).
const VIEW_PANEL: &str = "view-panel";

/// The app's views, which share one state and one URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The layout change: editors, tensor and mesh views, traffic, strategies, verification.
    Layout,
    /// The RL cycle calculator.
    Cycle,
    /// The layout inventory of a whole model.
    Inventory,
}

/// What the address names that does not exist (`?preset=`, `?model=`, `?view=`, `?theme=`), with the names
/// that do.
fn unknown_names_in_address() -> Option<String> {
    let unknown = |parameter: &str, known: Vec<&str>| {
        let name = query_parameter(parameter)?;
        (!known.contains(&name.trim().to_ascii_lowercase().as_str())).then(|| {
            let name = crate::core::spec::for_display(&name);
            format!(
                "There is no {parameter} named “{name}”; the {parameter}s are {}. Showing the default instead.",
                known.join(", ")
            )
        })
    };
    let presets =
        crate::core::presets::PRESETS.iter().map(|p| p.name).chain(cycle::CYCLE_PRESETS.iter().map(|(n, _, _)| *n));
    // Every name mistyped, not the first alone (`?view=nope&model=nope` said only the model).
    let unknown: Vec<String> = [
        unknown("preset", presets.collect()),
        unknown("model", crate::core::models::MODEL_PRESETS.iter().map(|m| m.name).collect()),
        unknown("view", vec!["layout", "cycle", "inventory"]),
        unknown("theme", THEMES.to_vec()),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!unknown.is_empty()).then(|| unknown.join(" "))
}

/// The themes `?theme=` may name; `auto` (as no parameter) follows the reader's `prefers-color-scheme`.
const THEMES: [&str; 3] = ["light", "dark", "auto"];

/// Forces the theme the address names (`?theme=dark`), for an embed in a documentation site whose own
/// theme is not the reader's system one, or a slide: `data-theme` on the root sets its `color-scheme`, which
/// every colour of the style sheets follows (`light-dark()`, main.css).
fn apply_theme_from_address() {
    let Some(theme) = name_parameter("theme").filter(|t| matches!(t.as_str(), "light" | "dark")) else { return };
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", &theme);
    }
}

/// The whole page: header, the view tabs (layout change, RL cycle, model inventory) with share, export and
/// open beside them, the current view, footer. `?embed=VIEW` shows one view alone (see `embed.rs`).
#[component]
pub fn App() -> impl IntoView {
    apply_theme_from_address();
    let preset = name_parameter("preset").unwrap_or_else(|| "toy".to_string());
    let cycle_preset = preset.starts_with("cycle-").then(|| preset.clone());
    let state = AppState::from_preset(if cycle_preset.is_some() { "toy" } else { &preset });
    let cycle_state = cycle::CycleState::from_preset(cycle_preset.as_deref().unwrap_or("cycle-120"));
    provide_context(state);
    provide_context(cycle_state);
    // Number fields' unread text, kept while their view is away (another tab).
    let drafts = state.drafts;
    drafts.follow_structure(state.input.into(), state.replaced.into());
    provide_context(drafts);
    let tour = tour::TourState::new();
    provide_context(tour);
    let tour_running = Memo::new(move |_| tour.step.with(Option::is_some));
    let presenting = present::Presenting::from_address();
    provide_context(presenting);
    provide_context(share_bar::ShareReport::new());
    provide_context(inventory::InventoryState::from_preset(name_parameter("model").as_deref().unwrap_or("llama-3-8b")));
    let page = RwSignal::new(match name_parameter("view").as_deref() {
        _ if cycle_preset.is_some() => Page::Cycle,
        Some("cycle") => Page::Cycle,
        Some("inventory") => Page::Inventory,
        _ => Page::Layout,
    });
    // `?embed=VIEW` shows one view for an iframe: it reads the link's state but never writes the page's
    // address or the autosave (an embed must not overwrite what the reader was doing in the app).
    let embed = query_parameter("embed");
    let owns_page = url_state::owns_the_page();
    let writes_page = owns_page && embed.is_none();
    // Whether the last visit's autosave was reopened in place of the toy (said on the page).
    let mut reopened_autosave = false;
    // A link's state wins over the preset; a link that cannot be opened says why over the default.
    let link_problem = match url_state::state_in_url().filter(|_| owns_page) {
        Some(Ok((shared, left_out))) => {
            url_state::restore(&shared, state, cycle_state, page);
            (!left_out.is_empty()).then(|| {
                format!(
                    "Part of this link could not be read and was left out: {}. The rest is shown.",
                    left_out.join("; ")
                )
            })
        }
        Some(Err(reason)) => Some(format!("This link could not be opened: {reason}. Showing the default instead.")),
        // Without a link, the last visit's state comes back, unless the address names what to open (a
        // preset, a view or a model): then that, as a bookmark of `?view=inventory` would expect.
        // A reload of the entry this tab opened on shows what it opened on (the autosave holds the last
        // edit, which may have been undone since).
        None => {
            if writes_page && let Some(opening) = url_state::opening_state() {
                url_state::restore(&opening, state, cycle_state, page);
            } else if writes_page
                && ["preset", "view", "model"].iter().all(|name| query_parameter(name).is_none())
                && let Some(saved) = url_state::saved_state()
            {
                // Said on the page when it differs from what the bare address opens (the toy).
                let state_now = || {
                    let inventory = use_context::<inventory::InventoryState>();
                    crate::share::fragment::encode(&url_state::snapshot(
                        state,
                        cycle_state,
                        inventory,
                        page.get_untracked(),
                    ))
                };
                let default = state_now();
                url_state::restore(&saved, state, cycle_state, page);
                reopened_autosave = state_now() != default;
            }
            None
        }
    };
    // A mistyped preset or model in the address says so instead of quietly showing the default.
    let link_problem = link_problem.or_else(unknown_names_in_address);
    if let Some(name) = embed {
        return view! { <embed::EmbedPage name link_problem/> }.into_any();
    }
    // `?tour=N` opens the tour at step N, over the state the address opened (the step sets its own).
    let tour_problem = tour.open_from_address();
    let link_problem = match (link_problem, tour_problem) {
        (Some(link), Some(tour)) => Some(format!("{link} {tour}")),
        (link, tour) => link.or(tour),
    };
    if tour.step.with_untracked(Option::is_some) {
        tour.note.set(link_problem.clone());
    }
    if writes_page {
        url_state::sync_url(state, cycle_state, page);
        tour::keep_in_address(tour);
    }
    // The window's title names the view: three tabs of the app all read "Reshard Lens".
    Effect::new(move |_| {
        let view = match page.get() {
            Page::Layout => "Layout change",
            Page::Cycle => "RL cycle",
            Page::Inventory => "Model inventory",
        };
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            document.set_title(&format!("{view} · Reshard Lens"));
        }
    });
    let tab = move |target: Page, label: &'static str, test_id: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                class="page-tab"
                id=test_id
                aria-controls=VIEW_PANEL
                data-testid=test_id
                aria-selected=move || (page.get() == target).to_string()
                // One Tab stop for the tabs (the selected one); the arrow keys move between them.
                tabindex=move || if page.get() == target { "0" } else { "-1" }
                on:click=move |_| page.set(target)
            >
                {label}
            </button>
        }
    };
    // The tab pattern's keys: ←/→ (wrapping), Home and End select a view and focus its tab.
    let tab_keys = move |ev: leptos::ev::KeyboardEvent| {
        const ORDER: [(Page, &str); 3] =
            [(Page::Layout, "tab-layout"), (Page::Cycle, "tab-cycle"), (Page::Inventory, "tab-inventory")];
        let at = ORDER.iter().position(|(p, _)| *p == page.get_untracked()).unwrap_or(0);
        let next = match ev.key().as_str() {
            "ArrowRight" => (at + 1) % ORDER.len(),
            "ArrowLeft" => (at + ORDER.len() - 1) % ORDER.len(),
            "Home" => 0,
            "End" => ORDER.len() - 1,
            _ => return,
        };
        ev.prevent_default();
        let (target, test_id) = ORDER[next];
        page.set(target);
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            focus::focus_test_id(&document, test_id);
        }
    };
    view! {
        <div class="shell" class:presenting=move || presenting.0.get() class:touring=move || tour_running.get()>
            {move || match page.get() {
                Page::Layout => Some(view! { <header::SkipToPictures/> }.into_any()),
                Page::Inventory => Some(view! { <header::SkipToResults/> }.into_any()),
                Page::Cycle => None,
            }}
            <AppHeader/>
            {link_problem.map(|message| view! { <restored::LinkProblemNote message/> })}
            {reopened_autosave.then(|| view! { <restored::RestoredNote/> })}
            <tour::LeftTourNote page/>
            // A landmark around the tabs and the actions (a tablist in a nav cancels the nav's).
            <nav class="page-bar" aria-label="Views and actions">
                <div class="page-tabs" role="tablist" aria-label="Views" on:keydown=tab_keys>
                    {tab(Page::Layout, "Layout change", "tab-layout")}
                    {tab(Page::Cycle, "RL cycle", "tab-cycle")}
                    {tab(Page::Inventory, "Model inventory", "tab-inventory")}
                </div>
                <div class="page-actions">
                    <tour::ExplainButton page/>
                    <present::PresentButton/>
                    <share_bar::ShareBar page/>
                </div>
            </nav>
            <share_bar::ShareReportLine/>
            // Mounted only while the tour runs: its steps are computed when it starts, not on every load.
            {move || tour_running.get().then(|| view! { <tour::TourBar page/> })}
            // The selected tab's panel (one element for all three, named by the selected tab).
            <div
                class="view-panel"
                role="tabpanel"
                id=VIEW_PANEL
                // Focusable from a script only: a view opened from inside another takes the focus here.
                tabindex="-1"
                aria-labelledby=move || match page.get() {
                    Page::Layout => "tab-layout",
                    Page::Cycle => "tab-cycle",
                    Page::Inventory => "tab-inventory",
                }
            >
                // A history step restored on the cycle or inventory view draws it anew (its fields are most
                // of it); the layout view draws only its editors anew (`LayoutPage`).
                {move || match page.get() {
                    Page::Layout => view! { <LayoutPage/> }.into_any(),
                    Page::Cycle => {
                        state.restored.track();
                        view! { <cycle::CycleView/> }.into_any()
                    }
                    Page::Inventory => {
                        state.restored.track();
                        view! { <inventory::InventoryView page/> }.into_any()
                    }
                }}
            </div>
            <AppFooter/>
        </div>
    }
    .into_any()
}

/// Over the results while the editors hold a problem: what the pictures show, and a way to the field.
/// A checkbox that shows and sets one flag (the Share menu's fitting script, the inventory's colocation and
/// sort order): the label around it is its caller's.
#[component]
pub fn FlagCheckbox(
    /// The flag it shows and sets.
    flag: RwSignal<bool>,
    /// Its `data-testid`.
    test_id: &'static str,
) -> impl IntoView {
    view! {
        <input
            type="checkbox"
            data-testid=test_id
            prop:checked=move || flag.get()
            on:change=move |ev| flag.set(event_target_checked(&ev))
        />
    }
}

#[component]
fn StaleBanner(count: RwSignal<usize>) -> impl IntoView {
    let text = move || match count.get() {
        1 => "Showing the last valid change: 1 problem in the editors.".to_string(),
        n => format!("Showing the last valid change: {n} problems in the editors."),
    };
    // The first field holding a problem, focused (which scrolls it into view). A slide hides the editors:
    // it is left first, and the field focused once they are drawn (the button only scrolled).
    let presenting = use_context::<present::Presenting>().map(|p| p.0);
    let go = move |_| {
        if let Some(on) = presenting.filter(|on| on.get_untracked()) {
            on.set(false);
        }
        focus::after_render(|document| {
            let field = document
                .query_selector(".editors [aria-invalid=true]")
                .ok()
                .flatten()
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            if let Some(field) = field {
                let _ = field.focus();
            }
        });
    };
    view! {
        // Not a live region: the editors' status line says the same to a screen reader already.
        <p class="stale-banner" data-testid="stale-banner">
            <span>{text}</span>
            <button type="button" class="link-button" data-testid="stale-go" on:click=go>
                {move || if presenting.is_some_and(|p| p.get()) { "Leave the slide and go to it" } else { "Go to it" }}
            </button>
        </p>
    }
}

/// The layout view: editors beside the pictures, the numbers below.
#[component]
fn LayoutPage() -> impl IntoView {
    let restored = expect_context::<AppState>().restored;
    let problems = editor::EditorProblems(RwSignal::new(0));
    provide_context(problems);
    let stale = move || problems.0.get() > 0;
    view! {
        <editor::PresetBar/>
        <main class="main workspace" data-testid="main">
                <aside class="editors sticky-column" aria-label="Describe the change">
                    <header::SeeTheChange/>
                    // Drawn anew when a history step is restored, with the unread text typed in that step.
                    {move || {
                        restored.track();
                        view! { <editor::Editors/> }
                    }}
                </aside>
                <div class="stage" class:is-stale=stale>
                    // Said over the results too, not only at the top of the editors: a reader looking at the
                    // pictures took the last valid change for the one typed.
                    {move || stale().then(|| view! { <StaleBanner count=problems.0/> })}
                    // Focused by the link above the editors only.
                    <section class="panel change-panel" id=header::CHANGE tabindex="-1" aria-labelledby="change-title">
                        <ChangeSummary title_id="change-title"/>
                        <TrafficTotals/>
                        <change::PlanLines/>
                    </section>
                    <section
                        class="panel pictures"
                        id=header::PICTURES
                        // Focused by the skip link only: Tab goes on from here to the first piece.
                        tabindex="-1"
                        aria-label="The tensor and the devices"
                    >
                        <tensor_view::TensorView/>
                        <mesh_view::MeshView/>
                    </section>
                    // Only while the viewed tensor's source is Partial.
                    <partial_sums::PartialSumsPanel/>
                    <section class="panel below-pictures" aria-label="Traffic">
                        <traffic::TrafficPanel/>
                    </section>
                    <section class="panel below-pictures" aria-label="Strategies">
                        <strategies::StrategyComparison/>
                    </section>
                    <section class="panel below-pictures" aria-label="Constraint check">
                        <constraints::ConstraintCheck/>
                    </section>
                    <section class="panel below-pictures" aria-label="Correctness check">
                        <verify::VerifyPanel/>
                    </section>
                    <section class="panel below-pictures" aria-label="Pieces">
                        <PieceTable/>
                    </section>
                </div>
        </main>
    }
}
