// Reshard Lens widgets for documentation pages (README, "Embed in documentation").
//
// Include this script once and write each diagram as a text block:
//
//   <script type="module" src="https://lens.example/public/widget.js"></script>
//   <pre class="reshard-lens">
//   tensor w 12x6 bf16
//   source mesh 3 [S(0)]
//   destination mesh 2 [S(1)]
//   view tensor
//   </pre>
//
// Every block becomes a live widget; all of them share one wasm module, loaded once. Each widget lives in
// a shadow root with the app's stylesheets, so the page's CSS and the widget's do not meet. The app's built
// file names carry content hashes; they are read from the app's index.html beside this script, so this
// script's address never changes. If anything fails, the blocks stay as they were, with the reason.

const app = new URL('../', import.meta.url);
const blocks = [...document.querySelectorAll('pre.reshard-lens')];

async function start() {
  const response = await fetch(new URL('index.html', app));
  if (!response.ok) {
    throw new Error(`could not read ${response.url} (${response.status})`);
  }
  const index = new DOMParser().parseFromString(await response.text(), 'text/html');
  const loader = index.querySelector('script[data-wasm]');
  if (!loader) {
    throw new Error('the app page names no wasm module');
  }
  const styles = [...index.querySelectorAll('link[rel="stylesheet"]')].map(
    (link) => new URL(link.getAttribute('href'), app).href,
  );
  const mounts = blocks.map((block) => {
    const host = document.createElement('div');
    host.className = 'reshard-lens-widget';
    // `<pre class="reshard-lens" data-theme="dark">` forces a theme (main.css), for a site whose theme is
    // not the reader's system one; a page that switches themes may set `data-theme` on the host later.
    const theme = block.dataset.theme;
    if (theme === 'light' || theme === 'dark') {
      host.dataset.theme = theme;
    } else if (theme !== undefined && theme !== 'auto') {
      console.warn(`Reshard Lens: data-theme="${theme}" is not a theme; use light, dark or auto`);
    }
    const shadow = host.attachShadow({ mode: 'open' });
    for (const href of styles) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      shadow.append(link);
    }
    const root = document.createElement('div');
    root.className = 'reshard-lens-root';
    root.dataset.block = block.textContent;
    root.dataset.app = app.href;
    shadow.append(root);
    block.replaceWith(host);
    host.block = block;
    return root;
  });
  globalThis.reshardLensWidgets = mounts;
  try {
    const { default: init } = await import(new URL(loader.dataset.js, app).href);
    await init({ module_or_path: new URL(loader.dataset.wasm, app).href });
  } catch (error) {
    // Put the text blocks back: a reader still sees what the diagram describes.
    for (const root of mounts) {
      const host = root.getRootNode().host;
      host.replaceWith(host.block);
    }
    throw error;
  }
}

if (blocks.length > 0) {
  start().catch((error) => {
    for (const block of blocks) {
      block.dataset.reshardLensError = String(error);
      block.title = `Reshard Lens could not start: ${error}`;
    }
    console.error('Reshard Lens widgets could not start:', error);
  });
}
