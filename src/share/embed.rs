//! The embed snippet a "Copy embed code" button produces. Pure text so that its escaping is tested here:
//! a tensor name lands in the iframe's `title`, and a name is the user's, never markup.

/// The views an embed or a widget can show, with the height (CSS px) an iframe of each takes until the share
/// menu has measured it (the toy's, at the first of [`MEASURE_WIDTHS`]).
pub const EMBED_VIEWS: [(&str, &str, u32); 5] = [
    ("tensor", "Tensor view", 800),
    ("mesh", "Mesh view", 420),
    ("traffic", "Traffic", 1850),
    ("strategies", "Strategies", 1450),
    ("cycle", "RL cycle", 1600),
];

/// Why `?preset=NAME` does not apply to an embed of `view`: a cycle preset (`cycle-…`) under a layout view
/// showed the toy without a word, and a layout preset under the cycle view the default cycle.
pub fn preset_mismatch(view: &str, preset: &str) -> Option<String> {
    let cycle_preset = preset.starts_with("cycle-");
    match (view == "cycle", cycle_preset) {
        (false, true) => Some(format!(
            "“{preset}” is an RL cycle preset: this {view} view shows the toy layout; embed=cycle shows the cycle."
        )),
        (true, false) => Some(format!(
            "“{preset}” is a layout preset: the cycle view shows the 120 s cycle; embed=tensor, mesh, traffic or strategies shows the layout."
        )),
        _ => None,
    }
}

/// Escapes text for an HTML attribute value or element content.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The type of the message an embed posts to the page around it with its height in CSS px
/// (`{type: "reshard-lens:height", height, href}`), whenever its height changes.
pub const HEIGHT_MESSAGE: &str = "reshard-lens:height";

/// The widths (CSS px) at which the share menu can measure an embed's height: a documentation page's
/// column, the first by default. A narrower column wraps more and needs a taller frame.
pub const MEASURE_WIDTHS: [u32; 3] = [800, 640, 480];

/// The themes an embed can be given (`?theme=`, src/ui/mod.rs) and how the share menu names them:
/// `auto` follows the reader's system, as the app does; a documentation site with its own theme picks one.
pub const EMBED_THEMES: [(&str, &str); 3] = [("auto", "the reader's system"), ("light", "light"), ("dark", "dark")];

/// The address an embed of `view` of the state in `fragment` (`v1.…`, without `#`) is served from, given
/// the app's address without query or fragment, in `theme` (one of [`EMBED_THEMES`]; `auto` adds nothing).
pub fn embed_src(app_url: &str, view: &str, theme: &str, fragment: &str) -> String {
    let theme = if matches!(theme, "light" | "dark") { format!("&theme={theme}") } else { String::new() };
    format!("{app_url}?embed={view}{theme}#{fragment}")
}

/// The `<iframe>` for `view` of the state in `fragment` (`v1.…`, without `#`) in `theme`, served from
/// `app_url` (the page's address without query or fragment). `title` names the frame for screen readers;
/// `height` is the measured height, else the view's usual one.
pub fn embed_snippet(
    app_url: &str,
    view: &str,
    theme: &str,
    fragment: &str,
    title: &str,
    height: Option<u32>,
) -> String {
    let usual = EMBED_VIEWS.iter().find(|(name, _, _)| *name == view).map_or(600, |(_, _, h)| *h);
    let height = height.unwrap_or(usual);
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        escape_html(&embed_src(app_url, view, theme, fragment)),
        escape_html(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_points_at_the_embed_view_with_the_state() {
        let snippet = embed_snippet("http://127.0.0.1:8080/", "traffic", "auto", "v1.abc-_", "Reshard Lens: w", None);
        assert!(snippet.starts_with("<iframe src=\"http://127.0.0.1:8080/?embed=traffic#v1.abc-_\""), "{snippet}");
        assert!(snippet.contains("height=\"1850\""), "the view's usual height until measured");
        let measured =
            embed_snippet("http://127.0.0.1:8080/", "traffic", "auto", "v1.abc-_", "Reshard Lens: w", Some(1234));
        assert!(measured.contains("height=\"1234\""), "{measured}");
        assert!(snippet.contains("title=\"Reshard Lens: w\""));
    }

    #[test]
    fn a_theme_other_than_the_readers_is_in_the_address() {
        assert_eq!(embed_src("http://x/", "mesh", "dark", "v1.a"), "http://x/?embed=mesh&theme=dark#v1.a");
        assert_eq!(embed_src("http://x/", "mesh", "light", "v1.a"), "http://x/?embed=mesh&theme=light#v1.a");
        assert_eq!(embed_src("http://x/", "mesh", "auto", "v1.a"), "http://x/?embed=mesh#v1.a");
        let snippet = embed_snippet("http://x/", "mesh", "dark", "v1.a", "t", None);
        assert!(snippet.contains("src=\"http://x/?embed=mesh&amp;theme=dark#v1.a\""), "{snippet}");
    }

    #[test]
    fn a_preset_of_the_other_view_is_named() {
        assert_eq!(preset_mismatch("tensor", "toy"), None);
        assert_eq!(preset_mismatch("cycle", "cycle-160"), None);
        let message = preset_mismatch("tensor", "cycle-120").expect("a cycle preset under the tensor view");
        assert!(message.contains("“cycle-120” is an RL cycle preset") && message.contains("embed=cycle"), "{message}");
        let message = preset_mismatch("cycle", "nested").expect("a layout preset under the cycle view");
        assert!(message.contains("“nested” is a layout preset"), "{message}");
    }

    #[test]
    fn a_hostile_name_stays_text() {
        let snippet = embed_snippet("http://x/", "tensor", "auto", "v1.a", "\"><img src=x onerror=alert(1)>", None);
        assert!(!snippet.contains("<img"), "{snippet}");
        assert!(snippet.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), "{snippet}");
        assert_eq!(snippet.matches('<').count(), 2, "only the iframe's own tags: {snippet}");
    }
}
