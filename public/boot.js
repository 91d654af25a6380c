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

// A trap in the wasm ends the app without a panic message when the cause is not a panic: most often the
// browser refusing more memory (Rust aborts on a failed allocation), and then every control stops answering.
// Say so rather than leave a page that looks alive; a panic has already said more (src/ui/panic.rs).
function trapped(error) {
  if (!(error instanceof WebAssembly.RuntimeError) || document.getElementById('panic')) {
    return;
  }
  report(
    `Reshard Lens stopped: its WebAssembly failed (${error.message}), most likely because the browser would ` +
      'not give it more memory for what it was asked to compute. The page no longer answers. Reload to start ' +
      'again from the address bar’s link, or ',
  );
  offerToy();
}

// The way out when the address itself is what fails: a preset's address opens neither the link's state nor
// the autosaved one (src/ui/mod.rs).
function offerToy() {
  const toy = document.createElement('a');
  toy.href = '?preset=toy';
  toy.textContent = 'open the article’s toy';
  document.getElementById('panic').append(toy, '.');
}
addEventListener('error', (event) => trapped(event.error));
addEventListener('unhandledrejection', (event) => trapped(event.reason));

try {
  const { default: init } = await import(page(tag.dataset.js));
  await init({ module_or_path: page(tag.dataset.wasm) });
} catch (error) {
  // Not "Opening…" beside "could not start".
  document.getElementById('booting')?.remove();
  // A wasm that fails to load or start (wrong wasm-opt, missing file) must not leave a blank page.
  if (!document.getElementById('panic')) {
    report(`Reshard Lens could not start: ${error}. Reload to try again, or `);
    offerToy();
  }
  throw error;
}
