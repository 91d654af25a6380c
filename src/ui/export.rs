//! Files made from what is on screen: a figure as a standalone SVG or PNG, and text downloads.
//!
//! A figure (the tensor view, the mesh view, the timeline) is HTML around one or more `<svg>`s. The export
//! lays each `<svg>` and each line of text where the browser drew it, into one new SVG, and writes every
//! style the page's CSS gave an element as presentation attributes. The app's own fonts (`public/fonts/`,
//! first in the page's font stacks) are embedded as `@font-face` data, so the file looks the same on a
//! machine without them. Text is written as text nodes by the XML serializer, so a name a user typed is
//! escaped, never markup.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Node};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The styles an SVG element can take from CSS that change how it looks.
const SVG_STYLES: [&str; 16] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "stroke-linejoin",
    // Outlined labels (a halo under the text): without it the outline covers the letters.
    "paint-order",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "visibility",
];

fn js_error(e: JsValue) -> String {
    e.as_string().or_else(|| js_sys_message(&e)).unwrap_or_else(|| "the browser refused".to_string())
}

fn wrong_type<T>(_: T) -> String {
    "the browser returned an unexpected object".to_string()
}

fn js_sys_message(e: &JsValue) -> Option<String> {
    e.dyn_ref::<web_sys::js_sys::Error>().map(|e| String::from(e.message()))
}

fn document() -> Result<Document, String> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| "no document".to_string())
}

fn computed(element: &Element, property: &str) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(element).ok().flatten())
        .and_then(|style| style.get_property_value(property).ok())
        .unwrap_or_default()
}

fn is_drawn(element: &Element) -> bool {
    let rect = element.get_bounding_client_rect();
    computed(element, "display") != "none"
        && computed(element, "visibility") != "hidden"
        && rect.width() > 0.0
        && rect.height() > 0.0
}

/// The margin around an exported figure, in pixels.
const MARGIN: f64 = 16.0;

/// A standalone SVG of the element matched by `selector`, as it looks now, with a margin; elements marked
/// `data-export="skip"` (hints about hovering) are left out. Errors say what is missing.
pub fn figure_svg(selector: &str) -> Result<(String, f64, f64), String> {
    let document = document()?;
    let root = document
        .query_selector(selector)
        .map_err(js_error)?
        .ok_or_else(|| format!("nothing to export: `{selector}` is not on the page"))?;
    // The skipped hints are taken out of the layout while the figure is read (no paint happens in between):
    // left where they were, they left a blank band in the file.
    let classes = root.class_list();
    let _ = classes.add_1(EXPORTING);
    let figure = figure_of(&document, &root);
    let _ = classes.remove_1(EXPORTING);
    figure
}

/// The class that takes `data-export="skip"` elements out of the layout (style/views.css).
const EXPORTING: &str = "exporting";

fn figure_of(document: &Document, root: &Element) -> Result<(String, f64, f64), String> {
    let frame = root.get_bounding_client_rect();
    // A margin around the figure, so that titles and legends do not touch the file's edges.
    let (width, height) = (frame.width().ceil() + 2.0 * MARGIN, frame.height().ceil() + 2.0 * MARGIN);
    let svg = document.create_element_ns(Some(SVG_NS), "svg").map_err(js_error)?;
    for (name, value) in [
        ("width", width.to_string()),
        ("height", height.to_string()),
        ("viewBox", format!("{} {} {width} {height}", -MARGIN, -MARGIN)),
        ("font-family", computed(root, "font-family")),
    ] {
        svg.set_attribute(name, &value).map_err(js_error)?;
    }
    // The page's background under the figure, so the file reads the same in a light or dark viewer.
    let background = document.create_element_ns(Some(SVG_NS), "rect").map_err(js_error)?;
    let fill = first_background(root);
    let corner = (-MARGIN).to_string();
    for (name, value) in
        [("x", corner.as_str()), ("y", corner.as_str()), ("width", "100%"), ("height", "100%"), ("fill", fill.as_str())]
    {
        background.set_attribute(name, value).map_err(js_error)?;
    }
    svg.append_child(&background).map_err(js_error)?;
    copy_contents(document, root, &svg, frame.left(), frame.top())?;
    let markup = web_sys::XmlSerializer::new().map_err(js_error)?.serialize_to_string(&svg).map_err(js_error)?;
    Ok((format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{markup}\n"), width, height))
}

/// The nearest opaque background colour at or above `element`.
fn first_background(element: &Element) -> String {
    let mut current = Some(element.clone());
    while let Some(e) = current {
        let colour = computed(&e, "background-color");
        if !colour.is_empty() && colour != "transparent" && colour != "rgba(0, 0, 0, 0)" {
            return colour;
        }
        current = e.parent_element();
    }
    "#ffffff".to_string()
}

/// Walks `element`: every `<svg>` is copied in place, every text is written where it was drawn; form
/// controls are left out (the file shows the picture, not the knobs).
fn copy_contents(document: &Document, element: &Element, out: &Element, left: f64, top: f64) -> Result<(), String> {
    let children = element.child_nodes();
    for i in 0..children.length() {
        let Some(child) = children.item(i) else { continue };
        if child.node_type() == Node::TEXT_NODE {
            let text = child.text_content().unwrap_or_default();
            if !text.trim().is_empty() {
                write_text(document, element, &child, out, left, top)?;
            }
            continue;
        }
        let Ok(child) = child.dyn_into::<Element>() else { continue };
        let tag = child.tag_name().to_ascii_lowercase();
        if matches!(tag.as_str(), "input" | "select" | "button" | "textarea" | "label")
            || child.get_attribute("data-export").as_deref() == Some("skip")
            || !is_drawn(&child)
        {
            continue;
        }
        if tag == "svg" {
            let rect = child.get_bounding_client_rect();
            let copy: Element = child.clone_node_with_deep(true).map_err(js_error)?.dyn_into().map_err(wrong_type)?;
            inline_styles(&child, &copy)?;
            for (name, value) in
                [("x", rect.left() - left), ("y", rect.top() - top), ("width", rect.width()), ("height", rect.height())]
            {
                copy.set_attribute(name, &format!("{value:.2}")).map_err(js_error)?;
            }
            // Classes and the drawn-size variables (views.css) mean nothing outside the page.
            copy.remove_attribute("class").map_err(js_error)?;
            copy.remove_attribute("style").map_err(js_error)?;
            out.append_child(&copy).map_err(js_error)?;
        } else {
            copy_contents(document, &child, out, left, top)?;
        }
    }
    Ok(())
}

/// Writes the styles CSS gave each element of `original` onto the same element of `copy`; drops what is
/// not drawn.
fn inline_styles(original: &Element, copy: &Element) -> Result<(), String> {
    let parent = original.parent_element();
    for property in SVG_STYLES {
        let value = computed(original, property);
        // Most of these are inherited: writing only what differs from the parent keeps the file small.
        let inherited = parent.as_ref().is_some_and(|p| computed(p, property) == value);
        let default = property == "opacity" && value == "1";
        if !value.is_empty() && !inherited && !default {
            copy.set_attribute(property, &value).map_err(js_error)?;
        }
    }
    // The framework's placeholder comments mean nothing in a file.
    let nodes = copy.child_nodes();
    let comments: Vec<Node> =
        (0..nodes.length()).filter_map(|i| nodes.item(i)).filter(|n| n.node_type() == Node::COMMENT_NODE).collect();
    for comment in comments {
        copy.remove_child(&comment).map_err(js_error)?;
    }
    let (originals, copies) = (original.children(), copy.children());
    let mut hidden = Vec::new();
    for i in 0..originals.length() {
        let (Some(o), Some(c)) = (originals.item(i), copies.item(i)) else { continue };
        if computed(&o, "display") == "none" {
            hidden.push(c);
            continue;
        }
        inline_styles(&o, &c)?;
    }
    for c in hidden {
        c.remove();
    }
    Ok(())
}

/// One text node of HTML as SVG `<text>`, line by line where it wrapped.
fn write_text(
    document: &Document,
    parent: &Element,
    node: &Node,
    out: &Element,
    left: f64,
    top: f64,
) -> Result<(), String> {
    let text = node.text_content().unwrap_or_default();
    let range = document.create_range().map_err(js_error)?;
    // Group the words by the line they were drawn on.
    let mut lines: Vec<(f64, f64, f64, String)> = Vec::new();
    let mut offset = 0u32;
    for word in text.split_inclusive(char::is_whitespace) {
        let length = word.encode_utf16().count() as u32;
        range.set_start(node, offset).map_err(js_error)?;
        range.set_end(node, offset + length).map_err(js_error)?;
        offset += length;
        let rect = range.get_bounding_client_rect();
        if word.trim().is_empty() || rect.width() == 0.0 {
            if let Some(last) = lines.last_mut() {
                last.3.push_str(word);
            }
            continue;
        }
        match lines.last_mut() {
            Some(line) if (line.1 - rect.top()).abs() < 1.0 => line.3.push_str(word),
            _ => lines.push((rect.left(), rect.top(), rect.height(), word.to_string())),
        }
    }
    let font_size = computed(parent, "font-size");
    for (x, y, height, words) in lines {
        let element = document.create_element_ns(Some(SVG_NS), "text").map_err(js_error)?;
        for (name, value) in [
            ("x", format!("{:.2}", x - left)),
            // The baseline sits about four fifths down a line box.
            ("y", format!("{:.2}", y - top + height * 0.78)),
            ("fill", computed(parent, "color")),
            ("font-size", font_size.clone()),
            ("font-weight", computed(parent, "font-weight")),
            ("font-family", computed(parent, "font-family")),
        ] {
            element.set_attribute(name, &value).map_err(js_error)?;
        }
        element.set_text_content(Some(words.trim_end()));
        out.append_child(&element).map_err(js_error)?;
    }
    Ok(())
}

/// The app's fonts, as the page's CSS declares them: family, weight range, file.
const FONTS: [(&str, &str, &str); 3] = [
    ("Lens Sans", "100 549", "public/fonts/lens-sans.woff2"),
    ("Lens Sans", "550 900", "public/fonts/lens-sans-bold.woff2"),
    ("Lens Mono", "100 900", "public/fonts/lens-mono.woff2"),
];

/// `markup` with the fonts it names embedded (a `<style>` of `@font-face` rules with the font data), so
/// the file renders with the same glyphs as the screen anywhere.
pub async fn with_fonts(markup: &str) -> Result<String, String> {
    use base64::Engine;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let mut faces = String::new();
    for (family, weights, path) in FONTS {
        if !markup.contains(family) {
            continue;
        }
        let response: web_sys::Response =
            JsFuture::from(window.fetch_with_str(path)).await.map_err(js_error)?.dyn_into().map_err(wrong_type)?;
        if !response.ok() {
            return Err(format!("the font {path} could not be loaded ({})", response.status()));
        }
        let buffer = JsFuture::from(response.array_buffer().map_err(js_error)?).await.map_err(js_error)?;
        let bytes = web_sys::js_sys::Uint8Array::new(&buffer).to_vec();
        faces.push_str(&format!(
            "@font-face{{font-family:\"{family}\";font-weight:{weights};src:url(data:font/woff2;base64,{}) format(\"woff2\");}}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ));
    }
    if faces.is_empty() {
        return Ok(markup.to_string());
    }
    // Right after the root element's start tag (attribute values never hold a raw `>`: it is escaped).
    let root = markup.find("<svg").ok_or("not an SVG")?;
    let end = markup[root..].find('>').map(|i| root + i + 1).ok_or("not an SVG")?;
    Ok(format!("{}<defs><style>{faces}</style></defs>{}", &markup[..end], &markup[end..]))
}

/// Offers `content` as a file called `name`.
pub fn download_text(name: &str, mime: &str, content: &str) -> Result<(), String> {
    let parts = web_sys::js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(js_error)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js_error)?;
    click_link(name, &url)?;
    // The click has started the download; the URL can go once the browser has read it.
    gloo::timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

fn click_link(name: &str, href: &str) -> Result<(), String> {
    let link: web_sys::HtmlAnchorElement =
        document()?.create_element("a").map_err(js_error)?.dyn_into().map_err(wrong_type)?;
    link.set_href(href);
    link.set_download(name);
    link.click();
    Ok(())
}

/// Offers the SVG `markup` (of `width` × `height` CSS px) as a PNG at twice the size, for slides.
pub fn download_png(name: &str, markup: &str, width: f64, height: f64) -> Result<(), String> {
    use base64::Engine;
    let image = web_sys::HtmlImageElement::new().map_err(js_error)?;
    let source =
        format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(markup.as_bytes()));
    let name = name.to_string();
    let loaded = image.clone();
    let on_load = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Err(e) = paint_png(&name, &loaded, width, height) {
            web_sys::console::error_1(&JsValue::from_str(&format!("PNG export failed: {e}")));
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    image.set_src(&source);
    Ok(())
}

fn paint_png(name: &str, image: &web_sys::HtmlImageElement, width: f64, height: f64) -> Result<(), String> {
    const SCALE: f64 = 2.0;
    let canvas: web_sys::HtmlCanvasElement =
        document()?.create_element("canvas").map_err(js_error)?.dyn_into().map_err(wrong_type)?;
    canvas.set_width((width * SCALE) as u32);
    canvas.set_height((height * SCALE) as u32);
    let context: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").map_err(js_error)?.ok_or("no 2D canvas")?.dyn_into().map_err(wrong_type)?;
    context.scale(SCALE, SCALE).map_err(js_error)?;
    context.draw_image_with_html_image_element_and_dw_and_dh(image, 0.0, 0.0, width, height).map_err(js_error)?;
    let url = canvas.to_data_url_with_type("image/png").map_err(js_error)?;
    click_link(name, &url)
}

/// A file name from a user's tensor name: letters, digits, `-`, `_` and `.` survive, the rest become `-`;
/// never opening with `-` or `.` (`../a/b c?*` gave `-a-b-c-spec.json`; a leading dot hides a file).
pub fn file_stem(name: &str) -> String {
    let stem: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' }).collect();
    let stem = stem.trim_start_matches(['-', '.']).trim_end_matches('-');
    if stem.is_empty() { "reshard".to_string() } else { stem.chars().take(60).collect() }
}
