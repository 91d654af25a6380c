//! The strategy comparison: intersection, whole shard and gather-then-broadcast on the same layouts, as a
//! table and a small bar chart with each one's ratio to the intersection; plus the choice of which plan the
//! other views show, and the toggle that draws the whole-shard transfer in the tensor view.

use leptos::prelude::*;

use super::{AppState, StrategyRow, after_paint::after_paint, fit::observed_width, keyed::keyed};
use crate::chart::bars::{NamePlace, Rows, bar_length, name_place, ratio_text};
use crate::chart::readout::{unbroken, units_kept};
use crate::chart::scale::group_thousands;
use crate::core::plan::Strategy;
use crate::core::traffic::{Relayed, analyse_relayed, format_bytes, format_seconds};
use crate::ui::ScrollRegion;
use crate::ui::tensor_view::whole_shard::WholeShardToggle;

/// A figure compared across strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Metric {
    BytesReceived,
    BytesSent,
    UniqueEntries,
    EntriesMoved,
    LargestLink,
    Messages,
    EstimatedTime,
}

impl Metric {
    const TABLE: [Metric; 7] = [
        Metric::BytesReceived,
        Metric::BytesSent,
        Metric::UniqueEntries,
        Metric::EntriesMoved,
        Metric::LargestLink,
        Metric::Messages,
        Metric::EstimatedTime,
    ];
    /// The unique entries are the same for every strategy: nothing to chart.
    const CHART: [Metric; 4] = [Metric::BytesReceived, Metric::LargestLink, Metric::Messages, Metric::EstimatedTime];

    fn label(self) -> &'static str {
        match self {
            Metric::BytesReceived => "Bytes received by devices",
            Metric::BytesSent => "Bytes sent by devices",
            Metric::UniqueEntries => "Unique logical entries",
            Metric::EntriesMoved => "Entries moved",
            Metric::LargestLink => "Bytes crossing the busiest link",
            Metric::Messages => "Messages",
            Metric::EstimatedTime => "Estimated time (model, lower bound)",
        }
    }
    /// One line saying what is counted.
    fn definition(self) -> &'static str {
        match self {
            Metric::BytesReceived => "summed over destinations, from other devices",
            // Apart from bytes received only for gather, whose root collects what no destination receives.
            Metric::BytesSent => "summed over senders: every message once, a root's gathering included",
            Metric::UniqueEntries => "entries of the logical tensor, each once",
            Metric::EntriesMoved => "an entry counts again for every receiver, local copies included",
            Metric::LargestLink => "the most bytes on any one link and direction",
            Metric::Messages => "pieces that cross a link, all devices together",
            Metric::EstimatedTime => {
                "max over links (load ÷ bandwidth) + latency × most messages one device sends or receives"
            }
        }
    }
    fn test_name(self) -> &'static str {
        match self {
            Metric::BytesReceived => "bytes-received",
            Metric::BytesSent => "bytes-sent",
            Metric::UniqueEntries => "unique-entries",
            Metric::EntriesMoved => "entries-moved",
            Metric::LargestLink => "largest-link",
            Metric::Messages => "messages",
            Metric::EstimatedTime => "estimated-time",
        }
    }
    fn value(self, row: &StrategyRow) -> f64 {
        let t = &row.totals;
        match self {
            Metric::BytesReceived => t.bytes_received as f64,
            Metric::BytesSent => t.bytes_sent as f64,
            Metric::UniqueEntries => t.unique_entries as f64,
            Metric::EntriesMoved => t.entries_moved as f64,
            Metric::LargestLink => t.max_link_bytes as f64,
            Metric::Messages => t.messages as f64,
            Metric::EstimatedTime => row.estimate.seconds,
        }
    }
    fn text(self, row: &StrategyRow) -> String {
        let t = &row.totals;
        match self {
            Metric::BytesReceived => format_bytes(t.bytes_received),
            Metric::BytesSent => format_bytes(t.bytes_sent),
            Metric::UniqueEntries => group_thousands(t.unique_entries),
            Metric::EntriesMoved => group_thousands(t.entries_moved),
            Metric::LargestLink => format_bytes(t.max_link_bytes),
            Metric::Messages => group_thousands(t.messages),
            Metric::EstimatedTime => format_seconds(row.estimate.seconds),
        }
    }
}

/// A short name for bar labels and column heads.
pub(crate) fn short_name(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Intersection => "Intersection",
        Strategy::WholeShard => "Whole shard",
        Strategy::Gather => "Gather then broadcast",
    }
}

/// The baseline row: the intersection plan.
fn baseline(rows: &[StrategyRow]) -> Option<&StrategyRow> {
    rows.iter().find(|r| r.strategy == Strategy::Intersection)
}

/// Provided where the comparison is shown without the tensor view (an embed of the strategies alone).
#[derive(Clone, Copy)]
pub struct WithoutTensorView;

/// The comparison panel.
#[component]
pub fn StrategyComparison() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Planning the two other strategies takes tens of milliseconds on a large change: the comparison follows
    // an edit one paint after the traffic panel, so neither the pictures nor the tables wait for it.
    let rows =
        after_paint(move || state.settled_change.track(), move || state.comparison.with_untracked(|c| c.to_vec()));

    // Alone (an embed of the comparison), no view shows a plan: the intersection's column stays marked as
    // the ratios' base, without its "shown" (analysis.css, `is-alone`).
    let alone = use_context::<WithoutTensorView>().is_some();
    view! {
        <div class=if alone { "strategies analysis is-alone" } else { "strategies analysis" } data-testid="strategies">
            <header class="analysis-head">
                <h2 class="analysis-title">"Compare strategies"</h2>
                <p class="analysis-lede">"The same change, planned three ways. Ratios are to the intersection: 2× is twice its amount, 0.5× half. Each is a cost: lower is better."</p>
            </header>
            <div class="strategy-controls">
                // Not in an embed of the comparison alone: there are no views to show a plan in, nor a tensor
                // view to draw the whole-shard transfer in (the choice only changed the caption).
                {(!alone).then(|| view! {
                    <StrategyChoice/>
                    <WholeShardToggle
                        testid="strategies-whole-shard-toggle"
                        label="Show the whole-shard transfer in the tensor view"
                        note="what each receiver gets whole and then discards, hatched"
                    />
                })}
            </div>
            <div class="strategy-body">
                <ComparisonTable rows=rows/>
                <ComparisonChart rows=rows/>
            </div>
            <RelayNote/>
            {move || rows.with(|rows| latency_text(rows)).map(|text| view! {
                <p class="relay-note" data-testid="latency-note"><strong>"Mostly message latency "</strong>{text}</p>
            })}
            {move || rows.with(|rows| gather_text(rows)).map(|text| view! {
                <p class="relay-note" data-testid="gather-note"><strong>"Gather then broadcast "</strong>{text}</p>
            })}
        </div>
    }
}

/// Said when every strategy's time is mostly latency (the toy: 15 µs of latency against 0.16 ns of bytes):
/// then the times compare message counts, not bytes, and a newcomer read "send only the intersection" as no
/// faster (review 39; the constraint check said why, behind a closed panel).
fn latency_text(rows: &[StrategyRow]) -> Option<String> {
    let bytes_seconds = rows.iter().map(|r| r.estimate.bandwidth_seconds).fold(0.0, f64::max);
    let latency = rows.first()?.estimate.latency_us;
    rows.iter().all(|r| r.estimate.latency_seconds > r.estimate.bandwidth_seconds).then(|| {
        format!(
            "every strategy's estimated time is mostly the {} each message costs; the busiest link's bytes take \
             at most {}. At this size the times compare message counts, not bytes: compare the bytes above, or \
             give the tensor a real size, where the bytes take over.",
            unbroken(format!("{latency} µs")),
            unbroken(format_seconds(bytes_seconds)),
        )
    })
}

/// Said when the model times gather then broadcast at or under the intersection (the toy: 10 µs against
/// 15 µs, with twice the bytes sent). The model's bound reads every link's load as carried at once, which
/// gather's two phases cannot do: a reader comparing the times would take the model for the strategy.
fn gather_text(rows: &[StrategyRow]) -> Option<String> {
    let direct = baseline(rows)?;
    let gather = rows.iter().find(|r| r.strategy == Strategy::Gather)?;
    (gather.estimate.seconds <= direct.estimate.seconds).then(|| {
        let (sent, direct_sent) = (gather.totals.bytes_sent, direct.totals.bytes_sent);
        // Why it is timed faster. Fewer bytes only where the root adds partial sums: each destination then
        // gets one sum, not every contributor's partial (the partial preset's reader took the caveat below
        // for a claim that gather sent more).
        let (messages, direct_messages) = (gather.estimate.max_messages, direct.estimate.max_messages);
        let why = if sent < direct_sent {
            "its root adds the partial sums it gathers, so each destination receives one sum instead of every \
             device's partial (the partial sums panel shows reducing first)"
                .to_string()
        } else if messages < direct_messages {
            format!(
                "more bytes, but at most {messages} messages at one device against {direct_messages}, and the \
                 model charges each message its latency"
            )
        } else {
            "more bytes, but spread over more links, and the model charges the busiest link only".to_string()
        };
        format!(
            "is timed at {} against the intersection's {}, with {} sent against {}: {why}. The model also loads \
             every link at once; here the root gathers before its ring starts and each hop waits for the one \
             before, so the real transfer takes longer than this bound.",
            unbroken(format_seconds(gather.estimate.seconds)),
            unbroken(format_seconds(direct.estimate.seconds)),
            unbroken(format_bytes(sent)),
            unbroken(format_bytes(direct_sent)),
        )
    })
}

/// What relaying inside the destination's nodes would change, when a replicated destination receives the
/// same box twice over one node's NICs: the article's "a replicated destination can require several local
/// copies even when a particular expensive link carries a contribution only once", with this layout's numbers.
#[component]
fn RelayNote() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Planned again only for a replicated destination, and after the paint like the comparison; the note
    // is kept as its text (one signal type the app has, rather than one for the figures).
    let note = after_paint(
        move || state.settled_change.track(),
        move || {
            let relayed = state.reshard.with_untracked(|r| analyse_relayed(r).ok().flatten())?;
            let direct = state.comparison.with_untracked(|rows| baseline(rows).cloned())?;
            relay_text(&relayed, &direct)
        },
    );
    move || {
        note.get().map(|text| {
            view! {
                <p class="relay-note" data-testid="relay-note"><strong>"Relaying inside a node "</strong>{units_kept(&text)}</p>
            }
        })
    }
}

/// The relay note's text after its bold name, or `None` when relaying changes nothing shown.
fn relay_text(relayed: &Relayed, direct: &StrategyRow) -> Option<String> {
    let (totals, estimate) = (relayed.traffic.totals(), relayed.traffic.estimate());
    let (forwarded, forwarded_bytes) = (relayed.forwarded, relayed.forwarded_bytes);
    let (busiest, was) = (totals.max_link_bytes, direct.totals.max_link_bytes);
    let (seconds, before) = (estimate.seconds, direct.estimate.seconds);
    // Nothing to say when nothing changes (the forwarded copies were not on the busiest link).
    if busiest == was && (seconds - before).abs() <= before * 1e-9 {
        return None;
    }
    let moved = format!(
        "{} piece{} ({})",
        group_thousands(forwarded),
        if forwarded == 1 { "" } else { "s" },
        format_bytes(forwarded_bytes)
    );
    let received = format!(
        // The article calls these copies "local"; this page's local copy is a device's copy to itself (review
        // 33), so they are named by what they are: read aloud, the parenthesis that untangled the two words
        // tangled the sentence (review 52).
        "Bytes received by devices stay {}: every replica still receives its own copy, now forwarded inside \
         the node (the article's several copies for a replicated destination).",
        format_bytes(totals.bytes_received)
    );
    // The same load on the busiest link, yet another time: the link that bounds it changed ("16 MiB instead
    // of 16 MiB" said nothing).
    let busiest_text = if busiest != was {
        // In bytes when the units would round both alike ("16.4 GiB instead of 16.4 GiB", review 37).
        let (now, before) = match (format_bytes(busiest), format_bytes(was)) {
            (now, before) if now == before => {
                (format!("{} B", group_thousands(busiest)), format!("{} B", group_thousands(was)))
            }
            texts => texts,
        };
        format!("The busiest link would carry {now} instead of {before}")
    } else {
        match estimate.bounding_link {
            Some(link) if direct.estimate.bounding_link != Some(link) => format!(
                "The busiest link would still carry {}, but the time would be bound by {} of d{} ({} in {})",
                format_bytes(busiest),
                link.link.name(),
                link.device,
                format_bytes(link.bytes),
                format_seconds(link.seconds)
            ),
            _ => format!("The busiest link would still carry {}", format_bytes(busiest)),
        }
    };
    Some(if seconds < before {
        format!(
            "(not one of the three strategies): if a box sent to several devices of one node crossed its NIC \
             once and its receivers passed it on down a chain over NVLink, {moved} would travel inside the node \
             instead. {busiest_text}, and the estimate would be {} instead of {}. {received}",
            format_seconds(seconds),
            format_seconds(before),
        )
    } else {
        // Slow links inside the node can make it worse.
        format!(
            "(not one of the three strategies) would not help here: forwarding {moved} inside the node \
             instead of across a NIC makes the estimate {} instead of {}, since NVLink then carries the \
             copies. {received}",
            format_seconds(seconds),
            format_seconds(before),
        )
    })
}

/// Which strategy's plan the other views show: a segmented control of radio buttons.
#[component]
fn StrategyChoice() -> impl IntoView {
    let state = expect_context::<AppState>();
    let options = Strategy::ALL
        .into_iter()
        .map(|strategy| {
            let checked = move || state.strategy.get() == strategy;
            view! {
                <label class="segment" class:selected=checked data-testid=format!("strategy-option-{}", strategy.name())>
                    <input
                        type="radio"
                        name="strategy"
                        value=strategy.name()
                        prop:checked=checked
                        on:change=move |_| state.strategy.set(strategy)
                    />
                    <span class=format!("swatch strategy-{}", strategy.name()) aria-hidden="true"></span>
                    {short_name(strategy)}
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="segmented" data-testid="strategy-choice">
            <legend class="control-label">"Plan shown in the views"</legend>
            <div class="segments">{options}</div>
        </fieldset>
    }
}

/// Metrics down, strategies across; every cell with its ratio to the intersection. Rows are keyed by what
/// they show, so a re-plan redraws only the rows whose figures changed.
#[component]
fn ComparisonTable(
    /// One row per strategy that planned.
    rows: ReadSignal<Vec<StrategyRow>>,
) -> impl IntoView {
    let strategies = move || rows.with(|rows| rows.iter().map(|r| r.strategy).collect::<Vec<_>>());
    let metric_rows = move || rows.with(|rows| Metric::TABLE.map(|metric| (metric, rows.clone())));
    view! {
        <ScrollRegion label="Strategies compared, scrollable">
            // On a phone, a card per quantity (inventory.css): as columns, gather's stood behind a sideways
            // scroll (review 38).
            <table class="strategy-table cards-on-phone" data-testid="strategy-table" aria-label="The three strategies compared">
                <thead>
                    <tr>
                        <th scope="col">"Quantity"</th>
                        {keyed(strategies, head_cell)}
                    </tr>
                </thead>
                <tbody>{keyed(metric_rows, metric_row)}</tbody>
            </table>
        </ScrollRegion>
    }
}

/// The column head of one strategy, marked when its plan is the one shown.
fn head_cell(strategy: Strategy) -> impl IntoView {
    let state = expect_context::<AppState>();
    let current = move || state.strategy.get() == strategy;
    // The swatch is glued to the name's first word: a head that wraps left it alone on a line above
    // "INTERSECTION", while "WHOLE SHARD" kept its swatch inline.
    let name = short_name(strategy);
    let (first, rest) = name.split_once(' ').unwrap_or((name, ""));
    view! {
        <th scope="col" class="num" class:current=current>
            <span class="head-lead">
                <span class=format!("swatch strategy-{}", strategy.name()) aria-hidden="true"></span>
                {first}
            </span>
            {(!rest.is_empty()).then(|| format!(" {rest}"))}
            <Show when=current>
                <span class="current-mark">"shown"</span>
            </Show>
        </th>
    }
}

/// One metric's row of the table: its value for every strategy, with the ratio to the intersection.
fn metric_row((metric, rows): (Metric, Vec<StrategyRow>)) -> impl IntoView {
    let state = expect_context::<AppState>();
    let base = baseline(&rows).map(|b| metric.value(b));
    let cells = rows
        .iter()
        .map(|row| {
            let strategy = row.strategy;
            let current = move || state.strategy.get() == strategy;
            let ratio = match (metric, base) {
                (Metric::UniqueEntries, _) | (_, None) => None,
                (_, Some(base)) => Some(ratio_text(metric.value(row), base)),
            };
            view! {
                <td
                    class="num"
                    class:current=current
                    data-label=short_name(strategy)
                    data-testid=format!("compare-{}-{}", metric.test_name(), strategy.name())
                >
                    <span class="cmp-value">{metric.text(row)}</span>
                    {ratio.map(|r| view! { <span class="cmp-ratio">{r}</span> })}
                </td>
            }
        })
        .collect_view();
    view! {
        <tr>
            <th scope="row">
                <span class="metric-label">{metric.label()}</span>
                <span class="metric-definition">{metric.definition()}</span>
            </th>
            {cells}
        </tr>
    }
}

/// Bars per metric, one per strategy, each labelled with its strategy, value and ratio.
#[component]
fn ComparisonChart(
    /// One row per strategy that planned.
    rows: ReadSignal<Vec<StrategyRow>>,
) -> impl IntoView {
    let charts = move || rows.with(|rows| Metric::CHART.map(|metric| (metric, rows.clone())));
    view! {
        <div class="strategy-chart" data-testid="strategy-chart" role="group" aria-label="The comparison as bars">
            {keyed(charts, |(metric, rows)| view! { <MetricBars metric=metric rows=rows/> })}
        </div>
    }
}

/// Layout of one metric's bars, in SVG units (1:1 with CSS pixels at most).
// Text at 13–14 px, readable on a projector from the back of a room.
const CHART_WIDTH: f64 = 480.0;
const NAME_WIDTH: f64 = 160.0;
/// Room after a bar for its value and ratio (`1.5 MiB  4.00×`).
const VALUE_ROOM: f64 = 170.0;
/// The least that holds the names beside the bars: the names, the value's room and a 30-unit bar.
const NARROWEST_BESIDE: f64 = 360.0;
/// The least with the names above the bars: the value's room and a 50-unit bar.
const NARROWEST: f64 = 220.0;
const ROWS: Rows = Rows::new(4.0, 17.0, 8.0);
/// A row with its name on a line above the bar: the name's line, then the bar as in [`ROWS`].
const ROWS_ABOVE: Rows = Rows::new(4.0, 35.0, 7.0);
const NAME_LINE: f64 = 18.0;

/// Where row `index`'s name, bar (its top) and value (its middle) stand.
struct RowPlaces {
    name: (f64, f64),
    bar_top: f64,
    value_middle: f64,
}

fn row_places(place: NamePlace, index: usize) -> RowPlaces {
    match place {
        NamePlace::Beside(_) => RowPlaces {
            name: (NAME_WIDTH - 8.0, ROWS.middle(index)),
            bar_top: ROWS.y(index),
            value_middle: ROWS.middle(index),
        },
        NamePlace::Above(_) => {
            let top = ROWS_ABOVE.y(index);
            RowPlaces {
                name: (0.0, top + NAME_LINE / 2.0 - 1.0),
                bar_top: top + NAME_LINE,
                value_middle: top + NAME_LINE + ROWS.height / 2.0,
            }
        }
    }
}

/// The longest bar: what is left beside the names (when beside) and the values.
fn bar_full(place: NamePlace) -> f64 {
    let names = if matches!(place, NamePlace::Beside(_)) { NAME_WIDTH } else { 0.0 };
    (place.width() - names - VALUE_ROOM).max(30.0)
}

/// One metric across the strategies.
#[component]
fn MetricBars(
    /// What is compared.
    metric: Metric,
    /// One row per strategy that planned.
    rows: Vec<StrategyRow>,
) -> impl IntoView {
    let max = rows.iter().map(|r| metric.value(r)).fold(0.0, f64::max);
    let base = baseline(&rows).map(|b| metric.value(b));
    let count = rows.len();
    let height = move |place: NamePlace| {
        let rows = if matches!(place, NamePlace::Beside(_)) { ROWS } else { ROWS_ABOVE };
        rows.top + rows.extent(count) + 4.0
    };
    let label = format!(
        "{}: {}",
        metric.label(),
        rows.iter().map(|r| format!("{} {}", short_name(r.strategy), metric.text(r))).collect::<Vec<_>>().join(", ")
    );
    // Drawn one unit a pixel, so that the labels keep their size in a narrow box (a phone): the bars get
    // shorter, then the names move above them.
    let svg = NodeRef::new();
    let px = observed_width(svg);
    let place = Memo::new(move |_| name_place(px.get(), CHART_WIDTH, NARROWEST_BESIDE, NARROWEST));
    let bars = move || {
        let place = place.get();
        let full = bar_full(place);
        let bar_x = if matches!(place, NamePlace::Beside(_)) { NAME_WIDTH } else { 0.0 };
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                let at = row_places(place, i);
                let length = bar_length(metric.value(row), max, full, 1.5);
                let ratio = base.map(|b| ratio_text(metric.value(row), b)).unwrap_or_default();
                let value = format!("{}  {}", metric.text(row), ratio);
                view! {
                    <text class="chart-name" x=at.name.0 y=at.name.1>{short_name(row.strategy)}</text>
                    <rect
                        class=format!("chart-bar strategy-{}", row.strategy.name())
                        x=bar_x
                        y=at.bar_top
                        width=length
                        height=ROWS.height
                        rx="2"
                    />
                    <text class="chart-value" x=bar_x + length + 6.0 y=at.value_middle>{value}</text>
                }
            })
            .collect_view()
    };
    // The title above the picture in the page's text, which wraps: drawn in it, at 320 px "Estimated time
    // (model, lower bound)" ran past the picture's edge.
    view! {
        <figure class="metric">
            <figcaption class="metric-title">{metric.label()}</figcaption>
            <svg
                node_ref=svg
                class="metric-bars"
                class:names-above=move || matches!(place.get(), NamePlace::Above(_))
                role="img"
                aria-label=label
                viewBox=move || format!("0 0 {} {}", place.get().width(), height(place.get()))
                data-testid=format!("strategy-chart-{}", metric.test_name())
            >
                {bars}
            </svg>
        </figure>
    }
}
