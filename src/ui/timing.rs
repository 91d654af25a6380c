//! Performance marks around the expensive steps of an edit (planning, the strategy comparison, the tensor
//! view's scene), so the browser's performance timeline (and the end-to-end test that prints it) shows
//! where an edit's time goes. Costs two `performance.mark` calls per step.

/// Runs `work` between two marks and records a `performance.measure` called `name`.
pub fn measured<T>(name: &str, work: impl FnOnce() -> T) -> T {
    let performance = web_sys::window().and_then(|w| w.performance());
    let start = format!("{name}:start");
    let end = format!("{name}:end");
    if let Some(p) = &performance {
        let _ = p.mark(&start);
    }
    let result = work();
    if let Some(p) = &performance {
        let _ = p.mark(&end);
        let _ = p.measure_with_start_mark_and_end_mark(name, &start, &end);
    }
    result
}
