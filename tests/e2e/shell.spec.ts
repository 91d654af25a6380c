// The app shell end to end: the release build loads under its Content-Security-Policy, shows the toy's plan
// and totals, and never leaves a blank page.
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

const screenshots = path.join(__dirname, 'screenshots');

/** Console errors and warnings, uncaught exceptions and requests that leave 127.0.0.1, while `page` lives. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') {
      problems.push(`request off this machine: ${request.url()}`);
    }
  });
  return problems;
}

async function open(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('piece-row').first()).toBeVisible();
}

test('the page shows the six pieces of the toy', async ({ page }) => {
  await open(page);
  const rows = page.getByTestId('piece-row');
  await expect(rows).toHaveCount(6);
  await expect(page.getByTestId('pieces-elsewhere')).toHaveCount(0);

  // Their text in the DOM: the table is below the pictures, where the browser skips rendering until it is
  // near the screen (content-visibility), so its rendered text (innerText) may be empty.
  const pieces = [];
  for (const row of await rows.all()) {
    const cell = async (id: string) => (await row.getByTestId(id).textContent()) ?? '';
    pieces.push({
      src: await cell('piece-src'),
      dst: await cell('piece-dst'),
      offset: await cell('piece-offset'),
      shape: await cell('piece-shape'),
      bytes: await cell('piece-bytes'),
    });
  }
  // Source s holds rows [4s, 4s + 4); destination 3 holds columns [0, 3), destination 4 columns [3, 6).
  const expected = [];
  for (const src of [0, 1, 2]) {
    for (const [dst, column] of [[3, 0], [4, 3]]) {
      expected.push({ src: `d${src}`, dst: `d${dst}`, offset: `[${4 * src}, ${column}]`, shape: '4 × 3', bytes: '24' });
    }
  }
  const key = (p: { src: string; dst: string }) => `${p.src}-${p.dst}`;
  expect(pieces.sort((a, b) => key(a).localeCompare(key(b)))).toEqual(expected);
  await expect(page.getByTestId('piece-count')).toHaveText('6 pieces');
});

test('the three totals are labelled and match the article', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('total-unique-entries')).toContainText('Unique logical entries');
  await expect(page.getByTestId('total-unique-entries').locator('.total-value')).toHaveText('72');
  await expect(page.getByTestId('total-bytes-received')).toContainText('Bytes received by devices');
  await expect(page.getByTestId('total-bytes-received').locator('.total-value')).toHaveText('144 B');
  await expect(page.getByTestId('total-max-link-bytes')).toContainText('Bytes crossing the busiest link');
  await expect(page.getByTestId('total-max-link-bytes').locator('.total-value')).toHaveText(/^\d+ B$/);
});

test('a thirteen-digit count stays on one line in its card', async ({ page }) => {
  // A 10^12-row tensor's "6,000,000,000,000" broke as "6,000,000,000,0 / 00".
  await open(page);
  await page.getByTestId('field-tensor-shape-0').fill('1e12');
  const value = page.getByTestId('total-unique-entries').locator('.total-value');
  await expect(value).toHaveText('6,000,000,000,000');
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    const lines = await value.evaluate((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      return range.getClientRects().length;
    });
    expect(lines, `at ${width} px`).toBe(1);
  }
});

test('printed, the page is the results on white paper, without the controls, whatever the theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/?preset=toy&theme=dark');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  const looks = () =>
    page.evaluate(() => ({
      scheme: getComputedStyle(document.documentElement).colorScheme,
      body: getComputedStyle(document.body).backgroundColor,
      hidden: ['.page-bar', '.preset-bar', '.workspace > .editors'].map((s) => getComputedStyle(document.querySelector(s)!).display),
      laidOut: getComputedStyle(document.querySelector('.below-pictures')!).contentVisibility,
    }));
  const screen = await looks();
  expect(screen.scheme).toBe('dark');
  expect(screen.hidden).not.toContain('none');
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  expect(await looks()).toEqual({ scheme: 'light', body: 'rgb(255, 255, 255)', hidden: ['none', 'none', 'none'], laidOut: 'visible' });
  // The results are all there: the heading's numbers and the traffic below the pictures.
  await expect(page.getByTestId('change-description')).toBeVisible();
  await expect(page.getByTestId('link-table')).toBeVisible();
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  fs.writeFileSync(path.join(screenshots, 'print-toy.pdf'), pdf);
});

test('the shell has a header, a footer with the version and a source link', async ({ page }) => {
  await open(page);
  // The window's title names the view (three tabs of the app all read "Reshard Lens").
  await expect(page).toHaveTitle('Layout change · Reshard Lens');
  await page.getByTestId('tab-cycle').click();
  await expect(page).toHaveTitle('RL cycle · Reshard Lens');
  await page.getByTestId('tab-layout').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reshard Lens');
  const cargo = fs.readFileSync(path.join(__dirname, '..', '..', 'Cargo.toml'), 'utf8');
  const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
  await expect(page.getByTestId('version')).toHaveText(`Reshard Lens ${version}`);
  await expect(page.getByRole('link', { name: 'Source' })).toHaveAttribute('href', /^https:\/\//);
});

test('the page loads under its CSP with a clean console and no outside requests', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  // Let late console messages arrive: Chromium reports an unused preload after about three seconds.
  await page.waitForTimeout(3_500);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain("'unsafe-eval'");
  expect(await page.locator('script:not([src])').count()).toBe(0);
  await expect(page.locator('#panic')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a wasm that fails to load is reported on the page, not left blank', async ({ page }) => {
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/');
  await expect(page.locator('#panic')).toContainText('Reshard Lens could not start');
  await expect(page.locator('#panic')).toHaveAttribute('role', 'alert');
});

test('a wasm that runs out of memory says so on the page, with a way out', async ({ playwright, launchOptions, baseURL }) => {
  // A real out-of-memory, not a simulated one: V8 caps this browser's wasm memory at 400 pages (25 MiB), which
  // the toy fits and a 2,048 → 2,048 device change of a 4,096 × 4,096 tensor (4.2 M pieces) does not. Rust
  // aborts on the failed allocation with no panic, so only public/boot.js can say what happened.
  const args = [...(launchOptions.args ?? []), '--js-flags=--wasm-max-mem-pages=400'];
  const browser = await playwright.chromium.launch({ ...launchOptions, args });
  try {
    const page = await browser.newPage({ baseURL });
    await page.goto('/?preset=toy');
    await expect(page.getByTestId('piece-row').first()).toBeVisible();
    for (const [field, value] of [['field-tensor-shape-0', '4096'], ['field-tensor-shape-1', '4096'], ['field-source-mesh-0', '2048']]) {
      await page.getByTestId(field).fill(value);
    }
    await expect(page.getByTestId('piece-count')).toHaveText('4,096 pieces, first 100 listed');
    await expect(page.locator('#panic')).toHaveCount(0);

    await page.getByTestId('field-destination-mesh-0').fill('2048');
    const panic = page.locator('#panic');
    await expect(panic).toContainText('Reshard Lens stopped: its WebAssembly failed (unreachable)');
    await expect(panic).toContainText('would not give it more memory');
    await expect(panic).toHaveAttribute('role', 'alert');
    fs.mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'shell-out-of-memory.png') });

    // The way out opens neither the address's state nor the autosaved one.
    await panic.getByRole('link', { name: 'open the article’s toy' }).click();
    await expect(page.getByTestId('piece-count')).toHaveText('6 pieces');
    await expect(page.locator('#panic')).toHaveCount(0);
  } finally {
    await browser.close();
  }
});

test('screenshots at 1280×800 and 1920×1080, light and dark', async ({ page }) => {
  fs.mkdirSync(screenshots, { recursive: true });
  for (const [width, height] of [[1280, 800], [1920, 1080]]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await open(page);
      // The panels below the pictures are rendered only near the viewport (`content-visibility: auto`), and a
      // full-page screenshot does not scroll: grow the viewport to the page's height (twice, as rendered
      // panels change it) so that the whole page is drawn, as a reader scrolling down sees it.
      for (let i = 0; i < 2; i++) {
        const tall = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width, height: tall });
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      }
      // Then shrink it to the content (the footer keeps to the bottom of a taller window).
      const bottom = await page.evaluate(() => {
        const columns = [...document.querySelectorAll('main > *')].map((e) => e.getBoundingClientRect().bottom);
        return Math.ceil(Math.max(...columns) + (document.querySelector('footer')?.getBoundingClientRect().height ?? 0) + 48);
      });
      await page.setViewportSize({ width, height: Math.max(height, bottom) });
      await expect(page.getByTestId('strategy-table')).toBeVisible();
      const file = path.join(screenshots, `shell-${width}x${height}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    }
  }
});

test('the view tabs are one Tab stop, and the arrow keys switch views', async ({ page }) => {
  await page.goto('/?preset=toy');
  const layout = page.getByTestId('tab-layout');
  await expect(layout).toHaveAttribute('tabindex', '0');
  await expect(page.getByTestId('tab-cycle')).toHaveAttribute('tabindex', '-1');
  await layout.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-cycle')).toBeFocused();
  await expect(page.getByTestId('tab-cycle')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('cycle-view')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.getByTestId('tab-inventory')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-layout')).toBeFocused();
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  // Each tab controls the one view panel, which is named by the selected tab.
  const panel = page.getByRole('tabpanel', { name: 'Layout change' });
  await expect(panel.getByTestId('tensor-view')).toBeVisible();
  for (const tab of ['tab-layout', 'tab-cycle', 'tab-inventory']) {
    await expect(page.getByTestId(tab)).toHaveAttribute('aria-controls', 'view-panel');
  }
  await page.getByTestId('tab-cycle').click();
  await expect(page.getByRole('tabpanel', { name: 'RL cycle' }).getByTestId('cycle-view')).toBeVisible();
});

test('the same build works under a path, as on a course page or a project site', async ({ page }) => {
  // Served at /course/reshard/ (the files are the root's): with absolute asset addresses every file 404'd
  // there and the page stayed blank.
  const prefix = '/course/reshard/';
  const missing: string[] = [];
  // Nothing is served outside the path (routes registered later are tried first).
  await page.route('**/*', (route) => route.fulfill({ status: 404, body: 'not under the path' }));
  await page.route(`**${prefix}**`, (route) => {
    const url = new URL(route.request().url());
    url.pathname = '/' + url.pathname.slice(prefix.length);
    return route.continue({ url: url.href });
  });
  page.on('response', (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
  });
  const problems = watch(page);
  await page.goto(`${prefix}?preset=toy`);
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  // The fonts the stylesheet names come from under the path too. Read again until loaded: a font is asked for
  // only once text is laid out in it, and `fonts.ready` read before that has nothing to wait for.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family);
      }),
    )
    .toContain('Lens Sans');
  expect(missing).toEqual([]);
  expect(problems).toEqual([]);
  // The link and the embed code point under the path.
  await page.getByTestId('share-menu').locator('summary').click();
  // (The link fills in once the opening state is written, a moment after the first paint.)
  await expect(page.getByTestId('share-link')).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/course\/reshard\/#v1\./);
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view', { timeout: 40_000 });
  await expect(page.getByTestId('embed-code')).toHaveValue(/src="http:\/\/127\.0\.0\.1:\d+\/course\/reshard\/\?embed=tensor#v1\./);
  // The docs widgets' page under the path loads its widgets from there.
  await page.goto(`${prefix}public/widgets.html`);
  await expect(page.locator('[data-testid=piece]').first()).toBeVisible({ timeout: 15_000 });
  expect(missing).toEqual([]);
});

test('until the app is drawn the page says it is opening, and how large a long link is', async ({ page }) => {
  // A 440 KB link left the page blank for 15 s while it unpacked (review 43).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/#v1.${'A'.repeat(30_000)}`);
  await expect(page.locator('#booting')).toHaveText('Opening a shared state (a link of 30 KB): this takes a few seconds…');
  release();
  await expect(page.locator('.shell')).toBeVisible();
  await expect(page.locator('#booting')).toHaveCount(0);
  // A link that does not read says so, as ever; the placeholder does not linger over it.
  await page.unroute(/\.wasm$/);
  await page.goto('/?preset=toy');
  await expect(page.locator('.shell')).toBeVisible();
  await expect(page.locator('#booting')).toHaveCount(0);
});
