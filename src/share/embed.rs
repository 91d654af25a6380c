//! The embed snippet a "Copy embed code" button produces. Pure text so that its escaping is tested here:
//! a tensor name lands in the iframe's `title`, and a name is the user's, never markup.

/// The views an embed or a widget can show, with the height (CSS px) an iframe of each takes until the share
/// menu has measured it (the toy's, in an 800 px column).
pub const EMBED_VIEWS: [(&str, &str, u32); 6] = [
    ("tensor", "Tensor view", 800),
    ("mesh", "Mesh view", 420),
    ("totals", "Traffic totals", 1160),
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
            "“{preset}” is a layout preset: the cycle view shows the 120 s cycle; embed=tensor, mesh, totals, traffic or strategies shows the layout."
        )),
        _ => None,
    }
}

/// Why an embed address naming the model inventory (`view=inventory`, `model=NAME`) shows something else:
/// the inventory has no embed, and the address opened the toy without a word (review 53).
/// `from_link`: the address carries a state (`#v1.…`), which is what the view shows.
pub fn inventory_not_embedded(view: &str, page: Option<&str>, model: Option<&str>, from_link: bool) -> Option<String> {
    let what = match (page, model) {
        (_, Some(model)) => format!("The model inventory (“{}”)", crate::core::spec::for_display(model)),
        (Some("inventory"), None) => "The model inventory".to_string(),
        _ => return None,
    };
    let shown = match (view == "cycle", from_link) {
        (true, true) => "the link's cycle",
        (true, false) => "the 120 s cycle",
        (false, true) => "the link's layout",
        (false, false) => "the toy layout",
    };
    Some(format!("{what} has no embed: this {view} view shows {shown}. Link to the app to show a model."))
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

/// The type of the message a page may post to an embed to set its theme (`{type: "reshard-lens:theme",
/// theme: "light" | "dark" | "auto"}`): a documentation site's own theme switch, followed without a reload.
pub const THEME_MESSAGE: &str = "reshard-lens:theme";

/// The column widths (CSS px) the share menu offers to measure an embed's height for. A narrower column
/// wraps more and mostly needs a taller frame, but not always: the toy's strategies embed needs 1,743 px at
/// 540 px and 1,639 at 720, more than at 480 (1,491), 640 (1,551) or 800 (1,478), as its panels change
/// layout. So the first choice, and the default, fits any column a documentation page has.
pub const COLUMNS: [Column; 4] = [Column::Any, Column::Fixed(800), Column::Fixed(640), Column::Fixed(480)];

/// The narrowest and widest columns [`Column::Any`] fits, and its step between the widths it measures: a
/// layout change of the embed's is met within 30 px of where it happens, and the seventeen widths take
/// about four seconds after the frame's boot.
const ANY_FROM: u32 = 480;
const ANY_TO: u32 = 960;
const ANY_STEP: u32 = 30;
/// Pixels added to the tallest height measured every [`ANY_STEP`] px, for the widths in between: a line can
/// wrap there and no measured width (the cycle embed needed 1,793 px at 485 px wide, 6 more than
/// its snippet gave, and its card's bottom edge was cut). About a line of text.
pub const BETWEEN_STEPS: u32 = 24;

/// A column an embed's height is measured for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Column {
    /// Any width from [`ANY_FROM`] to [`ANY_TO`] px: the tallest height measured over them.
    Any,
    /// This width, in CSS px.
    Fixed(u32),
}

impl Column {
    /// The widths to lay the embed out at, the first one first.
    pub fn widths(self) -> Vec<u32> {
        match self {
            Column::Any => (ANY_FROM..=ANY_TO).step_by(ANY_STEP as usize).collect(),
            Column::Fixed(width) => vec![width],
        }
    }

    /// The value of its option in the menu's select (`any`, or the width).
    pub fn value(self) -> String {
        match self {
            Column::Any => "any".to_string(),
            Column::Fixed(width) => width.to_string(),
        }
    }

    /// Reads an option's value back; `None` for anything else.
    pub fn from_value(value: &str) -> Option<Column> {
        COLUMNS.into_iter().find(|c| c.value() == value)
    }

    /// How the menu names it: "any from 480 to 960 px", "800 px".
    pub fn label(self) -> String {
        match self {
            Column::Any => format!("any from {ANY_FROM} to {ANY_TO} px"),
            Column::Fixed(width) => format!("{width} px"),
        }
    }

    /// The words after "fits this view in": "any column from 480 to 960 px wide", "a column 800 px wide".
    pub fn fits(self) -> String {
        match self {
            Column::Any => format!("any column from {ANY_FROM} to {ANY_TO} px wide"),
            Column::Fixed(width) => format!("a column {width} px wide"),
        }
    }
}

/// Measuring one embed over a column's widths: the frame is laid out at each in turn (one boot of the app,
/// then a resize per width) and the snippet takes the tallest height.
#[derive(Clone, PartialEq, Debug)]
pub struct Sweep {
    widths: Vec<u32>,
    /// How many widths have a settled height so far.
    done: usize,
    tallest: u32,
}

impl Sweep {
    pub fn new(column: Column) -> Sweep {
        Sweep { widths: column.widths(), done: 0, tallest: 0 }
    }

    /// The width the frame should have now, `None` once every width is measured.
    pub fn width(&self) -> Option<u32> {
        self.widths.get(self.done).copied()
    }

    /// Takes the settled height at the current width, and says the next width to lay the frame out at.
    pub fn record(&mut self, height: u32) -> Option<u32> {
        if self.done < self.widths.len() {
            self.tallest = self.tallest.max(height);
            self.done += 1;
        }
        self.width()
    }

    /// The tallest height, once every width is measured; for any column, with [`BETWEEN_STEPS`] more for the
    /// widths between the measured ones.
    pub fn height(&self) -> Option<u32> {
        let between = if self.widths.len() > 1 { BETWEEN_STEPS } else { 0 };
        (self.done == self.widths.len() && !self.widths.is_empty()).then_some(self.tallest + between)
    }

    /// How many of how many widths are measured, for a progress line.
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.widths.len())
    }
}

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
    // The frame's colour scheme, so that a browser lets the page's colour show through the embed's
    // transparent page: it paints an opaque backdrop behind a frame whose scheme is not its element's (a dark
    // embed on a page that declares none was a black box, review 54).
    let scheme = match theme {
        "light" | "dark" => theme,
        _ => "light dark",
    };
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" style=\"border:0;color-scheme:{scheme}\" loading=\"lazy\"></iframe>",
        escape_html(&embed_src(app_url, view, theme, fragment)),
        escape_html(title)
    )
}

/// The script that keeps every frame of the app at `app_url` on a page as tall as its content, from the
/// height each embed posts ([`HEIGHT_MESSAGE`]), only from that origin: for a column that changes with the
/// screen (a phone's is narrower than the 480 px the measured height fits, and its frame scrolled inside).
/// One script serves every embed on the page.
pub fn fit_script(app_url: &str) -> String {
    // scheme://host[:port], the `e.origin` of the frame's messages; a JSON string is a JavaScript string,
    // and `<` written as \u003c keeps any `</script>` out of the element.
    let after_scheme = app_url.find("://").map_or(0, |at| at + 3);
    let end = app_url[after_scheme..].find(['/', '?', '#']).map_or(app_url.len(), |at| after_scheme + at);
    let origin = serde_json::to_string(&app_url[..end]).unwrap_or_default().replace('<', "\\u003c");
    format!(
        "<script>addEventListener('message', (e) => {{ if (e.origin !== {origin} || e.data?.type !== \
         '{HEIGHT_MESSAGE}') return; for (const f of document.querySelectorAll('iframe')) if (f.contentWindow \
         === e.source) f.style.height = `${{e.data.height}}px`; }});</script>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_script_listens_to_the_apps_origin_only() {
        let script = fit_script("https://lens.example/docs/?embed=cycle#v1.x");
        assert!(script.starts_with("<script>") && script.ends_with("</script>"), "{script}");
        assert!(script.contains("e.origin !== \"https://lens.example\""), "{script}");
        assert!(script.contains("'reshard-lens:height'"));
        assert!(fit_script("http://127.0.0.1:8080/").contains("\"http://127.0.0.1:8080\""));
        // An address that would close the element early stays inside the string.
        let odd = fit_script("http://a</script><b>/");
        assert_eq!(odd.matches("</script>").count(), 1, "{odd}");
    }

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
        // The frame element's colour scheme is the embed's, so the page's colour shows through it.
        assert!(snippet.contains("style=\"border:0;color-scheme:dark\""), "{snippet}");
        let auto = embed_snippet("http://x/", "mesh", "auto", "v1.a", "t", None);
        assert!(auto.contains("style=\"border:0;color-scheme:light dark\""), "{auto}");
    }

    #[test]
    fn a_preset_of_the_other_view_is_named() {
        assert_eq!(
            inventory_not_embedded("tensor", Some("inventory"), Some("llama-3-8b"), false).as_deref(),
            Some(
                "The model inventory (“llama-3-8b”) has no embed: this tensor view shows the toy layout. Link to the app to show a model."
            )
        );
        assert_eq!(
            inventory_not_embedded("cycle", Some("inventory"), None, true).as_deref(),
            Some(
                "The model inventory has no embed: this cycle view shows the link's cycle. Link to the app to show a model."
            )
        );
        assert_eq!(inventory_not_embedded("tensor", Some("layout"), None, false), None);
        assert_eq!(inventory_not_embedded("tensor", None, None, false), None);
        assert_eq!(preset_mismatch("tensor", "toy"), None);
        assert_eq!(preset_mismatch("cycle", "cycle-160"), None);
        let message = preset_mismatch("tensor", "cycle-120").expect("a cycle preset under the tensor view");
        assert!(message.contains("“cycle-120” is an RL cycle preset") && message.contains("embed=cycle"), "{message}");
        let message = preset_mismatch("cycle", "nested").expect("a layout preset under the cycle view");
        assert!(message.contains("“nested” is a layout preset"), "{message}");
    }

    #[test]
    fn any_column_is_measured_at_every_step_and_takes_the_tallest() {
        let widths = Column::Any.widths();
        assert_eq!((widths[0], *widths.last().unwrap()), (480, 960));
        assert!(widths.windows(2).all(|w| w[1] - w[0] == 30), "{widths:?}");
        // The strategies embed's heights around its layout change: tallest in between, not at an end.
        let mut sweep = Sweep::new(Column::Any);
        let heights = widths.iter().map(|&w| if w == 720 { 1639 } else { 1700 - w });
        let mut laid_out = vec![sweep.width().unwrap()];
        for height in heights {
            assert_eq!(sweep.height(), None, "not before every width is measured");
            laid_out.extend(sweep.record(height));
        }
        assert_eq!(laid_out, widths);
        // With a line's room for the widths between the steps.
        assert_eq!(sweep.height(), Some(1639 + BETWEEN_STEPS));
        assert_eq!(sweep.progress(), (widths.len(), widths.len()));
        assert_eq!(sweep.record(5000), None, "a late report changes nothing");
        assert_eq!(sweep.height(), Some(1639 + BETWEEN_STEPS));
    }

    #[test]
    fn a_fixed_column_is_one_measurement() {
        let mut sweep = Sweep::new(Column::Fixed(640));
        assert_eq!(sweep.width(), Some(640));
        assert_eq!(sweep.record(1551), None);
        assert_eq!(sweep.height(), Some(1551));
    }

    #[test]
    fn the_menus_column_values_read_back() {
        for column in COLUMNS {
            assert_eq!(Column::from_value(&column.value()), Some(column));
        }
        assert_eq!(Column::from_value("123"), None, "only the offered widths");
        assert_eq!(Column::from_value("wide"), None);
        assert_eq!(Column::Any.fits(), "any column from 480 to 960 px wide");
        assert_eq!(Column::Fixed(800).fits(), "a column 800 px wide");
    }

    #[test]
    fn a_hostile_name_stays_text() {
        let snippet = embed_snippet("http://x/", "tensor", "auto", "v1.a", "\"><img src=x onerror=alert(1)>", None);
        assert!(!snippet.contains("<img"), "{snippet}");
        assert!(snippet.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), "{snippet}");
        assert_eq!(snippet.matches('<').count(), 2, "only the iframe's own tags: {snippet}");
    }
}
