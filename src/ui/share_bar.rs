//! Share, export and open: a link to this exact state, the embed snippet, files made from what is on
//! screen, and opening a file (picked or dropped anywhere on the page).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::cycle::CycleState;
use super::export::{download_png, download_text, figure_svg, file_stem, with_fonts};
use super::inventory::InventoryState;
use super::{AppState, Page, format_count, url_state};
use crate::core::cycle::describe_cycle;
use crate::core::model::Reshard;
use crate::core::plan::Strategy;
use crate::core::spec::{SpecInput, for_display};
use crate::core::traffic::Totals;
use crate::share::cycle_text::cycle_lines;
use crate::share::embed::{
    COLUMNS, Column, EMBED_THEMES, EMBED_VIEWS, HEIGHT_MESSAGE, Sweep, embed_snippet, embed_src, fit_script,
};
use crate::share::fragment::encode;
use crate::share::import::{Imported, import_file, refuse_size};
use crate::share::text::to_block;

/// What the last share, export or import did, shown under the bar.
#[derive(Clone, Debug, PartialEq)]
enum Report {
    Done(String),
    Problems(String, Vec<String>),
}

/// The address of the app without query or fragment.
fn app_url() -> String {
    web_sys::window()
        .and_then(|w| Some(format!("{}{}", w.location().origin().ok()?, w.location().pathname().ok()?)))
        .unwrap_or_default()
}

/// Copies `text` to the clipboard; `report` says whether it worked.
fn copy(text: String, what: &'static str, report: RwSignal<Option<Report>>) {
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else { return };
    let promise = clipboard.write_text(&text);
    leptos::task::spawn_local(async move {
        report.set(Some(match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => Report::Done(format!("{} copied to the clipboard.", crate::chart::readout::sentence_case(what))),
            Err(_) => Report::Done(format!("The browser did not allow copying: select the {what} above and copy it.")),
        }));
    });
}

/// Why the link leaves the measured cycles out, when it does (longer than a link carries).
fn measured_left_out(cycle: CycleState) -> Option<String> {
    let bytes = cycle.measured_text.with(String::len);
    (bytes > crate::share::fragment::MEASURED_IN_LINK).then(|| {
        format!(
            "The measured cycles ({}) are too long for a link and stay out of it: share their file beside it.",
            crate::core::traffic::format_bytes(bytes as u64)
        )
    })
}

/// What the Share menu says of a link `chars` characters long whose state is `state_chars` of them, when
/// it is long: a state past what opens is not offered as a link, and the address keeps the last that fits.
fn long_link_note(state_chars: usize, chars: usize) -> Option<String> {
    use crate::share::fragment::{LONG_LINK_CHARS, MAX_FRAGMENT_CHARS};
    if state_chars > MAX_FRAGMENT_CHARS {
        Some(format!(
            "This state is too large for a link ({} characters; a link holds {}): share it as a file from Export ▾ \
             instead. The address and the autosave keep the last state that fit.",
            crate::ui::format_count(chars as u64),
            crate::ui::format_count(MAX_FRAGMENT_CHARS as u64)
        ))
    } else {
        (chars > LONG_LINK_CHARS).then(|| {
            format!(
                "This link is {} characters long; chat tools and mail may cut it: a file from Export ▾ is safer.",
                crate::ui::format_count(chars as u64)
            )
        })
    }
}

/// The bar above the views: Share, Export, Open.
#[component]
pub fn ShareBar(page: RwSignal<Page>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let cycle = expect_context::<CycleState>();
    let ShareReport(report) = expect_context::<ShareReport>();
    let inventory = use_context::<InventoryState>();
    // Encoded only while the menu is open, then on every edit.
    let open = RwSignal::new(false);
    let fragment = Memo::new(move |_| {
        if !open.get() {
            return String::new();
        }
        url_state::track_shared(state, cycle);
        encode(&url_state::snapshot(state, cycle, inventory, page.get()))
    });
    let link = move || format!("{}#{}", app_url(), fragment.get());
    let linkable = move || fragment.with(String::len) <= crate::share::fragment::MAX_FRAGMENT_CHARS;
    // The view of the tab the menu is opened from (a cycle's embed code gave a tensor), until one is picked.
    let embed_view = RwSignal::new("tensor".to_string());
    let embed_view_picked = RwSignal::new(false);
    let embed_theme = RwSignal::new(EMBED_THEMES[0].0.to_string());
    // Measured in the reader's theme: a theme changes colours, not the height.
    let embed_address = Memo::new(move |_| {
        (open.get() && linkable()).then(|| embed_src(&app_url(), &embed_view.get(), "auto", &fragment.get()))
    });
    let column = RwSignal::new(COLUMNS[0]);
    let measured = measured_height(embed_address, column);
    // The frame fitted by a script on the page, for a column that changes with the screen: the measured
    // height fits 480 px and up, and on a phone the frame scrolled inside (review 32).
    // On by default: a frame measured for 480 px and up was cut on a phone, where most docs are read
    // (review 53). A site that strips scripts keeps the frame at the measured height, as without it.
    let fit = RwSignal::new(true);
    let snippet = move || {
        // Nothing to show while the menu is closed (and no reason to follow every edit), nor before the
        // height is known: code with the usual height could be selected and copied by hand, too short for
        // most views (review 32).
        if !open.get() || matches!(measured.get(), EmbedHeight::Measuring(..)) {
            return String::new();
        }
        // The cycle embed's title names the cycle: a screen reader announced a tensor for a cycle diagram.
        let described = if embed_view.get() == "cycle" {
            cycle.spec.with(|spec| cycle.report.with(|report| describe_cycle(spec, report.as_ref())))
        } else {
            state.reshard.with(super::describe_change)
        };
        let title = format!("Reshard Lens: {}", crate::core::spec::for_display(&described));
        let frame = embed_snippet(
            &app_url(),
            &embed_view.get(),
            &embed_theme.get(),
            &fragment.get(),
            &title,
            measured.get().height(),
        );
        if fit.get() { format!("{frame}\n{}", fit_script(&app_url())) } else { frame }
    };
    let height_note = move || match measured.get() {
        EmbedHeight::Measured(height) if fit.get() => format!(
            "Its height, {height} px, fits this view in {}; the script then fits the frame to its content in any \
             column, a phone's too, and as readers edit it (where a site strips scripts, the frame keeps that height).",
            column.get().fits()
        ),
        EmbedHeight::Measured(height) => format!("Its height, {height} px, fits this view in {}.", column.get().fits()),
        EmbedHeight::Measuring(done, widths) if done > 0 => {
            format!("Measuring its height: {done} of {widths} column widths…")
        }
        EmbedHeight::Measuring(..) => "Measuring its height…".to_string(),
        EmbedHeight::NotMeasured => format!(
            "Its height could not be measured in {} s: the code gives this view's usual height.",
            GIVE_UP_MS / 1000
        ),
    };
    // The note changes as the frame is measured, unseen by a screen reader: when the code comes (the copy
    // button with it), it is said once (review 41).
    let code_ready = Signal::derive(move || match measured.get() {
        _ if !open.get() => String::new(),
        EmbedHeight::Measured(height) => format!("The embed code is ready, {height} px high."),
        EmbedHeight::NotMeasured => "The embed code is ready, at this view's usual height.".to_string(),
        EmbedHeight::Measuring(..) => String::new(),
    });
    drop_anywhere(state, cycle, page, report);
    let bar = NodeRef::new();
    dismiss_menus(bar);
    view! {
        <div class="share-bar" data-testid="share-bar" node_ref=bar>
            <details
                class="menu"
                data-testid="share-menu"
                on:toggle=move |ev| {
                    let details: Option<web_sys::HtmlDetailsElement> = ev.target().and_then(|t| t.dyn_into().ok());
                    let opened = details.is_some_and(|d| d.open());
                    if opened && !embed_view_picked.get_untracked() {
                        let view = if page.get_untracked() == Page::Cycle { "cycle" } else { "tensor" };
                        embed_view.set(view.to_string());
                    }
                    open.set(opened);
                }
            >
                <summary>"Share"</summary>
                <div class="menu-body">
                    <p class="menu-heading">"A link to exactly this state"</p>
                    // A state past what a link opens offers no link (nor embed code) to copy: it would open
                    // nothing, or cut, where the reader pastes it.
                    <Show when=linkable>
                        <input class="menu-code" readonly prop:value=link data-testid="share-link" aria-label="Link to this state"/>
                        <button type="button" data-testid="copy-link" on:click=move |_| copy(link(), "link", report)>
                            "Copy link"
                        </button>
                    </Show>
                    {move || long_link_note(fragment.with(String::len), link().len()).map(|note| view! {
                        <p class="menu-note" data-testid="share-long-link">{note}</p>
                    })}
                    {move || measured_left_out(cycle).map(|note| view! {
                        <p class="menu-note" data-testid="share-measured-left-out">{note}</p>
                    })}
                    {move || (open.get() && unread_text_held(state, cycle, page.get())).then(|| view! {
                        <p class="menu-note" data-testid="share-unread-left-out">{UNREAD_LEFT_OUT}</p>
                    })}
                    <p class="menu-heading">"Embed one view in another page"</p>
                    <label class="menu-row">
                        "View "
                        <select
                            data-testid="embed-view"
                            on:change=move |ev| {
                                embed_view_picked.set(true);
                                embed_view.set(event_target_value(&ev));
                            }
                            prop:value=move || embed_view.get()
                        >
                            {EMBED_VIEWS
                                .iter()
                                .map(|(name, label, _)| view! { <option value=*name>{*label}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="menu-row">
                        "Column width "
                        <select
                            data-testid="embed-width"
                            on:change=move |ev| {
                                if let Some(picked) = Column::from_value(&event_target_value(&ev)) {
                                    column.set(picked);
                                }
                            }
                            prop:value=move || column.get().value()
                        >
                            {COLUMNS
                                .iter()
                                .map(|c| view! { <option value=c.value()>{c.label()}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="menu-row">
                        "Theme "
                        <select
                            data-testid="embed-theme"
                            on:change=move |ev| embed_theme.set(event_target_value(&ev))
                            prop:value=move || embed_theme.get()
                        >
                            {EMBED_THEMES
                                .iter()
                                .map(|(name, label)| view! { <option value=*name>{*label}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="menu-row menu-check">
                        <super::FlagCheckbox flag=fit test_id="embed-fit"/>
                        <span>"Fit its height on any screen (adds a script)"</span>
                    </label>
                    <Show
                        when=linkable
                        fallback=|| view! { <p class="menu-note">"The embed code carries the state as a link does: none for this one."</p> }
                    >
                        <textarea
                            class="menu-code"
                            readonly
                            rows="4"
                            prop:value=snippet
                            placeholder="The code comes once its height is measured."
                            data-testid="embed-code"
                            aria-label="Embed code"
                        ></textarea>
                        <p class="menu-note" data-testid="embed-height-note">{height_note}</p>
                        <super::announce::Announcer
                            text=code_ready
                            test_id="embed-announce"
                            settle_ms=super::announce::AFTER_TYPING_MS
                        />
                        // Not before the height is known: a copy would take the usual height, too short for most views.
                        <button
                            type="button"
                            data-testid="copy-embed"
                            disabled=move || matches!(measured.get(), EmbedHeight::Measuring(..))
                            on:click=move |_| copy(snippet(), "embed code", report)
                        >
                            "Copy embed code"
                        </button>
                    </Show>
                </div>
            </details>
            <ExportMenu page report/>
            <label class="button-like" data-testid="open-file-label">
                "Open file…"
                <input
                    type="file"
                    class="visually-hidden"
                    accept=".json,.csv,.txt,application/json,text/csv,text/plain"
                    data-testid="open-file"
                    on:change=move |ev| {
                        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
                        if let Some(file) = input.as_ref().and_then(|i| i.files()).and_then(|f| f.get(0)) {
                            open_file(file, state, cycle, page, report);
                        }
                        if let Some(input) = input {
                            input.set_value("");
                        }
                    }
                />
            </label>
        </div>
    }
}

/// What the last share, export or open did (copied, saved, or why a file was not opened), shared by the
/// bar's menus and [`ShareReportLine`].
#[derive(Clone, Copy)]
pub struct ShareReport(RwSignal<Option<Report>>);

impl ShareReport {
    pub fn new() -> ShareReport {
        ShareReport(RwSignal::new(None))
    }
}

impl Default for ShareReport {
    fn default() -> Self {
        ShareReport::new()
    }
}

/// The report of the last share, export or open, on a line of its own under the bar: inside the bar, a
/// full-width report pushed its buttons onto a row of their own, away from the tabs.
#[component]
pub fn ShareReportLine() -> impl IntoView {
    let ShareReport(report) = expect_context::<ShareReport>();
    // Said by an announcer that is on the page before the report (problems are an alert of their own).
    let spoken = Signal::derive(move || {
        report.with(|r| match r {
            Some(Report::Done(message)) => message.to_string(),
            _ => String::new(),
        })
    });
    view! {
        <crate::ui::announce::Announcer text=spoken test_id="share-announce"/>
        {move || report.get().map(|r| match r {
            Report::Done(message) => view! {
                <p class="share-report" data-testid="share-report">
                    {message}
                    <button type="button" class="link-button" on:click=move |_| report.set(None)>"Dismiss"</button>
                </p>
            }.into_any(),
            Report::Problems(title, lines) => view! {
                <div class="share-report problem" role="alert" data-testid="share-report">
                    <p>{title}</p>
                    <ul data-testid="import-problems">{lines.into_iter().map(|l| view! { <li>{for_display(&l)}</li> }).collect_view()}</ul>
                    <button type="button" class="link-button" on:click=move |_| report.set(None)>"Dismiss"</button>
                </div>
            }.into_any(),
        })}
    }
}

/// How long the Share menu waits for an embed's height before it gives the usual one (a busy machine
/// took 6 s to boot the measured copy of the large preset).
const GIVE_UP_MS: u32 = 15_000;

/// Where the measuring of an embed's height is.
#[derive(Clone, Copy, PartialEq, Debug)]
enum EmbedHeight {
    /// The embed has not settled yet at every width of the column (or the address changed since it did:
    /// each edit is measured again): how many of how many widths have.
    Measuring(usize, usize),
    Measured(u32),
    /// Nothing came in [`GIVE_UP_MS`]: the snippet gives the view's usual height.
    NotMeasured,
}

impl EmbedHeight {
    fn height(self) -> Option<u32> {
        match self {
            EmbedHeight::Measured(height) => Some(height),
            _ => None,
        }
    }
}

/// The height the embed at `address` needs in `column`, measured while the Share menu is open: the embed is
/// loaded in an invisible iframe (same origin), laid out at each of the column's widths in turn, and
/// reports its height at each ([`HEIGHT_MESSAGE`]) as it renders; the snippet takes the tallest.
fn measured_height(address: Memo<Option<String>>, column: RwSignal<Column>) -> Signal<EmbedHeight> {
    use gloo::timers::callback::Timeout;
    use web_sys::js_sys::Reflect;
    /// How long a reported height must hold before it counts: the first, while the app boots in the
    /// frame, and each after a resize (the frame only lays out again).
    const SETTLE_MS: u32 = 400;
    const SETTLE_RESIZED_MS: u32 = 200;
    /// After a resize that left the height as it was, the embed says nothing: the height stands by then.
    const UNCHANGED_MS: u32 = 1_000;
    /// How long an address must hold before a frame is loaded to measure it.
    const LOAD_AFTER_MS: u32 = 250;
    let reported = RwSignal::new(None::<(String, u32)>);
    let sweep = RwSignal::new(Sweep::new(column.get_untracked()));
    let settle = StoredValue::new_local(None::<Timeout>);
    let frame = StoredValue::new_local(None::<web_sys::Element>);
    let gave_up = RwSignal::new(false);
    let give_up = StoredValue::new_local(None::<Timeout>);
    let load = StoredValue::new_local(None::<Timeout>);
    let remove_frame = move || {
        if let Some(old) = frame.try_update_value(Option::take).flatten() {
            old.remove();
        }
    };
    // Waits afresh whenever a width is measured: the large preset boots in seconds, then each width is quick.
    let wait_for_next = move || {
        give_up.set_value(Some(Timeout::new(GIVE_UP_MS, move || gave_up.set(true))));
    };
    Effect::new(move |_| {
        remove_frame();
        load.set_value(None);
        gave_up.set(false);
        // A height measured in another column or for another address does not fit this one (nor one still
        // settling from the frame just removed).
        settle.set_value(None);
        reported.set(None);
        sweep.set(Sweep::new(column.get()));
        let Some(src) = address.get() else {
            give_up.set_value(None);
            return;
        };
        wait_for_next();
        let Some(width) = sweep.with_untracked(Sweep::width) else { return };
        // Loaded once the address has held for a moment: each frame boots a second copy of the app, and
        // steps of an edit made while the menu is open (a stepper held down, undo pressed again) need none.
        load.set_value(Some(Timeout::new(LOAD_AFTER_MS, move || {
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            let Ok(iframe) = document.create_element("iframe") else { return };
            for (name, value) in [
                ("src", src.as_str()),
                ("class", "embed-measure"),
                // An attribute, not a style: the page's CSP refuses inline styles.
                ("width", &width.to_string()),
                ("title", "the embed, measured"),
                ("aria-hidden", "true"),
                ("tabindex", "-1"),
                // Nothing in it can take the focus or be read out.
                ("inert", ""),
            ] {
                let _ = iframe.set_attribute(name, value);
            }
            if let Some(body) = document.body()
                && body.append_child(&iframe).is_ok()
            {
                frame.set_value(Some(iframe));
            }
        })));
    });
    // A height that has held at the current width: the next width, or the tallest once all are measured.
    fn settled(
        href: String,
        height: u32,
        sweep: RwSignal<Sweep>,
        frame: StoredValue<Option<web_sys::Element>, LocalStorage>,
        settle: StoredValue<Option<Timeout>, LocalStorage>,
        reported: RwSignal<Option<(String, u32)>>,
        wait_for_next: impl Fn() + Copy + 'static,
    ) {
        let Some(next) = sweep.try_update(|s| s.record(height)) else { return };
        match next {
            Some(width) => {
                wait_for_next();
                frame.with_value(|f| f.as_ref().map(|f| f.set_attribute("width", &width.to_string())));
                settle.set_value(Some(Timeout::new(UNCHANGED_MS, move || {
                    settled(href, height, sweep, frame, settle, reported, wait_for_next);
                })));
            }
            None => {
                if let Some(tallest) = sweep.with_untracked(Sweep::height) {
                    reported.set(Some((href, tallest)));
                }
            }
        }
    }
    let origin = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
    let listener = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        let data = ev.data();
        let field = |key: &str| Reflect::get(&data, &key.into()).ok();
        if ev.origin() != origin || field("type").and_then(|t| t.as_string()).as_deref() != Some(HEIGHT_MESSAGE) {
            return;
        }
        if let (Some(href), Some(height)) =
            (field("href").and_then(|h| h.as_string()), field("height").and_then(|h| h.as_f64()))
            && height.is_finite()
            && height > 0.0
            && address.get_untracked().as_deref() == Some(href.as_str())
        {
            // The embed grows as its panels fill in (the large preset's traffic: 1,859 px, then 3,136 px
            // 120 ms later): a height counts once it has held for a moment, so a copy never takes a partial one.
            let height = height.min(100_000.0) as u32;
            let wait = if sweep.with_untracked(|s| s.progress().0) == 0 { SETTLE_MS } else { SETTLE_RESIZED_MS };
            settle.set_value(Some(Timeout::new(wait, move || {
                settled(href, height, sweep, frame, settle, reported, wait_for_next);
            })));
        }
    });
    on_cleanup(move || {
        listener.remove();
        remove_frame();
        // Cancelled (dropped), so it never writes to a disposed signal.
        let _ = settle.try_update_value(Option::take);
        let _ = give_up.try_update_value(Option::take);
        let _ = load.try_update_value(Option::take);
    });
    Signal::derive(move || {
        let Some(current) = address.get() else { return EmbedHeight::Measuring(0, 0) };
        let height = reported.with(|r| r.as_ref().filter(|(href, _)| *href == current).map(|(_, height)| *height));
        match height {
            Some(height) => EmbedHeight::Measured(height),
            None if gave_up.get() => EmbedHeight::NotMeasured,
            None => {
                let (done, widths) = sweep.with(Sweep::progress);
                EmbedHeight::Measuring(done, widths)
            }
        }
    })
}

/// The export buttons for the page on screen.
#[component]
fn ExportMenu(page: RwSignal<Page>, report: RwSignal<Option<Report>>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let cycle = expect_context::<CycleState>();
    let inventory = use_context::<InventoryState>();
    let open = RwSignal::new(false);
    // What the data exports describe: on the inventory page, the model there, not the layout view behind it.
    let subject = move || match (page.get_untracked(), inventory) {
        (Page::Inventory, Some(inventory)) => Subject::Inventory(inventory),
        _ => Subject::Layout,
    };
    let stem = move || match subject() {
        Subject::Inventory(inventory) => format!("{}-inventory", file_stem(&inventory.preset.get_untracked())),
        Subject::Layout => state.reshard.with(|r| match r.tensors.as_slice() {
            [tensor] => file_stem(&tensor.name),
            _ => "inventory".to_string(),
        }),
    };
    let outcome = move |result: Result<String, String>| {
        report.set(Some(match result {
            Ok(name) => Report::Done(format!("Downloaded {name}.")),
            Err(reason) => Report::Problems("Nothing was exported:".into(), vec![reason]),
        }))
    };
    // File names are templates: `{stem}` is the tensor's (or the inventory's) name; the cycle's files are
    // named after the cycle, not after a tensor the cycle view does not show.
    let named = move |template: &str| template.replace("{stem}", &stem());
    let figure = move |selector: &'static str, template: &'static str, png: bool| {
        move |_| {
            let name = format!("{}.{}", named(template), if png { "png" } else { "svg" });
            // The picture is taken now; only the fonts are awaited.
            let picture = figure_svg(selector);
            leptos::task::spawn_local(async move {
                let result = match picture {
                    Ok((markup, width, height)) => match with_fonts(&markup).await {
                        Ok(markup) if png => download_png(&name, &markup, width, height),
                        Ok(markup) => download_text(&name, "image/svg+xml", &markup),
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e),
                };
                outcome(result.map(|_| name));
            });
        }
    };
    let text_file = move |template: &'static str,
                          mime: &'static str,
                          make: fn(AppState, CycleState, Subject) -> Result<String, String>| {
        move |_| {
            let name = named(template);
            let made = make(state, cycle, subject());
            outcome(made.and_then(|content| download_text(&name, mime, &content)).map(|_| name));
        }
    };
    // Each button is named with its row ("Tensor view as SVG"): read out alone, "SVG, PNG, SVG, PNG" said
    // nothing of what they export.
    view! {
        <details
            class="menu"
            data-testid="export-menu"
            on:toggle=move |ev| {
                let details: Option<web_sys::HtmlDetailsElement> = ev.target().and_then(|t| t.dyn_into().ok());
                open.set(details.is_some_and(|d| d.open()));
            }
        >
            <summary>"Export"</summary>
            <div class="menu-body">
                {move || stale_note(page.get(), state).map(|note| view! { <p class="menu-note stale-note" data-testid="export-stale">{note}</p> })}
                // Read when the menu opens: the drafts are no signal.
                {move || (open.get() && unread_text_held(state, cycle, page.get())).then(|| view! {
                    <p class="menu-note stale-note" data-testid="export-unread-left-out">{UNREAD_LEFT_OUT}</p>
                })}
                <Show when=move || page.get() == Page::Layout>
                    <p class="menu-heading">"Pictures, as on screen"</p>
                    <div class="menu-row">
                        "Tensor view "
                        <button type="button" aria-label="Tensor view as SVG" data-testid="export-tensor-svg" on:click=figure("[data-testid=tensor-view]", "{stem}-tensor", false)>"SVG"</button>
                        <button type="button" aria-label="Tensor view as PNG" data-testid="export-tensor-png" on:click=figure("[data-testid=tensor-view]", "{stem}-tensor", true)>"PNG"</button>
                    </div>
                    <div class="menu-row">
                        "Mesh view "
                        <button type="button" aria-label="Mesh view as SVG" data-testid="export-mesh-svg" on:click=figure("[data-testid=mesh-view]", "{stem}-mesh", false)>"SVG"</button>
                        <button type="button" aria-label="Mesh view as PNG" data-testid="export-mesh-png" on:click=figure("[data-testid=mesh-view]", "{stem}-mesh", true)>"PNG"</button>
                    </div>
                </Show>
                <Show when=move || page.get() == Page::Cycle>
                    <p class="menu-heading">"Pictures, as on screen"</p>
                    <div class="menu-row">
                        "Timeline "
                        <button type="button" aria-label="Timeline as SVG" data-testid="export-timeline-svg" on:click=figure("section[aria-labelledby=cycle-timeline-title]", "cycle-timeline", false)>"SVG"</button>
                        <button type="button" aria-label="Timeline as PNG" data-testid="export-timeline-png" on:click=figure("section[aria-labelledby=cycle-timeline-title]", "cycle-timeline", true)>"PNG"</button>
                    </div>
                </Show>
                <p class="menu-heading">"Data"</p>
                // Data, not a picture (it stood under "Pictures", review 38).
                <Show when=move || page.get() == Page::Cycle>
                    <div class="menu-row">
                        "Cycle "
                        <button type="button" data-testid="export-cycle-text" on:click=text_file("cycle.txt", "text/plain", cycle_block)>
                            "Text block (docs widget)"
                        </button>
                    </div>
                </Show>
                <div class="menu-row">
                    "Spec "
                    <button type="button" aria-label="Spec as JSON" data-testid="export-spec-json" on:click=text_file("{stem}-spec.json", "application/json", spec_json)>"JSON"</button>
                    // An inventory has no text form: not offered on its page, nor while the layout holds one
                    // (it could only fail: "Nothing was exported").
                    <Show when=move || page.get() != Page::Inventory && state.input.with(|i| i.tensors.is_none())>
                        <button type="button" aria-label="Spec as text" data-testid="export-spec-text" on:click=text_file("{stem}-spec.txt", "text/plain", spec_text)>"Text"</button>
                    </Show>
                </div>
                <div class="menu-row">
                    "Plan (the CLI's format"
                    // The size before the click: the large preset's plan is 262,144 pieces, 23 MB of JSON.
                    {move || {
                        (page.get() != Page::Inventory)
                            .then(|| state.totals.with(|t| t.as_ref().ok().map(|t| format!(", {} pieces", format_count(t.pieces)))))
                    }}
                    ") "
                    <button type="button" aria-label="Plan as JSON" data-testid="export-plan-json" on:click=text_file("{stem}-plan.json", "application/json", plan_json)>"JSON"</button>
                </div>
                // One tensor's pieces for a spreadsheet; an inventory's millions of rows are not offered, on
                // its page or in the layout.
                <Show when=move || page.get() != Page::Inventory && state.reshard.with(|r| r.tensors.len() == 1)>
                    <div class="menu-row">
                        "Pieces, a row each "
                        <button type="button" aria-label="Pieces as CSV" data-testid="export-pieces-csv" on:click=text_file("{stem}-pieces.csv", "text/csv", pieces_csv)>"CSV"</button>
                    </div>
                </Show>
                <div class="menu-row">
                    <button type="button" data-testid="export-note" on:click=text_file("{stem}-decision-note.md", "text/markdown", decision_note)>
                        "Decision note (Markdown)"
                    </button>
                </div>
                // From the cycle page the note also describes a change this page does not show (the toy's,
                // untouched): said before the click (review 50).
                <Show when=move || page.get() == Page::Cycle>
                    <p class="menu-note" data-testid="export-note-layout">{move || layout_in_note(state)}</p>
                </Show>
            </div>
        </details>
    }
}

/// While the layout editors hold a problem, the exports of the layout do not all describe one change: the
/// pictures, the plan and the decision note are of the last valid change (what the pictures show), the spec
/// is as typed (so that nothing typed is lost). Said before a click rather than found in the files.
fn stale_note(page: Page, state: AppState) -> Option<&'static str> {
    if page == Page::Inventory || state.checked.with(Result::is_ok) {
        return None;
    }
    Some(match page {
        Page::Layout => {
            "The editors hold a problem: the pictures, the plan and the decision note are of the last valid change; the spec is as typed."
        }
        _ => {
            "The layout editors hold a problem: the plan and the decision note are of the last valid change; the spec is as typed."
        }
    })
}

/// Said in the Share and Export menus while a field of the view holds text that does not parse: links,
/// exports and the autosave carry values, so that text stays out, without a word (review 37).
const UNREAD_LEFT_OUT: &str = "A field holds text that does not read as a value yet: links and exports carry its last \
     valid value instead (undo, in this tab, brings the text back).";

/// Whether a field of `page`'s editors holds text that does not parse (the inventory's fields say so on its
/// page, and its totals are of its last valid values).
fn unread_text_held(state: AppState, cycle: CycleState, page: Page) -> bool {
    match page {
        Page::Layout => state.holds_unread_text(),
        Page::Cycle => cycle.holds_unread(),
        Page::Inventory => false,
    }
}

/// What the data exports describe.
#[derive(Clone, Copy)]
enum Subject {
    /// The change in the layout view (one tensor, or an inventory's tensor opened from its page).
    Layout,
    /// The whole model on the inventory page.
    Inventory(InventoryState),
}

/// The inventory's spec and change, or why there is none (its page shows the same problems).
fn inventory_change(inventory: InventoryState) -> Result<(SpecInput, Reshard), String> {
    inventory.validated().map_err(|problems| format!("the inventory has problems: {}", problems.join("; ")))
}

fn spec_json(state: AppState, _: CycleState, subject: Subject) -> Result<String, String> {
    let pretty = |input: &SpecInput| serde_json::to_string_pretty(input).map_err(|e| e.to_string());
    match subject {
        Subject::Layout => state.input.with_untracked(pretty),
        Subject::Inventory(inventory) => pretty(&inventory_change(inventory)?.0),
    }
}

/// The layout view's change as a text block (not offered on the inventory page: an inventory has no text form).
fn spec_text(state: AppState, _: CycleState, _: Subject) -> Result<String, String> {
    state.input.with_untracked(|input| to_block(input, "tensor"))
}

/// The cycle as a text block that a documentation page's widget draws (`view cycle`), or opens here again.
fn cycle_block(_: AppState, cycle: CycleState, _: Subject) -> Result<String, String> {
    // As the decision note: a block a widget would refuse is not written.
    if cycle.checked.with_untracked(Result::is_err) {
        return Err("the cycle has a problem; fix it in the RL cycle view first".into());
    }
    let mut lines = cycle.spec.with_untracked(cycle_lines)?;
    lines.push("view cycle".into());
    Ok(lines.join("\n") + "\n")
}

/// The CLI's `reshard plan --json` output for this state, byte for byte.
fn plan_json(state: AppState, _: CycleState, subject: Subject) -> Result<String, String> {
    let strategy = state.strategy.get_untracked();
    // As the CLI does: pieces for one tensor, totals only for an inventory.
    let text = |r: &Reshard| {
        let with_pieces = r.tensors.len() == 1;
        if with_pieces {
            crate::core::export::downloadable_pieces(r, "reshard plan --json")?;
        }
        crate::core::export::plan_json_text(r, strategy, with_pieces)
    };
    match subject {
        Subject::Layout => state.reshard.with_untracked(text),
        Subject::Inventory(inventory) => text(&inventory_change(inventory)?.1),
    }
}

/// The pieces of the layout view's plan as CSV (`reshard plan --csv`), in the strategy shown.
fn pieces_csv(state: AppState, _: CycleState, _: Subject) -> Result<String, String> {
    let strategy = state.strategy.get_untracked();
    state.reshard.with_untracked(|r| {
        crate::core::export::downloadable_pieces(r, "reshard plan --csv")?;
        crate::core::export::plan_csv_text(r, strategy)
    })
}

/// Which change the layout view holds, for the decision note exported from the cycle page, in the words of
/// the layout view's heading: "The decision note also describes the layout view's change: w · 12 × 6 bf16 ·
/// 3 source devices → 2 destination devices."
fn layout_in_note(state: AppState) -> String {
    let change = state.reshard.with(super::describe_change);
    format!("The decision note also describes the layout view's change: {change}.")
}

fn decision_note(state: AppState, cycle: CycleState, subject: Subject) -> Result<String, String> {
    let report = cycle.report.get_untracked().ok_or("the cycle has a problem; fix it in the RL cycle view first")?;
    let note = |reshard: &Reshard, strategies: &[(Strategy, Totals)]| {
        crate::core::export::decision_note(&crate::core::export::NoteInput { reshard, strategies, cycle: &report })
    };
    match subject {
        Subject::Layout => {
            let strategies: Vec<_> = state
                .comparison
                .with_untracked(|rows| rows.iter().map(|row| (row.strategy, row.totals.clone())).collect());
            Ok(state.reshard.with_untracked(|reshard| note(reshard, &strategies)))
        }
        Subject::Inventory(inventory) => {
            let (_, reshard) = inventory_change(inventory)?;
            Ok(note(&reshard, &crate::core::export::strategy_totals(&reshard)?))
        }
    }
}

/// The open menus (`details.menu[open]`) of the bar. Looked up within the bar: the listeners below run
/// on every pointer-down and focus change, and a query over the whole page walks every drawn element
/// (thousands of them on a large plan; ~3 ms a click at 64 devices a side).
fn open_menus(bar: NodeRef<leptos::html::Div>) -> Vec<web_sys::HtmlDetailsElement> {
    let Some(list) = bar.get_untracked().and_then(|b| b.query_selector_all("details.menu[open]").ok()) else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect()
}

/// Menus close as menus do: Escape closes the open one and puts the focus back on its button; a click or
/// a focus outside a menu (another menu's button, the page, tabbing on) closes it, so at most one is open.
fn dismiss_menus(bar: NodeRef<leptos::html::Div>) {
    let keys = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.key() != "Escape" || ev.default_prevented() {
            return;
        }
        for menu in open_menus(bar) {
            menu.set_open(false);
            if let Some(summary) =
                menu.query_selector("summary").ok().flatten().and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = summary.focus();
            }
            ev.prevent_default();
        }
    });
    let outside = move |target: Option<web_sys::EventTarget>| {
        let node = target.and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        for menu in open_menus(bar) {
            if !node.as_ref().is_some_and(|n| menu.contains(Some(n))) {
                menu.set_open(false);
            }
        }
    };
    let clicks = window_event_listener(leptos::ev::pointerdown, move |ev: web_sys::PointerEvent| outside(ev.target()));
    let focus = window_event_listener(leptos::ev::focusin, move |ev: web_sys::FocusEvent| outside(ev.target()));
    on_cleanup(move || {
        keys.remove();
        clicks.remove();
        focus.remove();
    });
}

/// Drops of a file anywhere on the page open it.
fn drop_anywhere(state: AppState, cycle: CycleState, page: RwSignal<Page>, report: RwSignal<Option<Report>>) {
    let over = window_event_listener(leptos::ev::dragover, |ev: web_sys::DragEvent| ev.prevent_default());
    let dropped = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        // A drop zone of its own (the measured cycles' text area) has handled it already.
        if ev.default_prevented() {
            return;
        }
        let Some(dropped) = dropped_file(&ev) else { return };
        ev.prevent_default();
        match dropped {
            Ok(file) => open_file(file, state, cycle, page, report),
            Err(why) => report.set(Some(Report::Problems(why, Vec::new()))),
        }
    });
    on_cleanup(move || {
        over.remove();
        dropped.remove();
    });
}

/// The one file a drop holds, or why none is opened: several files were dropped (the first was opened and
/// the others passed over without a word). `None` for a drop without a file.
pub(crate) fn dropped_file(event: &web_sys::DragEvent) -> Option<Result<web_sys::File, String>> {
    let files = event.data_transfer()?.files()?;
    match files.length() {
        0 => None,
        1 => files.get(0).map(Ok),
        n => Some(Err(format!("{n} files were dropped; drop one at a time. Nothing was changed."))),
    }
}

/// The report of a file that was not opened.
fn refused(name: &str, problems: Vec<String>) -> Report {
    Report::Problems(format!("{name} could not be opened; nothing was changed:"), problems)
}

/// Reads a file and puts what it holds into the app, or reports every problem (nothing changes then).
fn open_file(
    file: web_sys::File,
    state: AppState,
    cycle: CycleState,
    page: RwSignal<Page>,
    report: RwSignal<Option<Report>>,
) {
    let name = file.name();
    if let Some(too_large) = refuse_size(&name, file.size() as u64) {
        report.set(Some(refused(&name, vec![too_large.to_string()])));
        return;
    }
    let promise = file.text();
    leptos::task::spawn_local(async move {
        let text = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(text) => text.as_string().unwrap_or_default(),
            Err(_) => {
                report.set(Some(Report::Problems(format!("{name} could not be read."), Vec::new())));
                return;
            }
        };
        report.set(Some(match import_file(&name, &text) {
            Ok(imported) => {
                let what = imported.describe();
                let aside = imported.aside().map(|aside| format!(" {aside}")).unwrap_or_default();
                match imported {
                    Imported::Spec(input) => {
                        state.replace_input(input);
                        page.set(Page::Layout);
                    }
                    Imported::Block(block) => {
                        // A cycle's block without layout lines leaves the layout as it is.
                        if block.says_layout() {
                            state.replace_input(block.spec);
                        }
                        if let Some(spec) = block.cycle {
                            cycle.open(spec);
                        }
                        page.set(if block.view == "cycle" { Page::Cycle } else { Page::Layout });
                    }
                    Imported::Cycle(spec) => {
                        cycle.open(spec);
                        page.set(Page::Cycle);
                    }
                    Imported::Measurements(text) => {
                        cycle.measured_text.set(text);
                        page.set(Page::Cycle);
                    }
                }
                Report::Done(format!("Opened {name}: {what}.{aside}"))
            }
            Err(problems) => refused(&name, problems.iter().map(|p| p.to_string()).collect()),
        }));
    });
}
