//! The guided tour ("Explain"): a bar above the views that walks through the article step by step. Each
//! step sets the app's state (a preset, a fault, a cycle), runs the check when it talks about it, and
//! outlines what to look at; the text and its numbers come from `crate::explain`, computed by the core from
//! the same state. Next/Back buttons, the arrow keys or Page Down/Up (a clicker); Escape or "Leave" ends the
//! tour and keeps the state, "Leave and bring back what I had" restores what the app showed before the tour.
//! The dots jump to a step, and the address names the step on screen (`?tour=N`): a lecture's slide can be
//! linked or bookmarked, and a reload comes back to it. Back and Forward leave the tour.

use std::sync::atomic::{AtomicU32, Ordering};

use leptos::prelude::*;

use super::cycle::CycleState;
use super::focus::{after_render, escape_belongs_to_field, focus_test_id, typed_in_field};
use super::inventory::InventoryState;
use super::url_state::{Generations, restore_entry, snapshot};
use super::{AppState, Page};
use crate::core::plan::Strategy;
use crate::core::presets::find;
use crate::core::spec::parse_input;
use crate::explain::{Step, TourView, steps};
use crate::share::fragment::SharedState;

/// Which step is open; `None` when the tour is not running.
#[derive(Clone, Copy)]
pub struct TourState {
    pub step: RwSignal<Option<usize>>,
    /// What the app showed when the tour started, with its fields' draft generations: the steps replace it
    /// with their examples, and leaving can bring it back, text that did not parse included.
    before: StoredValue<Option<(SharedState, Generations)>>,
    /// What was wrong with the address that opened the tour, said in its bar until the step changes: the
    /// step scrolls the page to what it outlines, and the note at the top of the page went out of sight.
    pub note: RwSignal<Option<String>>,
    /// Set when a reload reopened the tour: its first step shows what the address holds, not its example.
    resumed: StoredValue<bool>,
    /// Set when the tour was left on its example (Leave, Esc) over something else the page had before it:
    /// the page then offers that back, with `before` kept, until dismissed or the tour starts again. Esc,
    /// which the bar advertises, left a presenter's own cycle replaced by the article's, with nothing to
    /// say how to get it back (review 50).
    pub left: RwSignal<bool>,
}

impl TourState {
    pub fn new() -> TourState {
        TourState {
            step: RwSignal::new(None),
            before: StoredValue::new(None),
            note: RwSignal::new(None),
            resumed: StoredValue::new(false),
            left: RwSignal::new(false),
        }
    }

    /// Opens the tour at the step the address names (`?tour=N`, counted from 1; `?tour` alone, the first),
    /// and says what was wrong with the address's step if it names none (the tour then starts at its first
    /// step: the address asked for the tour).
    ///
    /// Not on an entry reached by Back or Forward: the entries written while the tour ran keep its step in
    /// their addresses, and an older one started the tour again long after it was left. A reload resumes
    /// the step over what the address holds, which is what was on screen (a preset opened mid-tour, which
    /// the bar says is not the step's example): the step's example came back instead. A link or bookmark
    /// opens the step's example, and forgets a "before" this tab kept from a tour it left for another site.
    pub fn open_from_address(&self) -> Option<String> {
        let asked = super::query_parameter("tour")?;
        let reached = navigation_type();
        if reached.as_deref() == Some("back_forward") {
            return None;
        }
        let count = steps().map_or(0, |s| s.len());
        let (step, problem) = match asked.trim().parse::<usize>() {
            _ if asked.trim().is_empty() => (0, None),
            Ok(n) if (1..=count).contains(&n) => (n - 1, None),
            _ => {
                let asked = crate::core::spec::for_display(&asked);
                (0, Some(format!("There is no tour step “{asked}”; the steps are 1 to {count}. Starting at step 1.")))
            }
        };
        // A wrong step opens the first step's example; a link's or bookmark's "before" is what it opened on.
        let resumed = reached.as_deref() == Some("reload") && problem.is_none();
        if !resumed {
            keep_before(None);
        }
        self.resumed.set_value(resumed);
        self.step.set(Some(step));
        problem
    }
}

impl Default for TourState {
    fn default() -> Self {
        TourState::new()
    }
}

/// How the page was reached (the navigation's type): `"navigate"` for a link, a bookmark or a typed address,
/// `"reload"`, or `"back_forward"`.
fn navigation_type() -> Option<String> {
    let performance = web_sys::window()?.performance()?;
    let navigation = performance.get_entries_by_type("navigation").get(0);
    web_sys::js_sys::Reflect::get(&navigation, &"type".into()).ok()?.as_string()
}

/// Keeps the tour's step in the address (`?tour=N` while it runs, nothing otherwise), also after Back and
/// Forward: an entry written while the tour ran keeps its step in its address, which is taken out when the
/// entry is reached (Back and Forward leave the tour).
pub fn keep_in_address(tour: TourState) {
    let mark = move |step: Option<usize>| {
        let value = step.map(|i| (i + 1).to_string());
        super::url_state::set_display_parameter("tour", value.as_deref());
    };
    Effect::new(move |_| mark(tour.step.get()));
    let steps = window_event_listener(leptos::ev::popstate, move |_| mark(tour.step.get_untracked()));
    on_cleanup(move || steps.remove());
}

/// Where the tab keeps what it showed before its tour (`sessionStorage`), for "Leave and bring back what I
/// had" after a reload mid-tour: the reload resumed the step, and the button brought back the step's example.
const BEFORE_KEY: &str = "reshard-lens-tour-before";

/// The state kept by [`keep_before`] in this tab, if any (and readable).
fn kept_before() -> Option<SharedState> {
    let storage = web_sys::window()?.session_storage().ok()??;
    crate::share::fragment::decode(&storage.get_item(BEFORE_KEY).ok()??).ok()
}

/// Keeps `before` for this tab, or forgets it (`None`, when the tour is left or started anew).
fn keep_before(before: Option<&SharedState>) {
    let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.session_storage()) else { return };
    let _ = match before {
        Some(before) => storage.set_item(BEFORE_KEY, &crate::share::fragment::encode(before)),
        None => storage.remove_item(BEFORE_KEY),
    };
}

/// The class that outlines what a step talks about.
const LOOK_CLASS: &str = "tour-look";

/// Puts a step's state into the app.
fn apply(step: &Step, state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    match step.view {
        TourView::Layout => {
            if let Some(input) = example_input(step)
                && state.input.with_untracked(|current| *current != input)
            {
                state.replace_input(input);
            }
            state.strategy.set(Strategy::Intersection);
            state.fault.set(step.fault);
            page.set(Page::Layout);
            if step.verify {
                super::verify::check_soon(state);
            }
        }
        TourView::Cycle => {
            cycle.open_preset(step.preset);
            page.set(Page::Cycle);
        }
    }
    // The address names the step at once: the state it holds follows at once too (once checked, for a step
    // that runs the check: one history entry, not one before the check and one after).
    let checked_by = if step.verify { super::verify::CHECK_SOON_MS } else { 0 };
    super::url_state::write_soon(checked_by);
}

/// Whether the page shows `step`'s example: its view, with the layout or the cycle stages of the step's
/// preset. Asked after a reload, which keeps what was on screen: an edit the step invited before it (a box
/// to tick) then reads as another example, and the bar offers the example again.
fn shows_example(step: &Step, state: AppState, cycle: CycleState, page: Page) -> bool {
    match step.view {
        TourView::Layout => {
            page == Page::Layout && example_input(step).is_some_and(|input| state.input.with_untracked(|c| *c == input))
        }
        TourView::Cycle => page == Page::Cycle && cycle.shows_preset(step.preset).get_untracked(),
    }
}

/// Outlines the element `selector` names (after the view has drawn it), removing the previous outline.
fn look_at(selector: &'static str) {
    gloo::timers::callback::Timeout::new(80, move || {
        let watch = new_watch();
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        if let Ok(previous) = document.query_selector_all(&format!(".{LOOK_CLASS}")) {
            for i in 0..previous.length() {
                if let Some(element) =
                    previous.item(i).and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
                {
                    let _ = element.class_list().remove_1(LOOK_CLASS);
                }
            }
        }
        if let Ok(Some(element)) = document.query_selector(selector) {
            let _ = element.class_list().add_1(LOOK_CLASS);
            scroll_below_bar(element, watch);
        }
    })
    .forget();
}

/// Scrolls `element` to just below the sticky tour bar, whose height depends on the step's text.
///
/// Panels under the pictures are laid out only near the screen (`content-visibility: auto`), at an
/// estimated height until then, and a step's check or fault fills its panel a little later: a jump
/// lands off target once they take their real height. So the position is measured again every few
/// frames and corrected until it has held for `SETTLED` checks in a row (or `CHECKS` have passed).
/// The user has the last word: once they scrolled the page, or the step changed, the watch ends.
fn scroll_below_bar(element: web_sys::Element, watch: u32) {
    watch_position(element, watch, None, CHECKS, 0);
}

/// Ends any watch of an earlier outline and names the next one.
fn new_watch() -> u32 {
    WATCH.fetch_add(1, Ordering::Relaxed).wrapping_add(1)
}

/// Which watch is the current step's: each outline starts a new one and any older one ends. An
/// element's outline alone did not say it: a step's panel that left the page with its preset (the
/// relay note) kept its class while detached, measured at the top of the screen, and its watch
/// scrolled every later step by the bar's height, fighting the current one.
static WATCH: AtomicU32 = AtomicU32::new(0);

/// How many times, `CHECK_MS` apart, the position is measured at most, and how many checks in a row
/// must find it in place (or the page unable to scroll further) before the watch ends.
const CHECKS: u32 = 30;
const SETTLED: u32 = 3;
const CHECK_MS: u32 = 70;

/// Where the last check left things: the page's scroll and the element's top on screen.
#[derive(Clone, Copy)]
struct Seen {
    scroll: f64,
    top: f64,
}

fn watch_position(element: web_sys::Element, watch: u32, seen: Option<Seen>, checks: u32, settled: u32) {
    if WATCH.load(Ordering::Relaxed) != watch || !element.is_connected() {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let scroll = window.scroll_y().unwrap_or(0.0);
    let top = element.get_bounding_client_rect().top();
    // A scroll by the user moves the element on screen by as much as the page scrolled; the browser's
    // scroll anchoring (a panel above took its height) scrolls the page but keeps things in place.
    let scrolled_by_user =
        seen.is_some_and(|s| (scroll - s.scroll).abs() > 2.0 && (top - s.top + scroll - s.scroll).abs() < 2.0);
    if scrolled_by_user || !element.class_list().contains(LOOK_CLASS) || checks == 0 || settled >= SETTLED {
        return;
    }
    let bar = bar_height(&document);
    publish_bar_height(&document, bar);
    let offset = top - bar - 24.0;
    let mut in_place = offset.abs() < 2.0;
    if !in_place {
        window.scroll_to_with_x_and_y(0.0, (scroll + offset).max(0.0));
        // At the page's top or end the browser clamps the scroll: nothing more to do while that holds.
        in_place = (window.scroll_y().unwrap_or(0.0) - scroll).abs() < 1.0;
    }
    let seen = Seen { scroll: window.scroll_y().unwrap_or(0.0), top: element.get_bounding_client_rect().top() };
    let settled = if in_place { settled + 1 } else { 0 };
    gloo::timers::callback::Timeout::new(CHECK_MS, move || {
        watch_position(element, watch, Some(seen), checks - 1, settled)
    })
    .forget();
}

/// The tour bar's height on screen (0 when it is not drawn).
fn bar_height(document: &web_sys::Document) -> f64 {
    document.query_selector(".tour").ok().flatten().map_or(0.0, |b| b.get_bounding_client_rect().height())
}

/// The CSS property that holds the tour bar's height, for pictures that size themselves to the room left
/// below it (the tensor while presenting, style/tour.css).
const BAR_HEIGHT_PROPERTY: &str = "--tour-bar-h";

/// Keeps [`BAR_HEIGHT_PROPERTY`] on the page's root at `height` pixels. Set only when it changed: a new value
/// resizes the pictures that read it, and the watch then scrolls to where they settle.
fn publish_bar_height(document: &web_sys::Document, height: f64) {
    let Some(root) = document.document_element() else { return };
    let Ok(root) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(root) else { return };
    let style = root.style();
    let value = format!("{}px", height.round());
    if style.get_property_value(BAR_HEIGHT_PROPERTY).ok().as_deref() != Some(value.as_str()) {
        let _ = style.set_property(BAR_HEIGHT_PROPERTY, &value);
    }
}

/// A layout step's example, as the preset it names reads.
fn example_input(step: &Step) -> Option<crate::core::spec::SpecInput> {
    find(step.preset).and_then(|p| parse_input(p.spec).ok())
}

/// What the tour's Next and Back buttons are described by: the step's place, title and text.
const STEP_DESCRIPTION: &str = "tour-step-progress tour-step-title tour-step-text";

/// The tour's bar is drawn anew for each step: a keyboard user who pressed Next (or Explain, to start)
/// would be left with the focus on nothing. It goes to Next instead, so Enter walks on; focus the user
/// put elsewhere (a device, a field) stays.
fn keep_focus_in_tour() {
    after_render(|document| {
        let lost = document
            .active_element()
            .is_none_or(|e| e.tag_name() == "BODY" || e.get_attribute("data-testid").as_deref() == Some("explain"));
        if lost {
            focus_test_id(&document, "tour-next");
        }
    });
}

/// Whether the focus is on one of the tour's dots.
fn on_a_dot() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .is_some_and(|e| e.get_attribute("data-testid").as_deref() == Some("tour-dot"))
}

/// Puts the focus on the dot of the step on screen once the bar is drawn anew: a keyboard user who went to
/// a step from the dots stays among them (the redrawn bar had lost the focus, and it went to Next).
fn focus_current_dot() {
    after_render(|document| {
        if let Ok(Some(dot)) = document.query_selector("[data-testid=tour-dot][aria-current]")
            && let Ok(dot) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(dot)
        {
            let _ = dot.focus();
        }
    });
}

/// A step's text with its `backticked` names (a tensor, a mesh dim) set as code, as the text is written.
fn with_code(text: &str) -> Vec<AnyView> {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.to_string();
            if i % 2 == 1 { view! { <code>{part}</code> }.into_any() } else { part.into_any() }
        })
        .collect()
}

/// The button that starts the tour: at its first step, or at its first cycle step from the RL cycle view.
#[component]
pub fn ExplainButton(
    /// The view on screen.
    page: RwSignal<Page>,
) -> impl IntoView {
    let tour = expect_context::<TourState>();
    let first = move || if page.get_untracked() == Page::Cycle { crate::explain::FIRST_CYCLE_STEP } else { 0 };
    view! {
        // What "Explain" starts, said on hover (nothing said it was a tour).
        <button type="button" class="explain-button" data-testid="explain"
            title="A guided tour of the article, step by step: each step sets up what it talks about"
            on:click=move |_| {
                keep_before(None);
                tour.step.set(Some(first()));
            }>
            "Explain " <span aria-hidden="true">"▸"</span>
        </button>
    }
}

/// Puts back what the page had before the tour, text that did not parse included ("Leave and bring back",
/// and the note after leaving).
fn bring_back_before(tour: TourState, state: AppState, cycle: CycleState, page: RwSignal<Page>) {
    if let Some((before, generations)) = tour.before.get_value() {
        restore_entry(&before, state, cycle, page, use_context::<InventoryState>(), Some(generations));
    }
}

/// Over the page once the tour was left on its example (Leave, Esc): what the page had before the tour,
/// offered back until dismissed.
#[component]
pub fn LeftTourNote(page: RwSignal<Page>) -> impl IntoView {
    let tour = expect_context::<TourState>();
    let state = expect_context::<AppState>();
    let cycle = expect_context::<CycleState>();
    let forget = move || {
        tour.left.set(false);
        tour.before.set_value(None);
        // The note's buttons, which had the focus, are gone.
        after_render(|document| focus_test_id(&document, "explain"));
    };
    let bring_back = move |_| {
        bring_back_before(tour, state, cycle, page);
        forget();
    };
    move || {
        tour.left.get().then(|| {
            view! {
                <p class="restored-note tour-left-note" role="status" data-testid="tour-left">
                    <span>"The tour left its example on the page."</span>
                    <button type="button" class="link-button" data-testid="tour-left-restore" on:click=bring_back>
                        "Bring back what I had before the tour"
                    </button>
                    <button type="button" class="link-button" data-testid="tour-left-dismiss" on:click=move |_| forget()>
                        "Dismiss"
                    </button>
                </p>
            }
        })
    }
}

/// The tour's bar: progress, the step's title and text, Back / Next / Leave.
#[component]
pub fn TourBar(page: RwSignal<Page>) -> impl IntoView {
    let tour = expect_context::<TourState>();
    let state = expect_context::<AppState>();
    let cycle = expect_context::<CycleState>();
    let all = StoredValue::new(steps());
    let count = all.with_value(|s| s.as_ref().map_or(0, Vec::len));
    let inventory = use_context::<InventoryState>();
    // What the step put on the page, to tell when something replaced it: the layout's `replaced` generation
    // and the cycle's preset (a preset clicked or a file opened changes them, an edit does not). `None` when
    // the page did not show the step's example (a reload resumed over another).
    let opened = RwSignal::new(None::<(u64, String)>);
    // Which step `opened` is of: a step is drawn before it is shown, and its view then was another (step 10
    // from step 1 said "something else" for a moment).
    let opened_step = RwSignal::new(None::<usize>);
    let shown = move || (state.replaced.get_untracked(), cycle.preset.get_untracked());
    // Puts step `index`'s state on the page (unless `resumed`: the page keeps what the address held) and
    // outlines what the step talks about.
    let show_step = move |index: usize, resumed: bool| {
        let example = all.with_value(|s| {
            let step = s.as_ref().ok().and_then(|steps| steps.get(index))?;
            if !resumed {
                apply(step, state, cycle, page);
            }
            look_at(step.look_at);
            Some(!resumed || shows_example(step, state, cycle, page.get_untracked()))
        });
        opened.set(example.unwrap_or(false).then(shown));
        opened_step.set(Some(index));
    };
    let open_step = move |index: usize| show_step(index, false);
    Effect::new(move |previous: Option<Option<usize>>| {
        let step = tour.step.get();
        let Some(index) = step else { return step };
        if previous.flatten().is_none() {
            let generations = Generations::now(state, cycle, inventory);
            // After a reload mid-tour, what the tab showed before the tour is the one kept for it, not the
            // step's example the reload opened on.
            let before = kept_before().unwrap_or_else(|| snapshot(state, cycle, inventory, page.get_untracked()));
            keep_before(Some(&before));
            tour.before.set_value(Some((before, generations)));
            tour.left.set(false);
        }
        if previous.flatten().is_some() {
            tour.note.set(None);
        }
        let resumed = tour.resumed.get_value();
        tour.resumed.set_value(false);
        show_step(index, resumed);
        keep_focus_in_tour();
        step
    });
    // Something else than the step's example on the page: a preset or a file opened, or another tab. The
    // step's words then stood over it with nothing to say so (review 47); the bar says it and offers the
    // step's example again. An edit the step invites (a box to tick) is not a replacement and says nothing.
    let away = Memo::new(move |_| {
        let index = tour.step.get()?;
        if opened_step.get() != Some(index) {
            return Some(false);
        }
        let view = all.with_value(|s| s.as_ref().ok().and_then(|s| s.get(index)).map(|step| step.view))?;
        let replaced = opened.with(|opened| match (opened, view) {
            (None, _) => true,
            (Some((layout, _)), TourView::Layout) => *layout != state.replaced.get(),
            (Some((_, preset)), TourView::Cycle) => cycle.preset.with(|now| now != preset),
        });
        let own_page = if view == TourView::Layout { Page::Layout } else { Page::Cycle };
        Some(page.get() != own_page || replaced)
    });
    // The bar grows by the line that says so: the pictures sized to the room under it follow.
    Effect::new(move |_| {
        away.track();
        after_render(|document| publish_bar_height(&document, bar_height(&document)));
    });
    let go = move |delta: isize| {
        tour.step.update(|step| {
            if let Some(i) = step {
                let next = *i as isize + delta;
                if (0..count as isize).contains(&next) {
                    *i = next as usize;
                }
            }
        })
    };
    // Leaves the tour; what the page had before it is offered back over the page when it differs from
    // what the tour leaves on screen (not after "Leave and bring back", which brought it back).
    let leave = move || {
        tour.step.set(None);
        let shown = snapshot(state, cycle, inventory, page.get_untracked());
        let other = tour.before.with_value(|b| b.as_ref().is_some_and(|(b, _)| *b != shown));
        tour.left.set(other);
        if !other {
            tour.before.set_value(None);
        }
        keep_before(None);
        tour.note.set(None);
        look_at("#no-such-element");
        // Back where the tour was started (its bar, which had the focus, is gone).
        after_render(|document| focus_test_id(&document, "explain"));
    };
    let keys = window_event_listener(leptos::ev::keydown, move |event: web_sys::KeyboardEvent| {
        // Keys something else used (a mesh's arrow keys, Escape closing a menu) are not the tour's.
        if tour.step.get_untracked().is_none() || event.default_prevented() {
            return;
        }
        let escape = event.key() == "Escape";
        if (escape && escape_belongs_to_field(&event)) || (!escape && typed_in_field(&event)) {
            return;
        }
        let on_dot = on_a_dot();
        match event.key().as_str() {
            // Page Down and Up too: what a presenter's clicker sends (they scrolled the page under the bar).
            "ArrowRight" | "PageDown" => go(1),
            "ArrowLeft" | "PageUp" => go(-1),
            "Escape" => leave(),
            _ => return,
        }
        event.prevent_default();
        if on_dot {
            focus_current_dot();
            return;
        }
        // A step taken by key with the focus on the page (a preset's link) scrolled that element under the
        // bar, where Enter would have opened another preset unseen: the focus comes to the bar.
        if tour.step.get_untracked().is_some() {
            after_render(|document| {
                let outside = document.active_element().is_some_and(|e| {
                    e.closest(".tour").ok().flatten().is_none() && document.body().is_none_or(|body| *body != e)
                });
                if outside {
                    focus_test_id(&document, "tour-next");
                }
            });
        }
    });
    // A window resized mid-step (a projector plugged in) changes the bar's height: publish it again, so the
    // pictures sized to the room below it follow.
    let resized = window_event_listener(leptos::ev::resize, move |_| {
        if tour.step.get_untracked().is_none() {
            return;
        }
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            publish_bar_height(&document, bar_height(&document));
        }
    });
    // The focus moved out of the bar (Tab or a click into a field): the user has the last word, and the
    // step's watch of its outline ends. Scrolled into view by the focus, a field was scrolled away again
    // by a watch that had not settled yet (on a busy machine).
    let focused = window_event_listener(leptos::ev::focusin, move |event: web_sys::FocusEvent| {
        let outside = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|e| e.closest(".tour").ok().flatten().is_none());
        if outside {
            new_watch();
        }
    });
    // Back and Forward show an entry's state, which the step's words do not describe (the history keeps an
    // entry per settled state, not per step): they leave the tour, keeping the state they brought.
    let travelled = window_event_listener(leptos::ev::popstate, move |_| {
        if tour.step.get_untracked().is_some() {
            leave();
        }
    });
    on_cleanup(move || {
        keys.remove();
        resized.remove();
        focused.remove();
        travelled.remove();
    });
    // Each new step is said: focus stays on Next, whose description is read only when focus arrives.
    let spoken = Signal::derive(move || {
        let Some(index) = tour.step.get() else { return String::new() };
        // The step's words too: the focus stays on Next, so a screen reader heard only the title.
        all.with_value(|s| {
            s.as_ref()
                .ok()
                .and_then(|s| s.get(index))
                .map(|step| format!("Step {} of {count}: {}. {}", index + 1, step.title, step.text.replace('`', "")))
        })
        .unwrap_or_default()
    });
    let bar = move || {
        let index = tour.step.get()?;
        let step = all.with_value(|s| s.as_ref().ok().and_then(|s| s.get(index).cloned()));
        let content = match step {
            Some(step) => view! {
                <h2 class="tour-title" id="tour-step-title" data-testid="tour-title">{step.title}</h2>
                <p class="tour-text" id="tour-step-text" data-testid="tour-text">{with_code(&step.text)}</p>
            }
            .into_any(),
            None => view! {
                <p class="problem" role="alert">
                    {all.with_value(|s| s.as_ref().err().cloned()).unwrap_or_else(|| "No such step.".into())}
                </p>
            }
            .into_any(),
        };
        let (at_start, at_end) = (index == 0, index + 1 >= count);
        // The dots jump to a step: one stop for Tab (the step on screen), the arrow keys step from there
        // as anywhere, Home and End go to the first and the last step.
        let titles: Vec<&str> =
            all.with_value(|s| s.as_ref().map_or(Vec::new(), |s| s.iter().map(|t| t.title).collect()));
        let dots = titles
            .into_iter()
            .enumerate()
            .map(|(i, title)| {
                let name = format!("Step {}: {title}", i + 1);
                view! {
                    <button
                        type="button"
                        class="tour-dot"
                        class:tour-dot-done=i <= index
                        data-testid="tour-dot"
                        aria-label=name.clone()
                        title=name
                        aria-current=(i == index).then_some("step")
                        tabindex=if i == index { "0" } else { "-1" }
                        on:click=move |_| {
                            tour.step.set(Some(i));
                            focus_current_dot();
                        }
                        on:keydown=move |event: web_sys::KeyboardEvent| {
                            let to = match event.key().as_str() {
                                "Home" => 0,
                                "End" => count.saturating_sub(1),
                                _ => return,
                            };
                            event.prevent_default();
                            tour.step.set(Some(to));
                            focus_current_dot();
                        }
                    ></button>
                }
            })
            .collect_view();
        Some(view! {
            <section class="tour" role="region" aria-label="Guided tour" data-testid="tour">
                <div class="tour-progress">
                    <span id="tour-step-progress" data-testid="tour-progress">{format!("Step {} of {count}", index + 1)}</span>
                    <span class="tour-dots" role="group" aria-label="Go to a step">{dots}</span>
                </div>
                {move || tour.note.get().map(|note| view! { <p class="problem tour-note" role="status" data-testid="tour-note">{note}</p> })}
                {move || away.get().unwrap_or(false).then(|| view! {
                    <p class="tour-note tour-away" role="status" data-testid="tour-away">
                        "The page shows something else than this step's example. "
                        <button type="button" class="link-button" data-testid="tour-reopen" on:click=move |_| open_step(index)>
                            "Show this step's example"
                        </button>
                    </p>
                })}
                {content}
                <div class="tour-buttons">
                    // The bar is drawn anew for each step and the focus put on Next (or kept on Back): the step
                    // is read out with the button, as its description (there was no announcement at all).
                    <button
                        type="button"
                        data-testid="tour-back"
                        aria-describedby=STEP_DESCRIPTION
                        disabled=at_start
                        on:click=move |_| go(-1)
                    >
                        "◂ Back"
                    </button>
                    // The last step's button ends the tour (the page keeps what it shows).
                    <button
                        type="button"
                        class="primary-button"
                        data-testid="tour-next"
                        aria-describedby=STEP_DESCRIPTION
                        on:click=move |_| if at_end { leave() } else { go(1) }
                    >
                        {if at_end { "Done" } else { "Next " }}
                        {(!at_end).then(|| view! { <span aria-hidden="true">"▸"</span> })}
                    </button>
                    // On a short screen (a laptop at 200 % zoom) the short words, on the buttons' row
                    // (tour.css): the long ones took two rows of a bar that may hold half the screen.
                    <button
                        type="button"
                        class="link-button"
                        data-testid="tour-leave"
                        aria-label="Leave the tour (keeps this state)"
                        title="Leave the tour (keeps this state)"
                        on:click=move |_| leave()
                    >
                        <span class="tour-long">"Leave the tour (keeps this state)"</span>
                        <span class="tour-short">"Leave"</span>
                    </button>
                    <button
                        type="button"
                        class="link-button"
                        data-testid="tour-restore"
                        aria-label="Leave and bring back what I had"
                        title="Leave and bring back what I had"
                        on:click=move |_| {
                            bring_back_before(tour, state, cycle, page);
                            leave();
                        }
                    >
                        <span class="tour-long">"Leave and bring back what I had"</span>
                        <span class="tour-short">"Leave and bring back"</span>
                    </button>
                    <span class="muted tour-keys">"← → keys, Esc to leave"</span>
                </div>
            </section>
        })
    };
    view! {
        <super::announce::Announcer text=spoken test_id="tour-announce"/>
        {bar}
    }
}
