//! One view on its own, with minimal chrome: for an `<iframe>` (`?embed=tensor#v1.…`, the page made by
//! "Copy embed code") and for the `<pre class="reshard-lens">` widgets of a documentation page
//! (`widgets.rs`). Both show the same components as the full app, reading an [`AppState`] of their own.

use leptos::prelude::*;

use super::{AppState, ChangeSummary, cycle, mesh_view, strategies, tensor_view, traffic, url_state};
use crate::share::embed::{EMBED_VIEWS, HEIGHT_MESSAGE, THEME_MESSAGE};
use crate::share::fragment::encode;

/// A view an embed can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedView {
    Tensor,
    Mesh,
    /// The traffic's three quantities and its estimate, without its tables and charts.
    Totals,
    Traffic,
    Strategies,
    Cycle,
}

impl EmbedView {
    /// Reads `?embed=NAME` or a block's `view NAME`; the error lists the choices.
    pub fn parse(name: &str) -> Result<EmbedView, String> {
        match name.trim() {
            // "layout" is the name a docs author guesses from the app's "Layout change" tab: its picture.
            "tensor" | "layout" => Ok(EmbedView::Tensor),
            "mesh" => Ok(EmbedView::Mesh),
            "totals" => Ok(EmbedView::Totals),
            "traffic" => Ok(EmbedView::Traffic),
            "strategies" => Ok(EmbedView::Strategies),
            "cycle" => Ok(EmbedView::Cycle),
            other => Err(format!(
                "“{}” is not a view that can be embedded; choose one of {}",
                crate::core::spec::for_display(other),
                EMBED_VIEWS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// `view` of the state in context, with a one-line caption and a link that opens the whole app on the same
/// state (in a new tab, so a reader of the docs page keeps their place).
#[component]
pub fn EmbeddedView(
    view: EmbedView,
    /// The full app's address without query or fragment (`http://host/`).
    app_url: String,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let cycle_state = expect_context::<cycle::CycleState>();
    let page = if view == EmbedView::Cycle { super::Page::Cycle } else { super::Page::Layout };
    // The app opens in the theme the embed was given (a dark embed opened a light app).
    let theme = super::name_parameter("theme")
        .filter(|theme| matches!(theme.as_str(), "light" | "dark"))
        .map_or_else(String::new, |theme| format!("?theme={theme}"));
    let open_href = move || {
        url_state::track_shared(state, cycle_state);
        format!("{app_url}{theme}#{}", encode(&url_state::snapshot(state, cycle_state, None, page)))
    };
    let body = match view {
        EmbedView::Tensor => {
            provide_context(tensor_view::WithoutDevices);
            view! { <section class="panel pictures embed-single"><tensor_view::TensorView/></section> }.into_any()
        }
        EmbedView::Mesh => {
            view! { <section class="panel pictures embed-single"><mesh_view::MeshView/></section> }.into_any()
        }
        EmbedView::Totals => view! { <section class="panel"><traffic::TrafficTotals/></section> }.into_any(),
        EmbedView::Traffic => view! { <section class="panel"><traffic::TrafficPanel/></section> }.into_any(),
        EmbedView::Strategies => {
            provide_context(strategies::WithoutTensorView);
            view! { <section class="panel"><strategies::StrategyComparison/></section> }.into_any()
        }
        EmbedView::Cycle => {
            // The cycle alone shows no layout: s is not offered from one (it took the link's layout, unseen:
            // the toy's s = 0.67, "the cycle got 1.042× slower"). A link carries s as a number, however it
            // was set.
            provide_context(cycle::NoLayout);
            view! { <cycle::CycleEmbed/> }.into_any()
        }
    };
    // The cycle's own one line (it had none, while every layout embed said what it shows).
    let caption = if view == EmbedView::Cycle {
        let line = move || {
            let line = cycle_state.spec.with(|spec| {
                cycle_state.report.with(|report| crate::core::cycle::describe_cycle(spec, report.as_ref()))
            });
            // Each number kept with its unit, and "s = 4" whole: a phone broke "refit 10 / s".
            crate::chart::readout::units_kept(&crate::core::spec::for_display(&line)).replace(" = ", "\u{a0}=\u{a0}")
        };
        view! { <p class="change-description" data-testid="embed-cycle-caption">{line}</p> }.into_any()
    } else {
        view! { <ChangeSummary title_id="embed-change-title" without_strategy=view == EmbedView::Strategies/> }
            .into_any()
    };
    // A link made while the layout (or, for the cycle, the cycle) had problems: say them, as a text block's
    // widget does, rather than draw the default the app falls back to (a reader would take it for the
    // author's), or the cycle's last valid answer with a pointer to an editor the embed does not have.
    let problems = move || {
        let (what, lines): (&str, Vec<String>) = if view == EmbedView::Cycle {
            let lines = cycle_state.checked.with(|checked| {
                checked.as_ref().err().map(|found| found.iter().map(|p| p.to_string()).collect()).unwrap_or_default()
            });
            ("This embed describes an impossible cycle:", lines)
        } else {
            let lines = state.checked.with(|checked| {
                checked.as_ref().err().map(|e| e.problems.iter().map(|p| p.to_string()).collect()).unwrap_or_default()
            });
            ("This embed describes an impossible layout:", lines)
        };
        (!lines.is_empty()).then(|| {
            view! {
                <div class="widget-problems" role="alert" data-testid="embed-problems">
                    <p class="problem">{what}</p>
                    <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
                </div>
            }
        })
    };
    let drawable = move || {
        if view == EmbedView::Cycle {
            cycle_state.checked.with(Result::is_ok)
        } else {
            state.checked.with(Result::is_ok)
        }
    };
    let root = NodeRef::<leptos::html::Div>::new();
    report_height(root);
    view! {
        <div class="embed" data-testid="embed" node_ref=root>
            <div class="embed-bar">
                <div class="embed-caption" hidden=move || !drawable()>{caption}</div>
                <a class="embed-open" href=open_href target="_blank" rel="noopener" data-testid="embed-open">
                    "Open in Reshard Lens ↗"
                </a>
            </div>
            {problems}
            <div class="embed-body" hidden=move || !drawable()>{body}</div>
        </div>
    }
}

/// In an iframe, posts the embed's height to the page around it whenever it changes ([`HEIGHT_MESSAGE`]):
/// the share menu measures its snippet's height with it, and a host page may size the iframe by it
/// (README, "Embeds"). A fixed height cut the traffic view's link table mid-row.
fn report_height(root: NodeRef<leptos::html::Div>) {
    use wasm_bindgen::{JsCast, JsValue, closure::Closure};
    use web_sys::js_sys::{Object, Reflect};
    let Some(window) = web_sys::window() else { return };
    let Some(parent) = window.parent().ok().flatten().filter(|parent| *parent != window) else { return };
    root.on_load(move |embed| {
        let embed: web_sys::Element = embed.into();
        // The page's padding around the embed counts too.
        let measured = embed.closest(".embed-shell").ok().flatten().unwrap_or_else(|| embed.clone());
        let href = window.location().href().unwrap_or_default();
        let post = Closure::<dyn Fn()>::new(move || {
            let height = (measured.get_bounding_client_rect().bottom() + window.scroll_y().unwrap_or(0.0)).ceil();
            let message = Object::new();
            for (key, value) in
                [("type", JsValue::from_str(HEIGHT_MESSAGE)), ("height", height.into()), ("href", href.as_str().into())]
            {
                let _ = Reflect::set(&message, &key.into(), &value);
            }
            // Only a height and the embed's own address: nothing any page may not know.
            let _ = parent.post_message(&message, "*");
        });
        if let Ok(observer) = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()) {
            observer.observe(&embed);
            // Both live as long as the embed's page.
            post.forget();
        }
    });
}

/// In an iframe, takes the theme its page asks for ([`THEME_MESSAGE`], `{type: "reshard-lens:theme", theme:
/// "light" | "dark" | "auto"}`): a documentation site with its own theme switch could only reload the frame
/// with another `?theme=`, losing what the reader changed in it (review 53). From the parent page only.
fn follow_theme_messages() {
    use web_sys::js_sys::Reflect;
    let Some(window) = web_sys::window() else { return };
    let Some(parent) = window.parent().ok().flatten().filter(|parent| *parent != window) else { return };
    let parent: wasm_bindgen::JsValue = parent.into();
    let listener = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
        let data = ev.data();
        let field = |key: &str| Reflect::get(&data, &key.into()).ok().and_then(|v| v.as_string());
        if ev.source().map(wasm_bindgen::JsValue::from).as_ref() != Some(&parent)
            || field("type").as_deref() != Some(THEME_MESSAGE)
        {
            return;
        }
        let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
        match (field("theme").as_deref(), root) {
            (Some(theme @ ("light" | "dark")), Some(root)) => drop(root.set_attribute("data-theme", theme)),
            (Some("auto"), Some(root)) => drop(root.remove_attribute("data-theme")),
            _ => {}
        }
    });
    // As long as the embed's page.
    std::mem::forget(listener);
}

/// The `?embed=` page: the chosen view, or what was wrong with the choice.
#[component]
pub fn EmbedPage(
    /// The `embed` query parameter as given.
    name: String,
    /// Why the link's state could not be opened, if it could not.
    link_problem: Option<String>,
) -> impl IntoView {
    let app_url = web_sys::window()
        .and_then(|w| Some(format!("{}{}", w.location().origin().ok()?, w.location().pathname().ok()?)))
        .unwrap_or_default();
    follow_theme_messages();
    // A preset of the other kind (a cycle under a layout view, or the reverse) says so over the default.
    let link_problem = link_problem.or_else(|| {
        let preset = super::name_parameter("preset")?;
        EmbedView::parse(&name).ok().and(crate::share::embed::preset_mismatch(name.trim(), &preset))
    });
    let link_problem = link_problem.or_else(|| {
        let from_link = web_sys::window().and_then(|w| w.location().hash().ok()).is_some_and(|h| h.len() > 1);
        let (page, model) = (super::name_parameter("view"), super::name_parameter("model"));
        EmbedView::parse(&name).ok()?;
        crate::share::embed::inventory_not_embedded(name.trim(), page.as_deref(), model.as_deref(), from_link)
    });
    let problem =
        link_problem.map(|message| view! { <p class="problem" role="alert" data-testid="link-problem">{message}</p> });
    // A view that does not exist says so over the default one (the cycle's for a cycle preset): a frame
    // with a message alone left a docs page with nothing to look at.
    let (view, unknown) = match EmbedView::parse(&name) {
        Ok(view) => (view, None),
        Err(message) => {
            let cycle_preset = super::name_parameter("preset").is_some_and(|p| p.starts_with("cycle-"));
            let fallback = if cycle_preset { EmbedView::Cycle } else { EmbedView::Tensor };
            let shown = if cycle_preset { "the RL cycle" } else { "the tensor view" };
            let message = format!("{message}. Showing {shown} instead.");
            (fallback, Some(view! { <p class="problem" role="alert" data-testid="embed-problem">{message}</p> }))
        }
    };
    view! {
        <div class="shell embed-shell">
            {problem}
            {unknown}
            <EmbeddedView view app_url/>
        </div>
    }
}
