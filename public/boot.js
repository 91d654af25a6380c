// Starts the app: imports the wasm-bindgen module and instantiates the wasm whose hashed names trunk wrote
// into this script's data attributes (Trunk.toml, pattern_script). An external file, so that the page's
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
const tag = document.querySelector('script[data-wasm]');

function report(message) {
  // The same place the Rust panic hook writes to (src/ui/panic.rs); text only, never HTML.
  let box = document.getElementById('panic');
  if (!box) {
    box = document.createElement('div');
    box.id = 'panic';
    box.setAttribute('role', 'alert');
    document.body.append(box);
  }
  box.textContent = message;
}

// The names are relative to the page (Trunk.toml, public_url); an import would take them as relative to
// this script, in public/.
const page = (name) => new URL(name, document.baseURI).href;

// A long link takes seconds to unpack before anything is drawn: say so while the placeholder stands.
const booting = document.getElementById('booting');
if (booting && location.hash.length > 20000) {
  const kb = Math.round(location.hash.length / 1000);
  booting.textContent = `Opening a shared state (a link of ${kb.toLocaleString('en')} KB): this takes a few seconds…`;
}

try {
  const { default: init } = await import(page(tag.dataset.js));
  await init({ module_or_path: page(tag.dataset.wasm) });
} catch (error) {
  // Not "Opening…" beside "could not start".
  document.getElementById('booting')?.remove();
  // A wasm that fails to load or start (wrong wasm-opt, missing file) must not leave a blank page.
  if (!document.getElementById('panic')) {
    report(`Reshard Lens could not start: ${error}`);
  }
  throw error;
}
