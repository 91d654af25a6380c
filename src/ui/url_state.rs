//! The URL is the state: every edit is written to the fragment (`#v1.…`), a link reopens it, and
//! back/forward step through edits. Encoding lives in `crate::share::fragment`; this file only talks to
//! `location` and `history`.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use super::cycle::{CycleState, SpeedupSource};
use super::inventory::InventoryState;
use super::tour::TourState;
use super::{AppState, Page};
use crate::core::models::MODEL_PRESETS;
use crate::core::plan::Strategy;
use crate::core::presets;
use crate::share::fragment::{
    InventoryChoice, MEASURED_IN_LINK, SharedMeasured, SharedState, ViewState, decode, encode, measured_digest,
};

thread_local! {
    /// Whether this app owns the page's URL and storage. Only the real page (`main.rs`) says so: an app
    /// mounted by a test, or one of several widgets on a page, must not read or rewrite the page's address.
    static OWNS_PAGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Called once by the web entry point before mounting: this app's state is the page's URL.
pub fn own_the_page() {
    OWNS_PAGE.with(|owns| owns.set(true));
}

/// See [`own_the_page`].
pub fn owns_the_page() -> bool {
    OWNS_PAGE.with(|owns| owns.get())
}

/// Where the last state is kept between visits.
const STORAGE_KEY: &str = "reshard-lens/state";

/// Quiet time after the last edit before a history entry is written (typing makes one entry, not twenty).
const SETTLE_MS: u32 = 400;

/// The state in the page's fragment, with the parts of it left out because they could not be read: `None`
/// when there is none, `Some(Err)` when it cannot be opened.
pub fn state_in_url() -> Option<Result<(SharedState, Vec<String>), String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let fragment = hash.strip_prefix('#').unwrap_or(&hash);
    if fragment.is_empty() {
        return None;
    }
    Some(crate::share::fragment::decode_with_notes(fragment).map_err(|e| e.to_string()))
}

/// The state autosaved by the last visit, if any (and readable).
pub fn saved_state() -> Option<SharedState> {
    let storage = web_sys::window()?.local_storage().ok()??;
    decode(&storage.get_item(STORAGE_KEY).ok()??).ok()
}

/// The shareable state of the whole app right now. `inventory` is the model inventory's state when the app
/// has one (read from the context by the caller: this may run outside any reactive owner, in a timer).
pub fn snapshot(state: AppState, cycle: CycleState, inventory: Option<InventoryState>, page: Page) -> SharedState {
    let view = state.view.get_untracked();
    SharedState {
        spec: state.input.get_untracked(),
        shown: state.checked.with_untracked(Result::is_err).then(|| state.valid_input.get_value()),
        cycle: Some(cycle.spec.get_untracked()),
        view: ViewState {
            page: match page {
                Page::Layout => "layout".into(),
                Page::Cycle => "cycle".into(),
                Page::Inventory => "inventory".into(),
            },
            strategy: state.strategy.get_untracked().name().into(),
            tensor: view.tensor,
            row_dim: view.row_dim,
            col_dim: view.col_dim,
            slice: view.slice,
            show_whole_shard: view.show_whole_shard,
            fault: state.fault.get_untracked().map(|f| f.name().to_string()).unwrap_or_default(),
            verified: state.verification.with_untracked(Option::is_some),
            speedup_from: match cycle.speedup_source.get_untracked() {
                SpeedupSource::Layout { from, to } => format!("{}>{}", from.name(), to.name()),
                SpeedupSource::Manual => String::new(),
            },
        },
        // Kept only when it differs from what the inventory opens on, so layout links stay short.
        inventory: inventory
            .map(|inventory| inventory.choice())
            .filter(|choice| *choice != InventoryChoice::of_preset(&MODEL_PRESETS[0])),
        measured: cycle.measured_text.with_untracked(|text| {
            (!text.is_empty()).then(|| {
                let startup = cycle.startup.get_untracked();
                let scale = cycle.spread_scale.get_untracked();
                let refit = cycle.measured_refit.get_untracked();
                if text.len() <= MEASURED_IN_LINK {
                    return SharedMeasured { text: Some(text.clone()), digest: None, startup, scale, refit };
                }
                let digest = measured_digest(text);
                keep_long_measured(&digest, text);
                SharedMeasured { text: None, digest: Some(digest), startup, scale, refit }
            })
        }),
    }
}

thread_local! {
    /// Measured texts too long for a link, by digest, as this tab wrote them into its history: undo and
    /// Back find them again. The last few only: they may be megabytes.
    static LONG_MEASURED: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many long measured texts a tab keeps for its history.
const LONG_MEASURED_KEPT: usize = 3;

fn keep_long_measured(digest: &str, text: &str) {
    LONG_MEASURED.with_borrow_mut(|kept| {
        if kept.iter().any(|(d, _)| d == digest) {
            return;
        }
        if kept.len() >= LONG_MEASURED_KEPT {
            kept.remove(0);
        }
        kept.push((digest.to_string(), text.to_string()));
    });
}

fn long_measured(digest: &str) -> Option<String> {
    LONG_MEASURED.with_borrow(|kept| kept.iter().find(|(d, _)| d == digest).map(|(_, text)| text.clone()))
}

/// Subscribes the calling reactive context to everything that is part of a link, so that a link or an
/// embed snippet computed with [`snapshot`] follows every edit.
pub fn track_shared(state: AppState, cycle: CycleState) {
    state.input.track();
    cycle.spec.track();
    state.strategy.track();
    state.view.track();
    state.fault.track();
    state.verification.track();
    cycle.measured_text.track();
    cycle.startup.track();
    cycle.spread_scale.track();
    cycle.measured_refit.track();
    cycle.speedup_source.track();
    if let Some(inventory) = use_context::<InventoryState>() {
        inventory.track();
    }
}

/// The draft generations a history step was shown in, one per set of fields that keep unread text: the
/// layout editors', the cycle's (its revision) and the inventory's. Restoring the step with them brings
/// back what was typed there and did not parse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Generations {
    layout: u64,
    cycle: u64,
    inventory: Option<u64>,
}

impl Generations {
    /// The generations in effect now.
    pub fn now(state: AppState, cycle: CycleState, inventory: Option<InventoryState>) -> Generations {
        Generations {
            layout: state.replaced.get_untracked(),
            cycle: cycle.revision.get_untracked(),
            inventory: inventory.map(|inventory| inventory.generation()),
        }
    }
}

/// Puts a shared state into the app (used on load and on back/forward). The inventory's choices come from
/// the context, which a browser event's handler (back/forward) runs without: see [`restore_entry`].
pub fn restore(shared: &SharedState, state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    restore_with(shared, state, cycle, page, use_context::<InventoryState>(), None);
}

/// Puts a history entry's state into the app, the inventory included: an entry without inventory choices
/// (a link leaves them out when they are the default) had the default ones. With the draft generations the
/// entry was shown in, when known, its fields show again what was typed there and did not parse.
pub fn restore_entry(
    shared: &SharedState,
    state: AppState,
    cycle: CycleState,
    page: RwSignal<Page>,
    inventory: Option<InventoryState>,
    shown_in: Option<Generations>,
) {
    let mut shared = shared.clone();
    shared.inventory = shared.inventory.or_else(|| Some(InventoryChoice::of_preset(&MODEL_PRESETS[0])));
    restore_with(&shared, state, cycle, page, inventory, shown_in);
}

fn restore_with(
    shared: &SharedState,
    state: AppState,
    cycle: CycleState,
    page: RwSignal<Page>,
    inventory: Option<InventoryState>,
    shown_in: Option<Generations>,
) {
    // What the pictures showed, first, when the spec is not valid: it stays under the spec's problems.
    if let Some(shown) = &shared.shown {
        state.input.set(shown.clone());
        state.reshard.with_untracked(|_| ());
    }
    state.restore_input(shared.spec.clone(), shown_in.map(|g| g.layout));
    // The k field's unread text, as the restored revision left it (none without a cycle).
    let mut k_redrawn = false;
    if let Some(spec) = &shared.cycle {
        cycle.spec.set(spec.clone());
        k_redrawn = cycle.reopen(shown_in.map(|g| g.cycle));
        // Where s came from, with s (a link lost it).
        let from_layout = shared.view.speedup_from.split_once('>').and_then(|(from, to)| {
            Some(SpeedupSource::Layout { from: Strategy::parse(from)?, to: Strategy::parse(to)? })
        });
        cycle.speedup_source.set(from_layout.unwrap_or(SpeedupSource::Manual));
    }
    if let Some(strategy) = Strategy::parse(&shared.view.strategy) {
        state.strategy.set(strategy);
    }
    state.fault.set(crate::core::verify::Fault::parse(&shared.view.fault));
    if shared.view.verified {
        super::verify::check_soon(state);
    }
    // The k field shows the restored k, not text typed before (like every field a restore redraws), or
    // the text the restored step left in it.
    if shared.cycle.is_none() && cycle.startup_unread.with_untracked(Option::is_some) {
        cycle.startup_unread.set(None);
        k_redrawn = true;
    }
    match &shared.measured {
        Some(measured) => {
            // Text too long for a link stayed out of it: this tab's own, found by its digest, or what is
            // here stays.
            let text = measured.text.clone().or_else(|| measured.digest.as_deref().and_then(long_measured));
            if let Some(text) = text
                && cycle.measured_text.with_untracked(|here| *here != text)
            {
                cycle.measured_text.set(text);
            }
            // Within the field's range: a link is typed by hand as often as made (review 40).
            cycle.startup.set(measured.startup.min(crate::core::cycle::MAX_STARTUP_CYCLES));
            if cycle.spread_scale.get_untracked() != measured.scale {
                cycle.spread_scale.set(measured.scale);
            }
            if cycle.measured_refit.with_untracked(|here| *here != measured.refit) {
                cycle.measured_refit.set(measured.refit.clone());
            }
        }
        None => {
            if !cycle.measured_text.with_untracked(String::is_empty) {
                cycle.measured_text.set(String::new());
            }
            if cycle.measured_refit.with_untracked(Option::is_some) {
                cycle.measured_refit.set(None);
            }
            if k_redrawn {
                // Redraws the field's text from k.
                cycle.startup.set(cycle.startup.get_untracked());
            }
        }
    }
    if let (Some(inventory), Some(choice)) = (inventory, &shared.inventory) {
        inventory.apply_in(choice, shown_in.and_then(|g| g.inventory));
    }
    state.view.update(|v| {
        v.tensor = shared.view.tensor;
        v.row_dim = shared.view.row_dim;
        v.col_dim = shared.view.col_dim;
        v.slice = shared.view.slice.clone();
        v.show_whole_shard = shared.view.show_whole_shard;
    });
    let restored = match shared.view.page.as_str() {
        "cycle" => Page::Cycle,
        "inventory" => Page::Inventory,
        _ => Page::Layout,
    };
    if page.get_untracked() == restored {
        // The same view: its fields are drawn again, with the step's drafts; the rest follows the state.
        state.restored.update(|n| *n += 1);
    } else {
        page.set(restored);
    }
}

/// The shown history entry's state: an index for the entries the app pushed, the opening state's
/// fragment for the entry the app opened on, nothing for one from before.
fn entry_state() -> JsValue {
    web_sys::window().and_then(|w| w.history().ok()).and_then(|h| h.state().ok()).unwrap_or(JsValue::NULL)
}

/// The index the shown history entry carries: 0 for the entry the app opened on (or one from before it),
/// one more for each entry pushed since (by an edit or a preset's address).
pub fn entry_index() -> u32 {
    entry_state().as_f64().map_or(0, |i| i as u32)
}

/// Where the highest index pushed is kept for the tab's life (a reload keeps its redo), with the history's
/// length then: a different length means the entries after it were replaced (by another site, say).
const TOP_KEY: &str = "reshard-lens/top";

fn history_length() -> u32 {
    web_sys::window().and_then(|w| w.history().ok()).and_then(|h| h.length().ok()).unwrap_or(0)
}

fn saved_top() -> Option<u32> {
    let storage = web_sys::window()?.session_storage().ok()??;
    let saved = storage.get_item(TOP_KEY).ok()??;
    let (top, length) = saved.split_once(',')?;
    let (top, length): (u32, u32) = (top.parse().ok()?, length.parse().ok()?);
    (length == history_length()).then_some(top)
}

/// The app's own stretch of the browser's history. Each entry it pushes carries its index as the entry's
/// state ([`entry_index`]), so undo never steps back out of the app (Ctrl+Z at the first state went Back
/// to the page before), and redo stops at the last entry the app pushed.
#[derive(Clone, Copy)]
struct Steps {
    state: AppState,
    cycle: CycleState,
    inventory: Option<InventoryState>,
    page: RwSignal<Page>,
    /// The index of the last entry the app wrote: forward from it would leave the app.
    top: StoredValue<u32>,
    /// The timer that writes the last edit once the quiet time after it has passed.
    pending: StoredValue<Option<gloo::timers::callback::Timeout>, LocalStorage>,
    /// Whether the last edit is not written yet.
    unwritten: StoredValue<bool>,
    /// The state the app opened on: what its first entry shows when that entry carries no state.
    initial: StoredValue<SharedState>,
    /// The entry being restored (its edits are not new entries).
    restoring: StoredValue<bool>,
    /// A step back or forward asked of the browser and not yet arrived: further keys wait for it.
    travelling: StoredValue<bool>,
    /// The draft generations each entry (by index) was last shown in, for this document's life: undo to an
    /// entry brings back the text typed there that did not parse.
    /// (A list, not a map: a few hundred entries at most, and a map's code costs more than its lookups.)
    shown_in: StoredValue<Vec<(u32, Generations)>>,
}

impl Steps {
    /// Writes the state now: autosaved, and a new history entry when it differs from the shown one.
    fn record(self) {
        self.unwritten.set_value(false);
        let fragment = encode(&snapshot(self.state, self.cycle, self.inventory, self.page.get_untracked()));
        // Never written where it could not be read back (the Share menu says so).
        if fragment.len() > crate::share::fragment::MAX_FRAGMENT_CHARS {
            return;
        }
        let Some(window) = web_sys::window() else { return };
        autosave(&fragment);
        let current = window.location().hash().unwrap_or_default();
        if current.trim_start_matches('#') != fragment
            && let Ok(history) = window.history()
        {
            let at = entry_index();
            // A preset's address just pushed (no fragment yet) takes the state itself: one undo step, not
            // two, and its `?preset=NAME` stays, as that is what it shows. The entry the app opened on is
            // kept as it is.
            let written = if current.is_empty() && at > 0 {
                let url = format!("#{fragment}");
                history.replace_state_with_url(&JsValue::from(at), "", Some(&url)).map(|()| at)
            } else {
                let url = entry_address(&fragment);
                let pushed = history.push_state_with_url(&JsValue::from(at + 1), "", Some(&url)).map(|()| at + 1);
                if pushed.is_ok() {
                    self.freeze_generations(at);
                }
                pushed
            };
            if let Ok(index) = written {
                self.set_top(index);
                self.remember_generations(index);
            }
        }
    }

    /// The entry at `index` is shown in the draft generations in effect now.
    fn remember_generations(self, index: u32) {
        self.shown_at(index, Generations::now(self.state, self.cycle, self.inventory));
    }

    /// The entry at `index` is to be shown again in `generations`' drafts.
    fn shown_at(self, index: u32, generations: Generations) {
        self.shown_in.update_value(|shown_in| match shown_in.iter_mut().find(|(at, _)| *at == index) {
            Some((_, shown)) => *shown = generations,
            None => shown_in.push((index, generations)),
        });
    }

    /// The entry at `index` was just left for a new one: its unread texts as they stand now, copied apart from
    /// the generations in effect, which the new entry goes on with (undo to `index` brought back text typed
    /// after it was left, review 46).
    /// Only the generations it shares with the new entry are copied: one replaced since (a preset) is no
    /// longer typed in, and holds what the entry showed (copying the preset's, empty, lost them).
    fn freeze_generations(self, index: u32) {
        let Some(shown) =
            self.shown_in.with_value(|shown_in| shown_in.iter().find(|(at, _)| *at == index).map(|g| g.1))
        else {
            return;
        };
        let live = Generations::now(self.state, self.cycle, self.inventory);
        let frozen = Generations {
            layout: if shown.layout == live.layout { self.state.drafts.frozen(live.layout) } else { shown.layout },
            cycle: if shown.cycle == live.cycle { self.cycle.frozen_revision() } else { shown.cycle },
            inventory: match (shown.inventory, self.inventory) {
                (Some(generation), Some(inventory)) if live.inventory == Some(generation) => {
                    Some(inventory.frozen_generation())
                }
                (shown, _) => shown,
            },
        };
        self.shown_at(index, frozen);
    }

    /// The entry at `index` was just written: the entries after it are gone.
    fn set_top(self, index: u32) {
        self.top.set_value(index);
        if let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.session_storage()) {
            let _ = storage.set_item(TOP_KEY, &format!("{index},{}", history_length()));
        }
    }

    /// Writes an edit still settling now, as its own entry.
    fn flush(self) {
        if self.unwritten.get_value() {
            self.pending.set_value(None);
            self.record();
        }
    }

    /// One entry back (`-1`) or forward (`1`) within the app's own entries. An edit still settling is
    /// written first, so that undo takes back that edit and nothing typed is lost.
    fn travel(self, delta: i32) {
        if self.travelling.get_value() {
            return;
        }
        self.flush();
        let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
        let at = entry_index();
        let allowed = if delta < 0 { at > 0 } else { at < self.top.get_value() };
        if allowed && history.go_with_delta(delta).is_ok() {
            self.travelling.set_value(true);
            // Should the browser never arrive (an entry of another document), the keys work again.
            let travelling = self.travelling;
            gloo::timers::callback::Timeout::new(1000, move || travelling.set_value(false)).forget();
        }
    }
}

/// Autosave: a reload without a link reopens the last state shown, `fragment`.
fn autosave(fragment: &str) {
    if let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.local_storage()) {
        let _ = storage.set_item(STORAGE_KEY, fragment);
    }
}

thread_local! {
    /// The page's history as the app keeps it, once [`sync_url`] runs (the preset bar pushes through it).
    static STEPS: std::cell::Cell<Option<Steps>> = const { std::cell::Cell::new(None) };
}

/// The query parameters that say how the page is shown, not what it shows: a preset's address keeps them.
/// (Presenting, a reload after a preset's button left Present: the address had lost `present=1`.)
/// (The tour's step, `tour`: a reload mid-tour came back to the state without the bar that explained it.)
const DISPLAY_PARAMETERS: [&str; 3] = ["present", "theme", "tour"];

/// Sets the display parameter `name` in the address's query to `value`, or removes it (`None`), keeping the
/// rest of the query, the fragment and the history entry (its state is the app's step index).
pub fn set_display_parameter(name: &str, value: Option<&str>) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let (Ok(search), Ok(path), Ok(hash), Ok(history)) =
        (location.search(), location.pathname(), location.hash(), window.history())
    else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else { return };
    if params.get(name).as_deref() == value {
        return;
    }
    match value {
        Some(value) => params.set(name, value),
        None => params.delete(name),
    }
    let query = query_text(&params);
    let query = if query.is_empty() { String::new() } else { format!("?{query}") };
    let state = history.state().unwrap_or(JsValue::NULL);
    let _ = history.replace_state_with_url(&state, "", Some(&format!("{path}{query}{hash}")));
}

/// Writes the edits just made, and those made within `after_ms`, as soon as they are taken in (after the
/// effects they set off), not after the quiet time: for a change whose address is written at once too. The
/// tour's step is in the address (`?tour=N`) as soon as it is shown, and a reload within the quiet time
/// resumed that step over the previous step's state, under a line saying the page showed something else
/// (review 49).
pub fn write_soon(after_ms: u32) {
    gloo::timers::callback::Timeout::new(after_ms, || {
        if let Some(steps) = STEPS.with(std::cell::Cell::get) {
            steps.flush();
        }
    })
    .forget();
}

/// Puts `address` (`?preset=NAME`) in the address bar as a new history entry, after writing an edit still
/// settling as its own entry (a quick edit just before a preset's button was merged into it), with the
/// current address's [`DISPLAY_PARAMETERS`]. The entry takes the state the address opens once it settles.
/// Without [`sync_url`] (a test, a widget) it only pushes the address.
pub fn push_address(address: &str) {
    let steps = STEPS.with(std::cell::Cell::get);
    if let Some(steps) = steps {
        steps.flush();
    }
    let Some(window) = web_sys::window() else { return };
    let Ok(history) = window.history() else { return };
    let address = with_display_parameters(address);
    let index = entry_index() + 1;
    if history.push_state_with_url(&JsValue::from(index), "", Some(&address)).is_ok()
        && let Some(steps) = steps
    {
        steps.set_top(index);
    }
}

/// The address of an entry showing `fragment`: this page's path, the current address's
/// [`DISPLAY_PARAMETERS`], and the fragment. The rest of the query is dropped: a `?preset=toy` left
/// beside the state of an edit named a preset the page no longer shows (the fragment won, but a reader
/// copying the address, or a reviewer reading it, was told the wrong thing).
fn entry_address(fragment: &str) -> String {
    let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
    let query = with_display_parameters("");
    let query = if query == "?" { "" } else { query.as_str() };
    format!("{path}{query}#{fragment}")
}

/// The query's text, a parameter without a value as it was typed (`?present`, not `?present=`).
fn query_text(params: &web_sys::UrlSearchParams) -> String {
    String::from(params.to_string()).split('&').map(|p| p.strip_suffix('=').unwrap_or(p)).collect::<Vec<_>>().join("&")
}

/// `address` (`?preset=NAME`) with the current address's [`DISPLAY_PARAMETERS`].
pub fn with_display_parameters(address: &str) -> String {
    let current = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok());
    match (current, web_sys::UrlSearchParams::new_with_str(address)) {
        (Some(current), Ok(params)) => {
            for name in DISPLAY_PARAMETERS {
                if let Some(value) = current.get(name) {
                    params.set(name, &value);
                }
            }
            format!("?{}", query_text(&params))
        }
        _ => address.to_string(),
    }
}

/// The state the app opened on in this tab, kept in its first history entry: what a reload of that entry
/// shows (not the autosave, which holds the last edit, undone since).
pub fn opening_state() -> Option<SharedState> {
    decode(&entry_state().as_string()?).ok()
}

/// Keeps the URL in step with the app: a settled edit pushes a history entry; back/forward restore it;
/// Ctrl+Z steps back and Ctrl+Shift+Z (or Ctrl+Y) forward through the app's own entries. Inside a text
/// field the browser's own text undo is left alone.
pub fn sync_url(state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    let inventory = use_context::<InventoryState>();
    let initial = snapshot(state, cycle, inventory, page.get_untracked());
    // A reload keeps the entry's index; a first visit keeps its opening state in its entry (its address
    // may say only `?view=layout`, which a reload would open on the autosaved state).
    let at = entry_index();
    if entry_state().is_null()
        && let Some(history) = web_sys::window().and_then(|w| w.history().ok())
    {
        let _ = history.replace_state(&JsValue::from_str(&encode(&initial)), "");
    }
    let tour = use_context::<TourState>();
    let steps = Steps {
        state,
        cycle,
        inventory,
        page,
        top: StoredValue::new(saved_top().unwrap_or(at).max(at)),
        pending: StoredValue::new_local(None),
        unwritten: StoredValue::new(false),
        initial: StoredValue::new(initial),
        restoring: StoredValue::new(false),
        travelling: StoredValue::new(false),
        shown_in: StoredValue::new(Vec::new()),
    };
    steps.remember_generations(at);
    STEPS.with(|cell| cell.set(Some(steps)));
    Effect::new(move |first: Option<()>| {
        track_shared(state, cycle);
        page.track();
        if first.is_none() || steps.restoring.get_value() {
            steps.restoring.set_value(false);
            return;
        }
        let timeout = gloo::timers::callback::Timeout::new(SETTLE_MS, move || steps.record());
        steps.pending.set_value(Some(timeout));
        steps.unwritten.set_value(true);
    });
    let on_pop = move |_: web_sys::PopStateEvent| {
        steps.travelling.set_value(false);
        // An edit still settling when the browser steps away is dropped, not written later over the entry
        // arrived at: on an address without a state it took that entry's place, and the app's redo was gone
        // (review 46). Ctrl+Z writes it first (`travel`); the browser's Back cannot wait for it.
        steps.pending.set_value(None);
        steps.unwritten.set_value(false);
        let focused = super::focus::focused();
        // What Back, Forward or undo shows is the state to reopen: the autosave had kept the entry left
        // (review 34), and a bare address reopened a state undone. Once it settles, as an edit's (a preset's
        // address opens it a moment later).
        gloo::timers::callback::Timeout::new(SETTLE_MS, move || {
            let fragment = encode(&snapshot(steps.state, steps.cycle, steps.inventory, steps.page.get_untracked()));
            if fragment.len() <= crate::share::fragment::MAX_FRAGMENT_CHARS {
                autosave(&fragment);
            }
        })
        .forget();
        let opening = entry_state().as_string().and_then(|fragment| decode(&fragment).ok());
        let shared = match (state_in_url(), opening) {
            (Some(Ok((shared, _))), _) => shared,
            (Some(Err(_)), _) => return,
            // The entry the app opened on keeps its state.
            (None, Some(shared)) => shared,
            // An address naming a preset opens it, in the layout view, which is no new edit either; else the
            // entry is the one the app opened on.
            (None, None) => match super::query_parameter("preset").and_then(|name| presets::find(&name)) {
                Some(preset) => {
                    steps.restoring.set_value(true);
                    super::editor::open_preset(state, preset);
                    if page.get_untracked() != Page::Layout {
                        page.set(Page::Layout);
                    }
                    return;
                }
                None => steps.initial.get_value(),
            },
        };
        steps.restoring.set_value(true);
        let at = entry_index();
        let shown_in =
            steps.shown_in.with_value(|shown_in| shown_in.iter().find(|(index, _)| *index == at).map(|(_, g)| *g));
        restore_entry(&shared, state, cycle, page, steps.inventory, shown_in);
        steps.remember_generations(at);
        super::focus::keep_focus(focused);
    };
    let pop = window_event_listener(leptos::ev::popstate, on_pop);
    let keys = window_event_listener(leptos::ev::keydown, move |event: web_sys::KeyboardEvent| {
        if !(event.ctrl_key() || event.meta_key()) {
            return;
        }
        // A field's own undo is the browser's; a checkbox, radio or slider has none (the browser undid the
        // last text typed elsewhere instead, into a state that never was, review 46).
        let in_text = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|e| match e.tag_name().as_str() {
                "TEXTAREA" => true,
                "INPUT" => !matches!(
                    e.get_attribute("type").unwrap_or_default().as_str(),
                    "checkbox" | "radio" | "range" | "button" | "submit" | "reset" | "color" | "file"
                ),
                _ => false,
            });
        if in_text {
            return;
        }
        let key = event.key().to_ascii_lowercase();
        let delta = match key.as_str() {
            "z" if !event.shift_key() => -1,
            "z" | "y" => 1,
            _ => return,
        };
        event.prevent_default();
        // The tour sets the state step by step; undoing under it would leave its text describing another.
        // Its bar says so: the key did nothing, and nothing said why.
        if let Some(tour) = tour.filter(|t| t.step.with_untracked(Option::is_some)) {
            // Both spellings written out: `str::to_lowercase` brought Unicode's case tables, 8 KB of the bundle.
            let (named, verb) = if delta < 0 { ("Undo", "undo") } else { ("Redo", "redo") };
            tour.note.set(Some(format!("{named} waits while the tour runs: leave it (Esc) to {verb}.")));
            return;
        }
        steps.travel(delta);
    });
    on_cleanup(move || {
        pop.remove();
        keys.remove();
    });
}
