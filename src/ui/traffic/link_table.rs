//! The per-link table: bytes crossing each link, sortable by any column, the busiest link marked.
//!
//! Bounded: the first [`SHOWN`] rows of the chosen order; "show all" is offered only up to [`SHOW_ALL_LIMIT`]
//! links, so a 1024 → 256 change never draws thousands of rows.

use leptos::prelude::*;

use super::from_summary;
use crate::chart::bars::bar_length;
use crate::chart::ranking::{LinkColumn, LinkSort};
use crate::chart::scale::group_thousands;
use crate::core::traffic::{LinkKind, LinkLoad, format_bytes, format_seconds};
use crate::ui::AppState;
use crate::ui::ScrollRegion;

/// Rows shown before "show all".
const SHOWN: usize = 20;
/// More links than this are never all drawn: sorting reaches either end of the list instead.
const SHOW_ALL_LIMIT: usize = 256;

/// Which link a row is, for marking the busiest and the bounding one.
type LinkId = (u32, LinkKind);

/// Bytes crossing each link of the current plan.
#[component]
pub fn LinkTable() -> impl IntoView {
    let state = expect_context::<AppState>();
    let links = from_summary(state, |s| s.traffic.links());
    let busiest: Memo<Option<LinkId>> =
        Memo::new(move |_| links.with(|l| l.as_ref().and_then(|l| l.first()).map(|l| (l.device, l.link))));
    // From the same (settled) plan as the rows: the live plan would mark a row of the next one for a paint.
    let bounding = from_summary(state, |s| s.traffic.estimate().bounding_link.map(|l| (l.device, l.link)));
    let bounding: Memo<Option<LinkId>> = Memo::new(move |_| bounding.get().flatten());
    let sort = RwSignal::new(LinkSort::default());
    let show_all = RwSignal::new(false);

    let total = move || links.with(|l| l.as_ref().map_or(0, Vec::len));
    let max_bytes = move || links.with(|l| l.as_ref().and_then(|l| l.first()).map_or(0, |l| l.bytes));
    let rows = Memo::new(move |_| {
        let limit = if show_all.get() { SHOW_ALL_LIMIT } else { SHOWN };
        links.with(|l| {
            let mut sorted = l.clone().unwrap_or_default();
            sort.get().apply(&mut sorted);
            sorted.truncate(limit);
            sorted
        })
    });
    let caption = move || {
        let (total, shown) = (total(), rows.with(Vec::len));
        if total == 0 {
            "No byte crosses a link: every piece is a local copy.".to_string()
        } else if shown < total {
            format!(
                "The first {shown} of {} links in this order. Time: load ÷ bandwidth.",
                group_thousands(total as u64)
            )
        } else {
            format!("All {} links that carry bytes. Time: load ÷ bandwidth.", group_thousands(total as u64))
        }
    };
    let can_show_all = move || total() > SHOWN && total() <= SHOW_ALL_LIMIT;
    let too_many = move || total() > SHOW_ALL_LIMIT;

    view! {
        <section class="link-table-box" aria-labelledby="link-table-title">
            <h3 class="analysis-subtitle" id="link-table-title">"Bytes crossing each link"</h3>
            <p class="analysis-caption" data-testid="link-caption">{caption}</p>
            <ByLinkClass/>
            <ScrollRegion label="Links, scrollable">
                <table class="link-table" data-testid="link-table" aria-labelledby="link-table-title">
                    <thead>
                        <tr>
                            <SortHeader sort=sort column=LinkColumn::Device label="Device"/>
                            <SortHeader sort=sort column=LinkColumn::Link label="Link"/>
                            <SortHeader sort=sort column=LinkColumn::Bytes label="Bytes" numeric=true/>
                            <th scope="col" class="load-col">
                                <span class="visually-hidden">"Load relative to the busiest link"</span>
                            </th>
                            <SortHeader sort=sort column=LinkColumn::Seconds label="Time" numeric=true/>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || rows.get()
                            key=|l| (l.device, l.link, l.bytes)
                            let(link)
                        >
                            <LinkRow link=link busiest=busiest bounding=bounding max_bytes=Signal::derive(max_bytes)/>
                        </For>
                    </tbody>
                </table>
            </ScrollRegion>
            <Show when=can_show_all>
                <button
                    type="button"
                    class="text-button"
                    data-testid="link-show-all"
                    aria-expanded=move || show_all.get().to_string()
                    on:click=move |_| show_all.update(|s| *s = !*s)
                >
                    {move || if show_all.get() { format!("Show the first {SHOWN}") } else { format!("Show all {} links", total()) }}
                </button>
            </Show>
            <Show when=too_many>
                <p class="analysis-caption">"Too many links to list them all: sort by a column to see either end."</p>
            </Show>
            <p class="legend-line">
                <span class="badge badge-busiest">"busiest"</span> " the link with the most bytes "
                <span class="badge badge-bound">"bounds time"</span> " the link with the longest load ÷ bandwidth"
            </p>
            <p class="legend-line"><LinkClassKey directions=true/></p>
        </section>
    }
}

/// The plan's bytes by class of link, above the rows they add up: how much crosses NVLink and how much the
/// NIC is the first question of a design review, and the rows gave it only summed by hand (review 37).
#[component]
fn ByLinkClass() -> impl IntoView {
    let state = expect_context::<AppState>();
    let classes = from_summary(state, |s| s.traffic.by_link_class());
    move || {
        let [(_, local), (_, nvlink), (_, nic)] = classes.get()?;
        let sent = nvlink.saturating_add(nic);
        // A share of the bytes sent: "all" in a word, none left unsaid beside its 0 B.
        let share = move |bytes: u64| match bytes {
            0 => String::new(),
            _ if bytes == sent => " (all)".to_string(),
            _ => format!(" ({})", crate::chart::readout::percent(bytes as f64 * 100.0 / sent as f64)),
        };
        Some(view! {
            <p class="link-classes" data-testid="link-classes">
                "Bytes sent, by the links they cross: "
                <span class="link link-nvlink">"NVLink"</span>
                " (same node) "
                <strong data-testid="link-class-nvlink">{format_bytes(nvlink)}</strong>
                {share(nvlink)}
                " · "
                <span class="link link-nic">"NIC"</span>
                " (across nodes) "
                <strong data-testid="link-class-nic">{format_bytes(nic)}</strong>
                {share(nic)}
                {(local > 0).then(|| view! {
                    "; besides, "
                    <strong data-testid="link-class-local">{format_bytes(local)}</strong>
                    " copied within devices (no link)"
                })}
                "."
            </p>
        })
    }
}

/// What the link names' colours say, for the legends of the link and piece tables: the link table names
/// each direction of a device's port and has no local copies; the piece table names the class of link.
#[component]
pub fn LinkClassKey(
    /// For the link table: `nvlink_out / nvlink_in`, no local copies.
    directions: bool,
) -> impl IntoView {
    let (nvlink, nic) = if directions { ("nvlink_out / nvlink_in", "nic_out / nic_in") } else { ("nvlink", "nic") };
    view! {
        <span class="link-key" data-testid="link-key">
            <span class="link link-nvlink">{nvlink}</span> " same node · " <span class="link link-nic">{nic}</span>
            " across nodes"
            {(!directions).then(|| view! { " · " <span class="link link-local">"local"</span> " same device, no link" })}
        </span>
    }
}

/// A column header that sorts the table when clicked (or activated by keyboard), with `aria-sort`.
#[component]
fn SortHeader(
    /// The table's sort, shared by all headers.
    sort: RwSignal<LinkSort>,
    /// The column this header sorts by.
    column: LinkColumn,
    /// The header's text.
    label: &'static str,
    /// Right-aligned, for numbers.
    #[prop(optional)]
    numeric: bool,
) -> impl IntoView {
    let aria = move || {
        let s = sort.get();
        if s.column == column { s.direction.aria() } else { "none" }
    };
    let arrow = move || match aria() {
        "ascending" => "▲",
        "descending" => "▼",
        _ => "↕",
    };
    view! {
        <th scope="col" class:num=numeric aria-sort=aria>
            <button
                type="button"
                class="sort-button"
                // Named as written, not as drawn: the head's capitals were read out ("DEVICE"). Named by the
                // column alone: the button's name is the column's, and "Sort by device" was read with every
                // cell (review 41); `aria-sort` and the button's role say it sorts.
                aria-label=label
                data-testid=format!("link-sort-{}", column.name())
                on:click=move |_| sort.update(|s| *s = s.clicked(column))
            >
                {label}
                <span class="sort-arrow" aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}

/// One row of [`LinkTable`].
#[component]
fn LinkRow(
    /// The link and its load.
    link: LinkLoad,
    /// The busiest link of the plan (most bytes).
    busiest: Memo<Option<LinkId>>,
    /// The link that bounds the estimated time (longest load ÷ bandwidth).
    bounding: Memo<Option<LinkId>>,
    /// The busiest link's bytes: the full length of the load bar.
    max_bytes: Signal<u64>,
) -> impl IntoView {
    let id = (link.device, link.link);
    let is_busiest = move || busiest.get() == Some(id);
    let is_bounding = move || bounding.get() == Some(id);
    let class = match link.link {
        LinkKind::NvlinkIn | LinkKind::NvlinkOut => "link link-nvlink",
        LinkKind::NicIn | LinkKind::NicOut => "link link-nic",
    };
    let bar = move || bar_length(link.bytes as f64, max_bytes.get() as f64, 100.0, 1.0);
    view! {
        <tr data-testid="link-row" class:busiest=is_busiest data-busiest=move || is_busiest().to_string()>
            <td data-testid="link-device">"d" {link.device}</td>
            <td>
                <span class=class data-testid="link-kind">{link.link.name()}</span>
                <Show when=is_busiest>
                    " " <span class="badge badge-busiest" data-testid="busiest-badge">"busiest"</span>
                </Show>
                <Show when=is_bounding>
                    " " <span class="badge badge-bound">"bounds time"</span>
                </Show>
            </td>
            <td class="num" data-testid="link-bytes">{format_bytes(link.bytes)}</td>
            <td class="load-col" aria-hidden="true">
                <svg class="load-bar" viewBox="0 0 100 8" preserveAspectRatio="none" width="64" height="8">
                    <rect class="load-track" x="0" y="0" width="100" height="8" rx="2"/>
                    <rect class="load-fill" x="0" y="0" width=bar height="8" rx="2"/>
                </svg>
            </td>
            <td class="num">{format_seconds(link.seconds)}</td>
        </tr>
    }
}
