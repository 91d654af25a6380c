//! The constraint check: the current change linted against documented limits of real transports (each rule
//! with its source), and the "semantics diff": where torch.chunk, balanced and JAX's even-only rule give
//! different regions for the viewed tensor. Linting plans the change once more, so it runs one paint after
//! an edit, as the panels below the pictures follow it: its closed summary says what fires (an error kept
//! behind a closed panel was missed in a design review).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::AppState;
use crate::core::lint::{Finding, RuleStatus, Severity, lint, rule_statuses, semantics_diff};

/// The panel, closed by default, its summary saying how many rules fire and how gravely; it follows every
/// edit one paint later.
#[component]
pub fn ConstraintCheck() -> impl IntoView {
    let state = expect_context::<AppState>();
    let open = RwSignal::new(false);
    // One paint after an edit, with the panels below the pictures; not after a strategy switch, which the
    // check does not depend on, nor after a rename: the summary's counts are the check key's (typing a
    // tensor's name checked a 65,536-device change again for each key, 0.4 s). Compared by identity: a new
    // check is news.
    // The last check kept by the state: this panel is drawn anew by Back and undo.
    let checked = Memo::new(move |_| {
        let generation = state.settled_check.get();
        let kept =
            state.lint_kept.with_value(|kept| kept.as_ref().filter(|(g, _)| *g == generation).map(|k| k.1.clone()));
        kept.unwrap_or_else(|| {
            let found = super::Fresh(std::sync::Arc::new(super::timing::measured("constraint check", || {
                state.check_key.with_untracked(lint)
            })));
            state.lint_kept.set_value(Some((generation, found.clone())));
            found
        })
    });
    // The open panel's messages name the tensors: checked from the change itself, names and all.
    let findings = Memo::new(move |_| {
        open.get().then(|| {
            state.settled_change.track();
            super::timing::measured("constraint check, named", || state.reshard.with_untracked(lint))
        })
    });
    // Each severity that fires, gravest first, errors by the transport whose limit they break: "2 NCCL M2N
    // limits broken, 1 note". A bare "2 errors" read as a fault of the layout itself in a review of the
    // partial preset, which is a sound layout that one transport cannot move.
    let fired = move || {
        checked.with(|result| {
            let findings = result.as_ref().ok()?;
            let statuses = rule_statuses(findings);
            let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
            let errors = statuses.iter().filter(|s| s.gravest == Some(Severity::Error));
            let mut scopes: Vec<&str> = Vec::new();
            for status in errors.clone() {
                if !scopes.contains(&status.rule.scope) {
                    scopes.push(status.rule.scope);
                }
            }
            let mut parts: Vec<String> = scopes
                .iter()
                .map(|&scope| {
                    let n = errors.clone().filter(|s| s.rule.scope == scope).count();
                    format!("{} broken", plural(n, &format!("{scope} limit")))
                })
                .collect();
            for (severity, word) in [(Severity::Warning, "warning"), (Severity::Info, "note")] {
                match statuses.iter().filter(|s| s.gravest == Some(severity)).count() {
                    0 => {}
                    n => parts.push(plural(n, word)),
                }
            }
            let gravest = statuses.iter().filter_map(|s| s.gravest).max()?;
            Some((parts.join(", "), gravest.name()))
        })
    };
    view! {
        <details
            class="constraints"
            data-testid="constraint-check"
            on:toggle=move |ev| {
                let details: Option<web_sys::HtmlDetailsElement> = ev.target().and_then(|t| t.dyn_into().ok());
                open.set(details.is_some_and(|d| d.open()));
            }
        >
            <summary>
                <h2 class="constraints-title">"Constraint check"</h2>
                {move || fired().map(|(text, gravest)| view! {
                    <span class=format!("constraints-fired severity-{gravest}") data-testid="lint-fired">{text}</span>
                })}
                <span class="muted">" against documented limits of real transports, and split semantics"</span>
            </summary>
            {move || findings.get().map(|result| match result {
                Ok(findings) => view! { <Rules findings/> <SemanticsDiff/> }.into_any(),
                Err(message) => view! { <p class="problem" role="alert">{message}</p> }.into_any(),
            })}
        </details>
    }
}

/// Every rule, passed or not, with its findings under it.
#[component]
fn Rules(findings: Vec<Finding>) -> impl IntoView {
    let statuses = rule_statuses(&findings);
    let failed = statuses.iter().filter(|s| !s.passed()).count();
    let summary = if failed == 0 {
        format!("All {} rules pass.", statuses.len())
    } else {
        format!("{failed} of {} rules fire.", statuses.len())
    };
    let rows = statuses
        .into_iter()
        .map(|status: RuleStatus| {
            let rule = status.rule;
            let passed = status.passed();
            let messages: Vec<String> =
                findings.iter().filter(|f| f.rule.id == rule.id).map(|f| f.message.clone()).collect();
            // What fired, which may be milder than the rule (a tiny-messages note at teaching sizes).
            let mark = status.gravest.map_or("✓", Severity::name);
            view! {
                <li
                    class="rule"
                    class:rule-passed=passed
                    data-testid="lint-rule"
                    data-rule=rule.id
                    data-passed=passed.to_string()
                >
                    <span class=format!("rule-mark severity-{}", status.gravest.map_or("pass", Severity::name))>{mark}</span>
                    <div class="rule-body">
                        <p class="rule-title">{rule.title} <span class="rule-limit">{rule.limit}</span></p>
                        <ul class="rule-findings">
                            {messages.into_iter().map(|m| view! { <li data-testid="lint-finding">{with_code(&m)}</li> }).collect_view()}
                        </ul>
                        <p class="rule-source">{rule.scope} " · source: " {rule.source}</p>
                    </div>
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="constraints-summary" data-testid="lint-summary">{summary}</p>
        <ul class="rules">{rows}</ul>
    }
}

/// A message whose names the core quoted in backticks, with those names set as code (as text, never markup).
fn with_code(message: &str) -> impl IntoView + use<> {
    message
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.to_string();
            if i % 2 == 1 { view! { <code>{part}</code> }.into_any() } else { part.into_any() }
        })
        .collect_view()
}

/// torch.chunk, balanced and JAX side by side for each side of the viewed tensor.
#[component]
fn SemanticsDiff() -> impl IntoView {
    let state = expect_context::<AppState>();
    let sides = move || {
        let tensor = state.view.with(|v| v.tensor);
        state.reshard.with(|r| {
            let Some(t) = r.tensors.get(tensor) else { return Vec::new() };
            [("Source", &t.source, &r.source_mesh), ("Destination", &t.destination, &r.destination_mesh)]
                .into_iter()
                .map(|(label, layout, mesh)| {
                    let text = match semantics_diff(&t.shape, layout, mesh) {
                        Ok(diff) => {
                            let mut lines = diff.lines(mesh);
                            lines.push(if diff.differing.is_empty() {
                                // JAX refusing the layout leaves two rules to agree, not three.
                                let rules = if diff.jax_refusal.is_some() {
                                    "torch.chunk and balanced"
                                } else {
                                    "all three rules"
                                };
                                format!("Every device holds the same region under {rules}.")
                            } else {
                                format!(
                                    "Devices whose region depends on the rule: {}.",
                                    diff.differing.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(", ")
                                )
                            });
                            lines
                        }
                        Err(message) => vec![message],
                    };
                    (label, text)
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <h3 class="constraints-subtitle">"Split semantics: torch.chunk, balanced and JAX"</h3>
        <div class="semantics" data-testid="semantics-diff">
            {move || sides()
                .into_iter()
                .map(|(label, lines)| view! {
                    <div class="semantics-side">
                        <p class="semantics-label">{label}</p>
                        <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                    </div>
                })
                .collect_view()}
        </div>
    }
}
