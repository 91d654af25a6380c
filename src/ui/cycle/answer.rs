//! The answer with its working: the formula with this cycle's numbers, the new cycle, the whole-cycle
//! speedup, the time saved, the bound for an instant transfer, and the plain sentence.

use leptos::prelude::*;

use super::CycleState;
use crate::chart::readout::{decimal, percent, seconds, times, unbroken, unit_fraction, units_kept};
use crate::core::cycle::CycleReport;
use crate::core::traffic::grouped_digits;

/// The substituted formula (`1 - 0.0833 + 0.0833/4 = 0.9375`) in parts that a narrow column may put on
/// separate lines only before an `=`: a line break inside a sum reads as two formulas. Where a phone breaks
/// a part, `1 - f` stays whole (it left "1 -" alone on a line).
fn formula_parts(text: &str) -> impl IntoView + use<> {
    text.split(" = ")
        .enumerate()
        .map(|(i, part)| {
            let part = if i == 0 { part.replacen(" - ", "\u{a0}-\u{a0}", 1) } else { format!("= {part}") };
            view! { {(i > 0).then_some(" ")}<span class="formula-part">{part}</span> }
        })
        .collect_view()
}

/// Whether `shown`, the text of `value`, is the value itself, up to the last bits a float's arithmetic adds
/// (0.9875 computed as 0.98750000000000004 is exact; 0.0833 for 1/12 is not).
fn shown_exactly(shown: &str, value: f64) -> bool {
    shown.parse::<f64>().is_ok_and(|read| (read - value).abs() <= 1e-9 * value.abs().max(1e-300))
}

/// `≈ 1.067×` when three decimals round the value, `4×` when they do not.
fn approx_times(value: f64) -> String {
    if shown_exactly(&decimal(value, 3), value) { times(value) } else { format!("≈ {}", times(value)) }
}

/// `= 4×` when the value is shown exactly, `≈ 1.067×` when rounded: the working reads as an equation.
fn equals_times(value: f64) -> String {
    let shown = approx_times(value);
    if shown.starts_with('≈') { shown } else { format!("= {shown}") }
}

/// Why the formula and the timeline disagree when an overlap binds: part of the transfer runs alongside
/// another stage, so speeding it up saves less than `f` says (the cycle-overlap preset: the formula's
/// bound is 1.096×, the timeline's 1.036×, because 6 of the refit's 10 s run under generation).
fn overlap_verdict(report: &CycleReport) -> String {
    let timeline = format!(
        "The stages overlap, so the formula is only an approximation; the timeline (the truth, used above) gives \
         new/old = {}",
        decimal(report.ratio, 4)
    );
    let transfer = report.refit_before.transfer;
    let hidden = transfer - report.bound.max_seconds_saved;
    match report.bound.max_speedup {
        Some(bound) if hidden > 1e-9 => format!(
            "{timeline} and a bound of {}: {} of the {} transfer runs alongside another stage, so even an instant \
             transfer saves at most {}.",
            approx_times(bound),
            seconds(hidden),
            seconds(transfer),
            seconds(report.bound.max_seconds_saved)
        ),
        _ => format!("{timeline}."),
    }
}

/// Whether the formula's bound `1 / (1 - f)` is the timeline's: an overlap can leave the formula right at
/// this s (a slowdown, say) and still wrong as s grows.
fn bounds_agree(report: &CycleReport) -> bool {
    match (report.formula.bound_speedup, report.bound.max_speedup) {
        (Some(formula), Some(timeline)) => (formula - timeline).abs() <= 1e-9 * timeline,
        (None, None) => true,
        _ => false,
    }
}

/// The answer for the last valid cycle, and a note while the editor holds a problem.
#[component]
pub fn Answer(
    /// The id of the heading, for the section's `aria-labelledby`.
    title_id: &'static str,
) -> impl IntoView {
    let state = expect_context::<CycleState>();
    let stale = move || state.editor_has_problem();
    // The answer in one sentence, said when an edit changes it (changing s or a stage's seconds
    // said nothing to a screen reader).
    let spoken = Memo::new(move |_| state.report.with(|r| r.as_ref().map(|r| r.summary.clone()).unwrap_or_default()));
    view! {
        <h2 class="cycle-section-title" id=title_id>"The answer"</h2>
        <crate::ui::announce::Announcer text=spoken.into() test_id="cycle-announce" settle_ms=crate::ui::announce::AFTER_TYPING_MS/>
        <Show when=stale>
            <p class="cycle-stale" role="status" data-testid="cycle-stale">
                // Named: "see the field marked" left the reader to search a long editor for it.
                {move || match state.problem_place() {
                    Some(place) => format!(
                        "The cycle in the editor has a problem in {place} (its message is under the field); this is \
                         the last valid answer."
                    ),
                    None => "The cycle in the editor has a problem; this is the last valid answer.".to_string(),
                }}
            </p>
        </Show>
        {move || match state.report.get() {
            Some(report) => view! { <Working report/> }.into_any(),
            None => view! { <p class="muted">"Describe a valid cycle to see the answer."</p> }.into_any(),
        }}
    }
}

/// What the refit itself gained, beside the cycle's saving: `refit: 10 s → 2.5 s (75 % less)`. The article
/// sets the two apart (a 6.25 % shorter cycle, not the 75 % that applies to refit's ten seconds). `None`
/// when the refit lasted no time or did not change.
fn refit_change(report: &CycleReport) -> Option<String> {
    // As long as the refit lasts on each timeline, its wait for weights the stage before still makes
    // included: "10 s → 2.5 s" stood beside a refit drawn over 8.5 s.
    let (before, after) = (report.before.lasts(report.refit_stage), report.after.lasts(report.refit_stage));
    if before.is_nan() || before <= 0.0 || seconds(before) == seconds(after) {
        return None;
    }
    let change = (before - after) / before * 100.0;
    let word = if change >= 0.0 { "less" } else { "more" };
    // A number with its unit, and the change in brackets, each on one line: the narrow card broke "(15 / %
    // less)" at 1280 px.
    Some(format!(
        "refit: {} → {} {}",
        unbroken(seconds(before)),
        unbroken(seconds(after)),
        unbroken(format!("({} {word})", percent(change.abs())))
    ))
}

/// Where the refit is more than its transfer, the f here is not the article's (the whole refit stage over
/// the cycle): both are said, and why the smaller one is the one to use (review 39: a reader who knew the
/// article's f took the page's for a mistake).
fn stage_share_note(report: &CycleReport) -> Option<String> {
    let parts = report.refit_before;
    let kept: Vec<String> = [("the wait", parts.wait), ("the preparation", parts.preparation)]
        .into_iter()
        .filter(|&(_, secs)| secs > 0.0)
        .map(|(name, secs)| format!("{name} ({})", seconds(secs)))
        .collect();
    if kept.is_empty() {
        return None;
    }
    let share = report.refit_fraction;
    let equals = if shown_exactly(&decimal(share, 4), share) { "=" } else { "≈" };
    Some(format!(
        "The article's f would be the whole {name} stage's share, {} / {} {equals} {}; here a faster transfer \
         does not shorten {}, so f counts only the transfer.",
        seconds(parts.total()),
        seconds(report.before.cycle_seconds),
        decimal(share, 4),
        kept.join(" or "),
        name = report.refit_name,
    ))
}

/// The numbers of one report.
#[component]
fn Working(report: CycleReport) -> impl IntoView {
    let old = report.before.cycle_seconds;
    let new = report.after.cycle_seconds;
    let f = report.formula.f;
    let s = report.speedup;
    let factor = report.formula.ratio_shown.clone();
    let saved_label = if report.seconds_saved >= 0.0 { "Time saved" } else { "Time lost" };
    let bound_speedup = report.bound.max_speedup.map_or_else(String::new, approx_times);
    let agrees = report.formula.matches_timeline && bounds_agree(&report);
    let verdict = if report.formula.exact {
        "Exact here: no stages overlap.".to_string()
    } else if agrees {
        "The stages overlap, but no overlap binds: the formula matches the timeline.".to_string()
    } else {
        overlap_verdict(&report)
    };
    // With overlapping stages the cards read the timeline: the formula's own numbers are said apart from them
    // before they come (on a slide the verdict under the working was below the fold, and 106.5 s beside the
    // cards' 110 s read as two answers).
    let lead = (!report.formula.exact).then(|| {
        let formula = "The article's formula, which counts the whole transfer as time the cycle waits for";
        if agrees {
            format!("{formula} (the figures above read the timeline):")
        } else if report.formula.matches_timeline {
            // The same cycle at this s; only the bound differs ("gives a 122 s cycle here, where the timeline
            // gives 122 s" read as a contrast).
            format!("{formula}, gives the same {} cycle at this s as the timeline, but not its bound:", seconds(new))
        } else {
            format!(
                "{formula}, gives a {} cycle here, where the timeline the figures above read gives {}:",
                seconds(report.formula.ratio * old),
                seconds(new)
            )
        }
    });
    view! {
        <p class="cycle-summary" data-testid="cycle-summary">{units_kept(&report.summary)}</p>
        <dl class="cycle-numbers">
            <div class="cycle-number-card">
                <dt>"New cycle"</dt>
                <dd class="cycle-big" data-testid="cycle-new">{big(seconds(new))}</dd>
                <dd class="cycle-note">"from " <span data-testid="cycle-old">{seconds(old)}</span></dd>
            </div>
            <div class="cycle-number-card">
                <dt>"Whole-cycle speedup"</dt>
                <dd class="cycle-big" data-testid="cycle-speedup">{big(approx_times(report.cycle_speedup))}</dd>
                <dd class="cycle-note" data-testid="cycle-transfer-speedup">"transfer: " {grouped_digits(&decimal(s, 4))} "×"</dd>
            </div>
            <div class="cycle-number-card">
                <dt>{saved_label}</dt>
                <dd class="cycle-big" data-testid="cycle-percent-saved">{big(percent(report.percent_saved.abs()))}</dd>
                // One note under the number, as in the other cards: the cards share their rows.
                <dd class="cycle-note">
                    <span class="cycle-note-line" data-testid="cycle-seconds-saved">{seconds(report.seconds_saved.abs())}</span>
                    {refit_change(&report).map(|text| {
                        view! { <span class="cycle-note-line" data-testid="cycle-refit-change">{text}</span> }
                    })}
                </dd>
            </div>
            <div class="cycle-number-card">
                <dt>"Bound as s → ∞"</dt>
                <dd class="cycle-big" data-testid="cycle-bound-seconds">{big(seconds(report.bound.best_cycle_seconds))}</dd>
                // A cycle that is all transfer has no bound: "at most no limit faster" said nothing (review 34).
                <dd class="cycle-note">
                    {match report.bound.max_speedup {
                        Some(_) => view! { "at most " <span data-testid="cycle-bound-speedup">{bound_speedup}</span> " faster" }.into_any(),
                        None => view! { <span data-testid="cycle-bound-speedup">"no limit: the cycle is all transfer"</span> }.into_any(),
                    }}
                </dd>
            </div>
        </dl>
        // Where the formula and the timeline disagree, its lines are drawn quieter than the cards: two bounds
        // in bold on one slide read as two answers.
        <div class="cycle-working" class:formula-differs=!agrees aria-label="The working" data-testid="cycle-working">
            {lead.map(|lead| view! { <p class="working-lead" data-testid="cycle-working-lead">{units_kept(&lead)}</p> })}
            <p>
                <span class="working-key">"f"</span>
                " = transfer / cycle = " {unbroken(seconds(report.refit_before.transfer))} " / " {unbroken(seconds(old))}
                {if shown_exactly(&decimal(f, 4), f) { " = " } else { " ≈ " }}
                <span data-testid="cycle-f">{decimal(f, 4)}</span>
                // The article's "one twelfth of the cycle", kept on one line (it wrapped after "the").
                {unit_fraction(f).map(|fraction| view! {
                    " " <span class="working-aside" data-testid="cycle-f-fraction">{format!("({fraction} of the cycle)")}</span>
                })}
            </p>
            {stage_share_note(&report).map(|note| view! {
                <p class="working-note" data-testid="cycle-f-stage">{units_kept(&note)}</p>
            })}
            <p>
                <span class="working-key">"new/old"</span>
                " = 1 − f + f/s = "
                <code class="working-formula" data-testid="cycle-formula">{formula_parts(&report.formula.text)}</code>
            </p>
            <p>
                <span class="working-key">"new cycle"</span>
                " = " {factor.clone()} " × " {unbroken(seconds(old))}
                // "≈" where the ratio is written rounded: 0.9723 × 535 s does not make 520.158 s.
                {if shown_exactly(&factor, report.formula.ratio) { " = " } else { " ≈ " }}
                {unbroken(seconds(report.formula.ratio * old))}
            </p>
            <p>
                <span class="working-key">"speedup"</span>
                " = 1 / " {factor.clone()} " " {equals_times(report.formula.speedup)}
            </p>
            <p>
                <span class="working-key">"bound"</span>
                " = 1 / (1 − f) "
                {report.formula.bound_speedup.map_or_else(|| "= no limit (the cycle is all transfer)".to_string(), equals_times)}
            </p>
            <p class:muted=report.formula.exact class:cycle-verdict-differs=!report.formula.exact data-testid="cycle-verdict">
                {units_kept(&verdict)}
            </p>
        </div>
    }
}

/// A card's number, with its length for its font size (cycle.css): grouped, "100,000,080 s" ran past its card
/// at the size that fits "114.952 s".
fn big(text: String) -> impl IntoView {
    let chars = text.chars().count().to_string();
    view! { <span style:--chars=chars>{text}</span> }
}
