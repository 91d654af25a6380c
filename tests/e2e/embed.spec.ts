// Embed, export and import end to end: the iframe page and its snippet, the documentation page with four
// widgets, every export as a file that parses (the plan JSON checked against the CLI), opening files with
// errors that name the field and the line, and a hostile tensor name that stays text everywhere.
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { reshard } from './cli';
import { download } from './files';
import { steady } from './settle';

const root = path.resolve(__dirname, '..', '..');
const screenshots = path.join(__dirname, 'screenshots');
const HOSTILE = '<img src=x onerror=alert(1)>';

/** Opens the page the Share menu's embed snippet of `view` points at. */
async function openEmbed(page: Page, view: string): Promise<void> {
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('embed-view').selectOption(view);
  // The snippet is written once the embed's height is measured (the box is empty before): wait for it.
  const code = page.getByTestId('embed-code');
  await expect(code).toHaveValue(new RegExp(`src="[^"]*\\?embed=${view}[&#]`), { timeout: 40_000 });
  const snippet = await code.inputValue();
  await page.goto(snippet.match(/src="([^"]+)"/)![1]);
}

/**
 * Opens `html` as another site's page would be: served from a server of the test's own on the loopback (a
 * page of no address, `about:blank`, may not frame the loopback), closed with the test.
 */
async function openHostPage(page: Page, html: string): Promise<void> {
  const server = http.createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  page.once('close', () => server.close());
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

/**
 * How far the embed's content reaches past the bottom of the host page's (only) frame, in pixels; Infinity
 * while it is not drawn (a throw inside `expect.poll` would fail at once instead of reading again).
 */
async function shellPastFrame(page: Page): Promise<number> {
  const frame = page.frames()[1];
  if (!frame) return Infinity;
  return frame.evaluate(() => {
    const shell = document.querySelector('.embed-shell');
    return shell ? shell.getBoundingClientRect().bottom - window.innerHeight : Infinity;
  });
}

/** Whether `text` is well-formed SVG, as the browser's XML parser sees it. */
async function wellFormedSvg(page: Page, text: string): Promise<boolean> {
  return page.evaluate((markup) => {
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    return doc.getElementsByTagName('parsererror').length === 0 && doc.documentElement.localName === 'svg';
  }, text);
}

test('an embed shows one view, and the snippet opens it in an iframe', async ({ page }) => {
  await page.goto('/?preset=uneven');
  await expect(page.getByTestId('change-description')).toContainText('6 × 10');
  // The measured copy of the traffic embed is held back until the menu has been read while it waits.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/\?embed=traffic$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('embed-view').selectOption('traffic');
  // Until its height is known, the code cannot be copied (it would carry the usual height, too short).
  await expect(page.getByTestId('embed-height-note')).toHaveText('Measuring its height…');
  await expect(page.getByTestId('copy-embed')).toBeDisabled();
  // Nothing said while it measures; the code's coming is said once, with its height (review 41).
  await expect(page.getByTestId('embed-announce')).toHaveText('');
  release();
  // By default the height fits any column a documentation page has: the embed, laid out at each width
  // from 480 to 960 px in an unseen frame, reports its height at each, and the snippet takes the tallest.
  await expect(page.getByTestId('embed-height-note')).toContainText(/Measuring its height: \d+ of 17 column widths…/, { timeout: 20_000 });
  await expect(page.getByTestId('copy-embed')).toBeDisabled();
  // No code to select by hand before its height is known (it gave the usual height, too short for most views).
  await expect(page.getByTestId('embed-code')).toHaveValue('');
  await expect(page.getByTestId('embed-code')).toHaveAttribute('placeholder', 'The code comes once its height is measured.');
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view in any column from 480 to 960 px wide', { timeout: 40_000 });
  await expect(page.getByTestId('copy-embed')).toBeEnabled();
  const anyColumn = Number((await page.getByTestId('embed-height-note').innerText()).match(/(\d+) px,/)![1]);
  await expect(page.getByTestId('embed-announce')).toHaveText(`The embed code is ready, ${anyColumn} px high.`);
  const anySnippet = await page.getByTestId('embed-code').inputValue();
  expect(anySnippet).toContain(`height="${anyColumn}"`);
  await page.screenshot({ path: path.join(screenshots, 'share-menu.png') });
  // One column's width: measured at that width alone.
  await page.getByTestId('embed-width').selectOption('800');
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view in a column 800 px wide', { timeout: 20_000 });
  const measured = Number((await page.getByTestId('embed-height-note').innerText()).match(/(\d+) px,/)![1]);
  const snippet = await page.getByTestId('embed-code').inputValue();
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=traffic#v1\.[A-Za-z0-9_-]+" /);
  expect(snippet).toContain(`height="${measured}"`);
  await page.getByTestId('embed-width').selectOption('480');
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view in a column 480 px wide', { timeout: 20_000 });
  const narrow = Number((await page.getByTestId('embed-height-note').innerText()).match(/(\d+) px,/)![1]);
  expect(narrow).toBeGreaterThan(measured);
  expect(anyColumn).toBeGreaterThanOrEqual(narrow);
  const narrowSnippet = await page.getByTestId('embed-code').inputValue();
  expect(narrowSnippet).toContain(`height="${narrow}"`);
  // A theme for a site whose own is not the reader's: in the address, the height as measured.
  await page.getByTestId('embed-theme').selectOption('dark');
  await expect(page.getByTestId('embed-code')).toHaveValue(/\?embed=traffic&amp;theme=dark#v1\./);
  expect(await page.getByTestId('embed-code').inputValue()).toContain(`height="${narrow}"`);
  await expect(page.getByTestId('copy-embed')).toBeEnabled();
  const darkSnippet = await page.getByTestId('embed-code').inputValue();
  await page.getByTestId('embed-theme').selectOption('auto');
  await expect(page.getByTestId('embed-code')).toHaveValue(narrowSnippet);

  // The snippet, dropped into another page's 800 px column, shows the traffic of the same change and
  // nothing else, whole: the frame is as tall as what it shows (a fixed 900 px cut the link table).
  // On a page of its own: the app's CSP, kept by `setContent`, refused the column's inline width, and the
  // frame was 1,264 px wide.
  await openHostPage(page, `<!doctype html><body style="margin:0"><h1>Design review</h1><div style="width:800px">${snippet}</div>`);
  expect(await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().width)).toBe(800);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('link-table')).toBeVisible();
  // Whole and no taller than it needs, both in one read (the frame settles as its panels and fonts come in).
  await expect
    .poll(async () => {
      const over = await shellPastFrame(page);
      return over <= 1 && over > -24 ? 'fits' : `${over} px past the frame's bottom`;
    })
    .toBe('fits');
  await expect(frame.getByTestId('embed')).toBeVisible();
  await expect(frame.getByTestId('change-description')).toContainText('6 × 10');
  await expect(frame.getByTestId('quantity-unique-entries')).toBeVisible();
  await expect(frame.getByTestId('preset-bar')).toHaveCount(0);
  await expect(frame.getByTestId('tensor-view')).toHaveCount(0);

  // The dark snippet's frame is dark whatever the reader's system says.
  await page.emulateMedia({ colorScheme: 'light' });
  await openHostPage(page, `<!doctype html><body style="margin:0"><div style="width:480px">${darkSnippet}</div>`);
  await expect(page.frameLocator('iframe').getByTestId('link-table')).toBeVisible();
  // (Its page is transparent: its colour scheme and its cards are dark.)
  expect(await page.frames()[1].evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
  expect(await page.frames()[1].evaluate(() => getComputedStyle(document.querySelector('.panel')!).backgroundColor)).toBe('rgb(27, 31, 38)');

  // A narrower column wraps more: measured there, the frame is taller, and fits a 480 px column whole.
  await openHostPage(page, `<!doctype html><body style="margin:0"><div style="width:480px">${narrowSnippet}</div>`);
  expect(await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().width)).toBe(480);
  await expect(page.frameLocator('iframe').getByTestId('link-table')).toBeVisible();
  await expect.poll(() => shellPastFrame(page)).toBeLessThanOrEqual(1);

  // The height for any column fits one between the widths offered (the strategies embed was taller at
  // 720 px than at 640 or 800, so no single width's height fitted it).
  await openHostPage(page, `<!doctype html><body style="margin:0"><div style="width:720px">${anySnippet}</div>`);
  await expect(page.frameLocator('iframe').getByTestId('link-table')).toBeVisible();
  await expect.poll(() => shellPastFrame(page)).toBeLessThanOrEqual(1);

  // The embed page itself: minimal chrome, a way out, and a clear message for a view that does not exist.
  const src = snippet.match(/src="([^"]+)"/)![1].replace('embed=traffic', 'embed=tensor');
  await page.goto(src);
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  await expect(page.getByTestId('product-name')).toHaveCount(0);
  await expect(page.getByTestId('embed-open')).toHaveAttribute('href', /#v1\./);
  await page.screenshot({ path: path.join(screenshots, 'embed-tensor.png') });
  await page.goto('/?embed=pie');
  await expect(page.getByTestId('embed-problem')).toHaveText(
    '“pie” is not a view that can be embedded; choose one of tensor, mesh, totals, traffic, strategies, cycle. Showing the tensor view instead.',
  );
  // The message stands over the default view, not alone in an empty frame.
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  await page.goto('/?embed=pie&preset=cycle-160');
  await expect(page.getByTestId('embed-problem')).toContainText('Showing the RL cycle instead.');
  await expect(page.getByTestId('cycle-new')).toHaveText('122.5 s');
  // "layout", as the app's tab names it, is the tensor view.
  await page.goto('/?embed=layout&preset=toy');
  await expect(page.getByTestId('embed-problem')).toHaveCount(0);
  await expect(page.locator('.tensor-view [data-testid=piece]')).toHaveCount(6);
});

test("a narrow tensor embed offers pieces to hover, and hovering one leaves its height as measured", async ({ page }) => {
  // A frame is measured at rest; a hovered piece's two-line readout made the content 20 px taller than it.
  await page.setViewportSize({ width: 480, height: 1000 });
  await page.goto('/?embed=tensor&preset=toy');
  const piece = page.locator('[data-testid=piece][data-src="2"][data-dst="4"]');
  await expect(piece).toBeVisible();
  const height = () => page.evaluate(() => document.querySelector('.embed-shell')!.getBoundingClientRect().height);
  // The tensor alone has no devices to focus, so its hint offers pieces only (the app's hint names devices too).
  await expect(page.getByTestId('focus-line')).toHaveText('Hover or focus a piece for details.');
  // At rest once laid out (its fonts swap in after the first paint).
  const rest = await steady(page, height);
  await piece.hover();
  await expect(page.getByTestId('focus-line')).toContainText('d2 → d4');
  expect(await height()).toBe(rest);
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('focus-line')).toHaveText('Hover or focus a piece or a device for details.');
});

test("with its script the embed code fits the frame on a phone, where the measured height was too short", async ({ page }) => {
  // The measured height fits 480 px and up; at 360 px the totals embed needed about 300 px more and
  // scrolled inside its frame (review 32). The script in the code fits it, from the app's origin only.
  await page.goto('/?preset=toy');
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('embed-view').selectOption('totals');
  await page.getByTestId('embed-fit').check();
  await expect(page.getByTestId('copy-embed')).toBeEnabled({ timeout: 15_000 });
  await expect(page.getByTestId('embed-height-note')).toContainText('the script then fits the frame');
  const snippet = await page.getByTestId('embed-code').inputValue();
  const origin = new URL(page.url()).origin;
  expect(snippet).toContain(`e.origin !== "${origin}"`);
  const given = Number(snippet.match(/height="(\d+)"/)![1]);
  await page.setViewportSize({ width: 360, height: 800 });
  await openHostPage(page, `<!doctype html><body style="margin:0 16px">${snippet}`);
  await expect(page.frameLocator('iframe').getByTestId('quantity-unique-entries')).toBeVisible();
  // Fitted: its content ends at the frame's bottom, in a frame taller than the code gave.
  await expect.poll(() => shellPastFrame(page), { timeout: 10_000 }).toBeLessThanOrEqual(1);
  expect(await shellPastFrame(page)).toBeGreaterThan(-40);
  const height = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
  expect(height, 'taller than the measured height').toBeGreaterThan(given);
  await page.screenshot({ path: path.join(screenshots, 'embed-fit-phone.png'), fullPage: true });
});

test("an embed takes its page's colour and the theme its page posts; its code fits the frame by default", async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('embed-view').selectOption('totals');
  // The script is in the code unless unticked: a frame measured for 480 px and up was cut on a phone.
  await expect(page.getByTestId('embed-fit')).toBeChecked();
  await expect(page.getByTestId('copy-embed')).toBeEnabled({ timeout: 15_000 });
  expect(await page.getByTestId('embed-code').inputValue()).toMatch(/^<iframe [^]*<\/iframe>\s*<script>/);
  await page.getByTestId('embed-fit').uncheck();
  expect(await page.getByTestId('embed-code').inputValue()).not.toContain('<script>');

  const origin = new URL(page.url()).origin;
  await page.emulateMedia({ colorScheme: 'light' });
  await openHostPage(page, `<!doctype html><body style="margin:0;background:#fdf6e3">
    <iframe src="${origin}/?embed=totals&preset=toy" width="640" height="900" style="border:0"></iframe>`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('quantity-unique-entries')).toBeVisible();
  const inFrame = page.frames()[1];
  const colours = () =>
    inFrame.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]);
  // The host's colour shows around the cards (the app's grey stood there, a block under a short view).
  expect(await colours()).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  const surface = () => inFrame.evaluate(() => getComputedStyle(document.querySelector('.panel, .totals, .total')!).backgroundColor);
  const light = await surface();
  // A docs site's theme switch posts its theme: followed without a reload, from the parent only.
  const post = (theme: string) =>
    page.evaluate((theme) => document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'reshard-lens:theme', theme }, '*'), theme);
  await post('dark');
  await expect.poll(() => inFrame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await surface()).not.toBe(light);
  await post('sepia');
  await page.waitForTimeout(200);
  expect(await inFrame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await post('auto');
  await expect.poll(() => inFrame.evaluate(() => document.documentElement.dataset.theme ?? 'none')).toBe('none');
  expect(await surface()).toBe(light);
  // A message from the frame's own window is not its page's.
  await inFrame.evaluate(() => window.postMessage({ type: 'reshard-lens:theme', theme: 'dark' }, '*'));
  await page.waitForTimeout(200);
  expect(await inFrame.evaluate(() => document.documentElement.dataset.theme ?? 'none')).toBe('none');
});

test("an embed's height follows its content down as well as up, and an embed out of view shows its own state", async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('preset-fsdp-tp').click();
  await expect.poll(() => new URL(page.url()).hash, { timeout: 5000 }).toMatch(/^#v1\./);
  const app = new URL(page.url());
  const src = (view: string) => `${app.origin}/?embed=${view}${app.hash}`;
  // A host page of another origin: one frame far too tall,
  // one far below the fold. The first only ever reported its own height (its page was a screen tall at
  // least, and a screen is the frame); the second showed the toy's traffic until scrolled to (no frame is
  // painted there, and its panels waited for one).
  const host = `<!doctype html><body style="margin:0">
    <iframe id="tall" src="${src('tensor')}" width="800" height="3000" style="border:0"></iframe>
    <div style="height:4000px"></div>
    <iframe id="low" src="${src('traffic')}" width="800" height="900" style="border:0"></iframe>
    <script>
      window.heights = [];
      addEventListener('message', (e) => {
        if (e.data && e.data.type === 'reshard-lens:height' && e.source === document.getElementById('tall').contentWindow) heights.push(e.data.height);
      });
    </script>`;
  await openHostPage(page, host);
  await expect.poll(() => page.evaluate(() => (window as unknown as { heights: number[] }).heights.at(-1) ?? 0)).toBeGreaterThan(0);
  const reported = await page.evaluate(() => (window as unknown as { heights: number[] }).heights.at(-1)!);
  expect(reported, 'the tensor embed of fsdp-tp at 800 px').toBeLessThan(1500);
  const low = page.frameLocator('#low');
  await expect(low.getByTestId('embed')).toBeAttached();
  await expect(low.getByTestId('quantity-unique-entries').locator('.quantity-value')).toHaveText('1,048,576');
  expect(await page.evaluate(() => scrollY), 'the host page was not scrolled').toBe(0);

  // In a 700 px column every table of the traffic fits its box (the devices' "messages in" was cut).
  await openHostPage(page, `<!doctype html><body style="margin:0"><iframe src="${src('traffic')}" width="700" height="3000" style="border:0"></iframe>`);
  const traffic = page.frameLocator('iframe');
  await expect(traffic.getByTestId('device-bars')).toBeVisible();
  // Read once the frame's tables hold still (their widths are their text's, in fonts that swap in).
  const hidden = await steady(page.frames()[1], () =>
    page.frames()[1].evaluate(() =>
      [...document.querySelectorAll('.table-scroll')].map((box) => box.scrollWidth - box.clientWidth).filter((over) => over > 0),
    ),
  );
  expect(hidden, 'pixels of a table behind a sideways scroll').toEqual([]);
});

test('the cycle embed is captioned and titled by its cycle, not by the layout', async ({ page }) => {
  await page.goto('/?preset=cycle-120');
  await page.getByTestId('share-menu').locator('summary').click();
  // Opened from the RL cycle tab, the menu embeds the cycle (it offered the tensor view).
  await expect(page.getByTestId('embed-view')).toHaveValue('cycle');
  await expect(page.getByTestId('embed-code')).toHaveValue(/\?embed=cycle#v1\./, { timeout: 40_000 });
  // A view picked stays picked across tabs; the layout tab opens on the tensor view otherwise.
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('tab-layout').click();
  await page.getByTestId('share-menu').locator('summary').click();
  await expect(page.getByTestId('embed-view')).toHaveValue('tensor');
  await page.getByTestId('embed-view').selectOption('traffic');
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('share-menu').locator('summary').click();
  await expect(page.getByTestId('embed-view')).toHaveValue('traffic');
  await page.getByTestId('embed-view').selectOption('cycle');
  // The iframe's title named the tensor (a screen reader announced a layout for a cycle diagram).
  await expect(page.getByTestId('embed-code')).toHaveValue(
    /title="Reshard Lens: RL cycle of 120 s: generation 70 s, scoring 10 s, training 30 s, refit 10 s · s = 4"/,
    { timeout: 40_000 },
  );
  const snippet = await page.getByTestId('embed-code').inputValue();
  await page.goto(snippet.match(/src="([^"]+)"/)![1]);
  await expect(page.getByTestId('embed-cycle-caption')).toHaveText(
    'RL cycle of 120 s: generation 70 s, scoring 10 s, training 30 s, refit 10 s · s = 4');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  // A preset of the other kind says what is shown instead of it.
  await page.goto('/?embed=tensor&preset=cycle-120');
  await expect(page.getByTestId('link-problem')).toHaveText(
    '“cycle-120” is an RL cycle preset: this tensor view shows the toy layout; embed=cycle shows the cycle.');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  await page.goto('/?embed=cycle&preset=nested');
  await expect(page.getByTestId('link-problem')).toHaveText(
    '“nested” is a layout preset: the cycle view shows the 120 s cycle; embed=tensor, mesh, totals, traffic or strategies shows the layout.');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  // The model inventory has no embed: said, where the toy stood without a word (review 53).
  await page.goto('/?embed=tensor&view=inventory&model=llama-3-8b');
  await expect(page.getByTestId('link-problem')).toHaveText(
    'The model inventory (“llama-3-8b”) has no embed: this tensor view shows the toy layout. Link to the app to show a model.');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  await page.goto('/?embed=cycle&preset=cycle-160');
  await expect(page.getByTestId('cycle-new')).toHaveText('122.5 s');
  await expect(page.getByTestId('link-problem')).toHaveCount(0);
});

/** The timeline's texts: every one inside the picture, and the saved time's label clear of the titles. */
async function timelineTextsApart(page: Page, what: string) {
  // Read once they hold still: the chart is fitted to its width a frame after it is drawn, an edit redraws
  // it, and the texts' boxes are their font's, which may swap in after the first paint.
  const boxes = await steady(page, () => page.getByTestId('cycle-gantt').evaluate((svg: SVGSVGElement) => {
    const frame = svg.getBoundingClientRect();
    return {
      frame: { left: frame.left, right: frame.right },
      texts: [...svg.querySelectorAll('text')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent ?? '', cls: t.getAttribute('class') ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    };
  }));
  for (const t of boxes.texts) {
    expect(t.left, `${what}: ${t.text}`).toBeGreaterThanOrEqual(boxes.frame.left - 1);
    expect(t.right, `${what}: ${t.text}`).toBeLessThanOrEqual(boxes.frame.right + 1);
  }
  const saved = boxes.texts.find((t) => /^gantt-(saved|lost)-label/.test(t.cls));
  expect(saved, `${what}: a saved or lost label`).toBeDefined();
  for (const title of boxes.texts.filter((t) => t.cls === 'gantt-title')) {
    const apart = saved!.right <= title.left || saved!.left >= title.right || saved!.bottom <= title.top || saved!.top >= title.bottom;
    expect(apart, `${what}: "${saved!.text}" against "${title.text}"`).toBe(true);
  }
}

test('in a 480 px column the cycle charts keep readable text, and no label runs into another', async ({ page }) => {
  // Drawn 900 units wide into ~430 px, their 21-unit labels were 10 px high and the ticks 7 px.
  await page.setViewportSize({ width: 480, height: 900 });
  for (const preset of ['cycle-160', 'cycle-overlap', 'cycle-queue']) {
    await page.goto(`/?embed=cycle&preset=${preset}`);
    for (const chart of ['cycle-gantt', 'cycle-curve']) {
      const svg = page.getByTestId(chart);
      await expect(svg).toHaveAttribute('viewBox', /^0 0 5\d\d /);
      const scale = await svg.evaluate((e: SVGSVGElement) => e.getBoundingClientRect().width / e.viewBox.baseVal.width);
      expect(scale, `${preset} ${chart}`).toBeGreaterThan(0.73);
    }
    await timelineTextsApart(page, `480 px ${preset}`);
    await page.screenshot({ path: path.join(screenshots, `embed-480-${preset}.png`), fullPage: true });
  }
});

test('in a 480 px column a wide tensor fits the embed, and hovering still finds its pieces', async ({ page }) => {
  await page.setViewportSize({ width: 480, height: 900 });
  await page.goto('/?embed=tensor&preset=fsdp-tp');
  const svg = page.locator('svg.tensor-svg');
  await expect(page.locator('[data-testid=piece]').first()).toBeVisible();
  // Cut at 800 of 1,024 columns before: its right edge behind a sideways scroll (read once laid out).
  const fit = await steady(page, () => svg.evaluate((e) => {
    const box = e.getBoundingClientRect();
    const picture = e.closest('.tv-picture')!;
    return { right: box.right, room: picture.getBoundingClientRect().right, scrolls: picture.scrollWidth > picture.clientWidth + 1, scale: box.width / Number(e.getAttribute('width')) };
  }));
  expect(fit.right).toBeLessThanOrEqual(fit.room + 0.5);
  expect(fit.scrolls).toBe(false);
  // Laid out to the narrow screen (src/chart/tensor.rs, frame_width_for_screen): at its drawn size.
  expect(fit.scale).toBeGreaterThan(0.99);
  expect(await svg.evaluate((e) => Number(e.getAttribute('width')))).toBeLessThan(480);
  await page.locator('[data-testid=piece][data-src="7"]').first().hover();
  await expect(page.getByTestId('piece-tooltip')).toContainText('d7 →');
  // A tensor that fits keeps its drawn size.
  await page.goto('/?embed=tensor&preset=toy');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  expect(await svg.evaluate((e) => e.getBoundingClientRect().width / Number(e.getAttribute('width')))).toBeCloseTo(1, 2);
});

test("a tall, thin tensor's legend stands beside it in a column with room, and under it in a narrow one", async ({ page }) => {
  // Under it, the toy took 40 % of a 640 px column and left the rest blank.
  const placed = () =>
    page.evaluate(() => {
      const picture = document.querySelector('.tensor-svg')!.getBoundingClientRect();
      const legend = document.querySelector('.tensor-view > .legend')!.getBoundingClientRect();
      const frame = document.querySelector('.embed-single')!.getBoundingClientRect();
      return { beside: legend.left >= picture.right, under: legend.top >= picture.bottom, inside: legend.right <= frame.right + 0.5, height: document.documentElement.scrollHeight };
    });
  await page.setViewportSize({ width: 640, height: 900 });
  await page.goto('/?embed=tensor&preset=toy');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  // Where the legend stands once laid out (beside or under is decided by the room measured after drawing).
  const wide = await steady(page, placed);
  expect(wide).toMatchObject({ beside: true, under: false, inside: true });
  // The piece readout has the column beside the picture too, and still reads a hovered piece.
  await page.locator('[data-testid=piece][data-src="2"]').first().hover();
  await expect(page.getByTestId('piece-tooltip')).toContainText('d2 →');
  await page.screenshot({ path: path.join(screenshots, 'embed-640-toy-tensor.png'), fullPage: true });

  await page.setViewportSize({ width: 480, height: 900 });
  // (A read that throws, the picture being drawn again, is read again: inside expect.poll a throw fails at once.)
  await expect.poll(() => placed().catch(String)).toMatchObject({ beside: false, under: true, inside: true });
  // A wide tensor keeps its legend under it at any width.
  await page.setViewportSize({ width: 960, height: 900 });
  await page.goto('/?embed=tensor&preset=large');
  await expect(page.locator('.tensor-svg')).toBeVisible();
  expect(await steady(page, placed)).toMatchObject({ beside: false, under: true });
});

test("in a 480 px column the strategy choice keeps its three segments on one row, inside the panel", async ({ page }) => {
  // Wrapped as boxes, "Gather then broadcast" fell to a second row of its own, half a frame around it.
  await page.setViewportSize({ width: 480, height: 900 });
  // The comparison alone offers no plan to show in views it does not have, nor a box to draw in a tensor
  // view it does not have (the choice only changed the caption).
  await page.goto('/?embed=strategies&preset=fsdp-tp');
  await expect(page.getByTestId('strategy-table')).toBeVisible();
  await expect(page.getByTestId('strategy-choice')).toHaveCount(0);
  await expect(page.getByTestId('strategies-whole-shard-toggle')).toHaveCount(0);
  // Nor does its caption name one strategy over the comparison of three; the traffic embed's still does.
  await expect(page.getByTestId('change-description')).toBeVisible();
  await expect(page.getByTestId('strategy')).toHaveCount(0);
  await expect(page.locator('.current-mark')).toBeHidden();
  await page.goto('/?embed=traffic&preset=fsdp-tp');
  await expect(page.getByTestId('strategy')).toHaveText('Send only the intersection');
  await page.goto('/?preset=fsdp-tp');
  const segments = page.getByTestId('strategy-choice').locator('.segment');
  await expect(segments).toHaveCount(3);
  // Read once laid out: whether they wrap depends on their words' font, which may swap in after the first paint.
  const [boxes, room] = await steady(page, async () => [
    await segments.evaluateAll((all) => all.map((s) => s.getBoundingClientRect()).map((b) => ({ top: b.top, right: b.right }))),
    await page.getByTestId('strategy-choice').evaluate((f) => f.closest('.panel')!.getBoundingClientRect().right),
  ] as const);
  expect(new Set(boxes.map((b) => Math.round(b.top))).size, 'one row').toBe(1);
  expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(room);
  await expect(page.getByTestId('strategies-whole-shard-toggle')).toHaveCount(1);
  await expect(page.locator('.current-mark')).toHaveText('shown');
});

test("an embed's way out stands at the top right however long its caption, and under it in a narrow frame", async ({ page }) => {
  // fsdp-tp's long tensor name pushed it under the caption, where the toy's stood beside it.
  const place = () =>
    page.evaluate(() => {
      const [link, title] = [document.querySelector('[data-testid=embed-open]')!, document.querySelector('.embed-caption')!].map((e) => e.getBoundingClientRect());
      return { beside: link.left >= title.right - 1 && Math.abs(link.top - title.top) < 6, under: link.top >= title.bottom - 1 };
    });
  for (const preset of ['toy', 'fsdp-tp']) {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`/?embed=tensor&preset=${preset}`);
    await expect(page.getByTestId('embed-open')).toBeVisible();
    // Read once laid out: the caption wraps by its font, which may swap in after the first paint.
    expect(await steady(page, place), `${preset} at 800 px`).toEqual({ beside: true, under: false });
    await page.setViewportSize({ width: 480, height: 600 });
    await expect.poll(() => place().catch(String), `${preset} at 480 px`).toEqual({ beside: false, under: true });
  }
});

test('in a 480 px column the link table keeps each number on one line, inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 480, height: 900 });
  await page.goto('/?embed=traffic&preset=fsdp-tp');
  const table = page.getByTestId('link-table');
  await expect(table.locator('tbody tr')).toHaveCount(16);
  // "10.49 µs" broke after its number; a cell of one line is no taller than a line of its text (read once
  // laid out, in the fonts that swap in after the first paint).
  const lines = await steady(page, () => table.locator('td.num').evaluateAll((cells) =>
    cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return range.getClientRects().length;
    }),
  ));
  expect(lines.length).toBe(32);
  expect(lines.every((n) => n === 1), `lines per number cell: ${lines}`).toBe(true);
  const box = await table.evaluate((t) => ({ table: t.getBoundingClientRect().right, box: t.parentElement!.getBoundingClientRect().right }));
  expect(box.table).toBeLessThanOrEqual(box.box + 0.5);
  await page.screenshot({ path: path.join(screenshots, 'embed-480-traffic.png'), fullPage: true });
});

test('at any width the saved label of the timeline keeps off its titles, which stay inside the picture', async ({ page }) => {
  // A narrow picture put "37.5 s saved" over "After · transfer 4× faster · 122.5 s", and cut the long
  // overlap title at its edge; the widths are where a probe saw that.
  for (const [width, view] of [[320, 'embed'], [400, 'embed'], [400, 'app'], [640, 'app'], [1024, 'app']] as const) {
    await page.setViewportSize({ width, height: 900 });
    for (const preset of ['cycle-160', 'cycle-overlap', 'cycle-queue']) {
      await page.goto(view === 'embed' ? `/?embed=cycle&preset=${preset}` : `/?preset=${preset}`);
      await expect(page.getByTestId('gantt-saved')).toBeVisible();
      await timelineTextsApart(page, `${width} px ${view} ${preset}`);
    }
  }
  // A long s and a long saving: the title shortens to keep clear of the label.
  await page.setViewportSize({ width: 400, height: 900 });
  await page.goto('/?embed=cycle&preset=cycle-160');
  await page.getByTestId('speedup-input').fill('4.4721');
  await expect(page.locator('[data-testid=gantt-after] .gantt-title')).toHaveText(/^After · s\s=\s4\.4721 · /);
  await timelineTextsApart(page, '400 px, s = 4.4721');
  // A huge saving or loss on a phone: the label stays inside the picture and off the shortest title.
  await page.setViewportSize({ width: 320, height: 900 });
  await page.goto('/?preset=cycle-120');
  await page.getByTestId('stage-seconds').nth(3).fill('10000');
  for (const s of ['1000000', '0.0001', '3.3333']) {
    await page.getByTestId('speedup-input').fill(s);
    await expect(page.getByTestId('gantt-saved')).toBeVisible();
    await timelineTextsApart(page, `320 px, refit 10000 s, s = ${s}`);
  }
});

test('walking through the embed choices with the arrow keys measures only the one chosen last', async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('share-menu').locator('summary').click();
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view', { timeout: 40_000 });
  // Every measuring frame the page loads from here on (each boots a second copy of the app).
  await page.evaluate(() => {
    (window as any).framesLoaded = [];
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof HTMLIFrameElement) (window as any).framesLoaded.push(node.getAttribute('src'));
    }).observe(document.body, { childList: true });
  });
  await page.getByTestId('embed-view').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  const chosen = await page.getByTestId('embed-view').inputValue();
  // The note says "fits" of the earlier choice until the new one's measuring starts: wait for the frame
  // that measures, then for its answer.
  await expect
    .poll(() => page.evaluate(() => ((window as any).framesLoaded as string[]).length), { timeout: 40_000 })
    .toBeGreaterThan(0);
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view', { timeout: 40_000 });
  const loaded: string[] = await page.evaluate(() => (window as any).framesLoaded);
  expect(loaded).toHaveLength(1);
  expect(loaded[0]).toContain(`?embed=${chosen}#`);
  expect(await page.getByTestId('embed-code').inputValue()).toContain(`?embed=${chosen}#`);
});

test('an embed made while the layout had problems shows them, not the default layout', async ({ page }) => {
  await page.goto('/?preset=large');
  await page.getByTestId('field-tensor-shape-0').fill('0');
  await openEmbed(page, 'tensor');
  await expect(page.getByTestId('embed-problems')).toContainText('This embed describes an impossible layout:');
  await expect(page.getByTestId('embed-problems')).toContainText('tensor.shape[0]');
  await expect(page.getByTestId('tensor-view')).toBeHidden();
  await expect(page.getByTestId('embed-open')).toBeVisible();

  // The same for an impossible cycle (scoring overlapping more than the generation before it): its
  // problem, not a last valid answer pointing at an editor the embed does not have.
  await page.goto('/?preset=cycle-120');
  await page.getByTestId('stage-overlap').nth(1).fill('80');
  await openEmbed(page, 'cycle');
  await expect(page.getByTestId('embed-problems')).toContainText('This embed describes an impossible cycle:');
  await expect(page.getByTestId('embed-problems')).toContainText('longer than the previous stage');
  await expect(page.getByTestId('cycle-new')).toBeHidden();
});

test('while the layout has a problem, the export menu says which exports are of the last valid change', async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('export-menu').locator('summary').click();
  await expect(page.getByTestId('export-stale')).toHaveCount(0);

  await page.getByTestId('field-tensor-shape-0').fill('0');
  const note = page.getByTestId('export-stale');
  await expect(note).toContainText('the pictures, the plan and the decision note are of the last valid change');
  // What the note says holds: the spec is as typed, the plan of the 12 × 6 toy still drawn.
  const spec = JSON.parse((await download(page, 'export-spec-json')).text);
  expect((spec.tensor ?? spec.tensors[0]).shape[0]).toBe(0);
  const plan = JSON.parse((await download(page, 'export-plan-json')).text);
  expect(JSON.stringify(plan)).toContain('"shape":[4,3]');
  await page.screenshot({ path: path.join(screenshots, 'export-stale.png') });

  // Fixed, the note goes.
  await page.getByTestId('field-tensor-shape-0').fill('12');
  await expect(note).toHaveCount(0);
});

test('an embed does not overwrite the app state saved by the reader', async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('preset-nested').click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('reshard-lens/state')), { timeout: 5000 }).toMatch(/^v1\./);
  const saved = await page.evaluate(() => localStorage.getItem('reshard-lens/state'));
  await page.goto('/?embed=mesh&preset=partial');
  await expect(page.getByTestId('mesh-view')).toBeVisible();
  await page.waitForTimeout(800);
  expect(await page.evaluate(() => localStorage.getItem('reshard-lens/state'))).toBe(saved);
});

test('the documentation page turns four text blocks into four live widgets', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/public/widgets.html');
  const widgets = page.locator('.reshard-lens-widget');
  await expect(widgets).toHaveCount(4);
  // The cycle block's own cycle (the article's second), not the app's default 120 s one.
  await expect(widgets.nth(3).getByTestId('cycle-new')).toHaveText('122.5 s');
  await expect(widgets.nth(3).getByTestId('stage-editor')).toHaveCount(0);
  // The block has no layout: nothing to take s from (its stand-in toy gave s = 0.67).
  await expect(widgets.nth(3).getByTestId('speedup-from-layout')).toBeHidden();
  await expect(widgets.nth(3).getByTestId('speedup-slider')).toBeVisible();
  // In a card as wide as the page, the charts stop at their drawing's size: their text is not blown up. (Read
  // once they hold still: a chart is fitted to its width a frame after it is drawn, and a widget's styles are
  // its shadow root's own stylesheets, which may still be loading.)
  for (const chart of ['svg.gantt', 'svg.curve']) {
    const scale = await steady(page, () => widgets.nth(3).locator(chart).first().evaluate(
      (svg) => svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width,
    ));
    expect(scale, `${chart} drawn at ${scale}× its viewBox`).toBeLessThanOrEqual(1.0);
  }
  // Shadow roots are pierced by Playwright's CSS locators.
  await expect(widgets.nth(0).locator('[data-testid=piece]')).toHaveCount(6);
  await expect(widgets.nth(1).getByTestId('quantity-link-bytes')).toBeVisible();
  await expect(widgets.nth(2).getByTestId('mesh-view')).toBeVisible();
  await expect(page.locator('pre.reshard-lens')).toHaveCount(0);
  // Live: hovering a piece of the first widget highlights it there only.
  await widgets.nth(0).locator('[data-testid=piece]').first().hover();
  await expect(widgets.nth(0).getByTestId('piece-tooltip')).toBeVisible();
  // All widgets share one wasm module: the page fetched it once.
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length);
  expect(wasm).toBe(1);
  expect(errors).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(screenshots, 'widgets-page.png'), fullPage: true });
});

test('?theme= forces a theme over the reader\'s, for the app and an embed; an unknown one says so', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [light, dark] = ['rgb(246, 247, 249)', 'rgb(19, 22, 27)'];
  // An embed's own page is transparent (its host's colour shows): its cards carry the theme.
  const card = () => page.evaluate(() => getComputedStyle(document.querySelector('.tensor-view')!.closest('.panel') ?? document.querySelector('.tensor-view')!).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/?embed=tensor&preset=toy');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  expect(await background()).toBe('rgba(0, 0, 0, 0)');
  const lightCard = await card();
  await page.goto('/?embed=tensor&preset=toy&theme=dark');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  expect(await card()).not.toBe(lightCard);
  // Its way out opens the app in the same theme (it opened in the reader's).
  await expect(page.getByTestId('embed-open')).toHaveAttribute('href', /\?theme=dark#v1\./);
  // The pictures follow too: a destination device's neutral tile is the dark one.
  const tile = page.locator('.tile-box.is-neutral').first();
  await page.goto('/?embed=mesh&preset=toy&theme=dark');
  expect(await tile.evaluate((e) => getComputedStyle(e).fill)).toBe('rgb(44, 51, 63)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/?preset=toy&theme=light');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  expect(await background()).toBe(light);
  await page.screenshot({ path: path.join(screenshots, 'theme-light-over-dark.png') });
  await page.goto('/?preset=toy&theme=auto');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  expect(await background()).toBe(dark);
  await page.goto('/?preset=toy&theme=purple');
  await expect(page.getByTestId('link-problem')).toContainText('There is no theme named “purple”; the themes are light, dark, auto.');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
});

test('a block with data-theme draws its widget in that theme; the others follow the reader', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.route('**/public/widgets.html', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('<pre class="reshard-lens" data-testid="block-toy"', '<pre class="reshard-lens" data-theme="dark" data-testid="block-toy"');
    await route.fulfill({ response, body: html });
  });
  await page.goto('/public/widgets.html');
  const widgets = page.locator('.reshard-lens-widget');
  await expect(widgets.nth(0).locator('[data-testid=piece]')).toHaveCount(6);
  const background = (n: number) => widgets.nth(n).locator('.reshard-lens-root').evaluate((e) => getComputedStyle(e).backgroundColor);
  // Read until styled: a widget's styles are its shadow root's own stylesheets, which may load after it is drawn.
  await expect.poll(() => background(0)).toBe('rgb(19, 22, 27)');
  await expect.poll(() => background(1)).toBe('rgb(246, 247, 249)');
  // A page that switches its own theme switches the widget's with it.
  await widgets.nth(1).evaluate((host) => host.setAttribute('data-theme', 'dark'));
  await expect.poll(() => background(1)).toBe('rgb(19, 22, 27)');
  await widgets.nth(0).screenshot({ path: path.join(screenshots, 'widget-dark-on-light.png') });
});

test('a block with mistakes shows them by line in its widget; the other widgets still work', async ({ page }) => {
  await page.goto('/public/widgets.html');
  await expect(page.locator('.reshard-lens-widget')).toHaveCount(4);
  // The same page served with one bad block: rewrite the page's HTML before the script runs.
  await page.route('**/public/widgets.html', async (route) => {
    const response = await route.fetch();
    const html = (await response.text())
      .replace('source mesh 3 [Shard(0)]', 'source mesh 3\nfrobnicate')
      .replace('destination mesh 2x4 [R, S(0)]', 'destination mesh 2x4 [R, S(5)]')
      .replace('stage refit 50', 'stage refit 50 overlap 80');
    await route.fulfill({ response, body: html });
  });
  await page.reload();
  const first = page.locator('.reshard-lens-widget').nth(0);
  await expect(first.getByTestId('widget-problems')).toContainText('line 2: source: expected a layout');
  await expect(first.getByTestId('widget-problems')).toContainText('line 3: `frobnicate` is not a keyword');
  // Problems of meaning name their line too.
  const second = page.locator('.reshard-lens-widget').nth(1);
  await expect(second.getByTestId('widget-problems')).toContainText('line 3, destination.placements[1]: ');
  const cycle = page.locator('.reshard-lens-widget').nth(3);
  await expect(cycle.getByTestId('widget-problems')).toContainText('line 4, stages[3].overlap: ');
  await expect(page.locator('.reshard-lens-widget').nth(2).getByTestId('mesh-view')).toBeVisible();
});

test('each export button is named with what it exports', async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('export-menu').locator('summary').click();
  const names = await page.getByTestId('export-menu').getByRole('button').evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent!.trim()),
  );
  expect(names).toEqual([
    'Tensor view as SVG',
    'Tensor view as PNG',
    'Mesh view as SVG',
    'Mesh view as PNG',
    'Spec as JSON',
    'Spec as text',
    'Plan as JSON',
    'Pieces as CSV',
    'Decision note (Markdown)',
  ]);
  await expect(page.getByRole('button', { name: 'Mesh view as PNG' })).toBeVisible();
});

test('every export downloads a file that parses, and the plan is what the CLI computes', async ({ page }) => {
  // The CLI may need building when this test runs alone (see cli.ts).
  test.setTimeout(600_000);
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('piece-row')).toHaveCount(6);

  for (const id of ['export-tensor-svg', 'export-mesh-svg']) {
    const svg = await download(page, id);
    expect(svg.name).toMatch(/^w-(tensor|mesh)\.svg$/);
    expect(await wellFormedSvg(page, svg.text)).toBe(true);
    expect(svg.text).toContain(id === 'export-tensor-svg' ? 'd0 → d3' : '>d4<');
    // A 16 px margin around the figure, and no hint about hovering in a still picture.
    expect(svg.text).toMatch(/viewBox="-16 -16 /);
    expect(svg.text).not.toContain('Hover or focus');
    if (id === 'export-mesh-svg') {
      // The hint is out of the layout, not left as a blank band (it was ~60 px between the title and the mesh).
      const gap = await page.evaluate((markup) => {
        const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
        const texts = [...doc.querySelectorAll('text')];
        const y = (start: string) => Number(texts.find((t) => (t.textContent ?? '').startsWith(start))!.getAttribute('y'));
        return y('Source') - y('The devices');
      }, svg.text);
      console.log(`mesh export: ${gap} px from its title to the first mesh's`);
      expect(gap).toBeLessThan(48);
    }
    // The app's font travels with the file, so it renders as on screen anywhere.
    expect(svg.text).toContain('@font-face{font-family:"Lens Sans"');
    expect(svg.text).toContain('src:url(data:font/woff2;base64,');
  }
  for (const id of ['export-tensor-png', 'export-mesh-png']) {
    const png = await download(page, id);
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.bytes.length).toBeGreaterThan(2000);
    // Kept beside the screenshots, to look at.
    fs.writeFileSync(path.join(screenshots, `export-${png.name}`), png.bytes);
  }
  const spec = await download(page, 'export-spec-json');
  expect(JSON.parse(spec.text).tensor.shape).toEqual([12, 6]);
  const text = await download(page, 'export-spec-text');
  expect(text.text).toBe('tensor w 12x6 bf16\nsource mesh 3 [S(0)] names tp\ndestination mesh 2 [S(1)] names tp\nview tensor\n');
  // The plan's size is said before it is saved (the large preset's is 23 MB).
  await expect(page.getByTestId('export-plan-json').locator('..')).toContainText('Plan (the CLI\'s format, 6 pieces)');
  const plan = await download(page, 'export-plan-json');
  expect(JSON.parse(plan.text).pieces ?? JSON.parse(plan.text).totals).toBeDefined();

  // The CLI, given the exported spec, prints exactly the exported plan.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lens-'));
  const specFile = path.join(dir, 'spec.json');
  fs.writeFileSync(specFile, spec.text);
  expect(plan.text).toBe(reshard(['plan', specFile, '--json']));

  // The decision note carries the numbers on screen: the layout's traffic and the cycle's answer.
  // (textContent: the traffic panel is below the pictures, rendered only near the screen.)
  const bytesReceived = ((await page.getByTestId('quantity-bytes-received').locator('.quantity-value').textContent()) ?? '').trim();
  await page.getByTestId('tab-cycle').click();
  const newCycle = (await page.getByTestId('cycle-new').innerText()).trim();
  const speedup = (await page.getByTestId('cycle-speedup').innerText()).trim().replace(/^≈\s*/, '');
  const timeline = await download(page, 'export-timeline-svg');
  expect(await wellFormedSvg(page, timeline.text)).toBe(true);
  expect(timeline.name).toBe('cycle-timeline.svg');
  // Outlined labels (the headings, a value beside its bar) keep their outline under the letters: without
  // paint-order the file drew the outline over them, and the headings came out blank.
  const outlined = await page.evaluate((markup) => {
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    const texts = [...doc.querySelectorAll('text')];
    const stroked = (t: Element) => {
      for (let e: Element | null = t; e; e = e.parentElement) {
        const stroke = e.getAttribute('stroke');
        if (stroke) return stroke !== 'none';
      }
      return false;
    };
    const order = (t: Element) => {
      for (let e: Element | null = t; e; e = e.parentElement) {
        const value = e.getAttribute('paint-order');
        if (value) return value;
      }
      return 'normal';
    };
    return texts.filter(stroked).map((t) => [t.textContent, order(t)]);
  }, timeline.text);
  expect(outlined.length).toBeGreaterThan(0);
  for (const [text, order] of outlined) expect(order, `${text}`).toMatch(/^stroke/);
  const timelinePng = await download(page, 'export-timeline-png');
  expect(timelinePng.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  // Said before the click: from the cycle page, the note describes the layout view's change too.
  await expect(page.getByTestId('export-note-layout')).toHaveText('The decision note also describes the layout view\'s change: w · 12 × 6 bf16 · 3 source devices → 2 destination devices.');
  const note = await download(page, 'export-note');
  expect(note.name).toBe('w-decision-note.md');
  expect(note.text).toContain(newCycle);
  expect(note.text).toContain(speedup);
  expect(note.text).toContain(bytesReceived);
  expect(note.text).toContain('`[Shard(0)]`');
});

test('the pieces download as CSV in the strategy shown, as the CLI prints them', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto('/?preset=partial');
  await page.getByTestId('strategy-option-whole-shard').click();
  const csv = await download(page, 'export-pieces-csv');
  expect(csv.name).toBe('out-pieces.csv');
  const lines = csv.text.trimEnd().split('\n');
  // A Partial source: which contributor's sum each row carries; whole shard: what the receiver keeps.
  expect(lines[0]).toMatch(/^src,dst,link,offset_0,offset_1,shape_0,shape_1,entries,bytes,keep_offset_0,.*,contributor$/);
  // A row per piece of the plan on screen (8: each of 4 contributors' whole 8 × 8 to each of 2 receivers).
  expect(lines.length - 1).toBe(8);
  await expect(page.getByTestId('piece-count')).toHaveText(`${lines.length - 1} pieces`);
  for (const line of lines) expect(line.split(',').length).toBe(lines[0].split(',').length);

  const spec = await download(page, 'export-spec-json');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lens-'));
  const specFile = path.join(dir, 'spec.json');
  fs.writeFileSync(specFile, spec.text);
  expect(csv.text).toBe(reshard(['plan', specFile, '--strategy', 'whole-shard', '--csv']));
});

test('the cycle exports as a docs widget\'s text block, which opens here again', async ({ page }) => {
  // A page of its own: Chromium stops a page's downloads after a dozen or so (the export test above).
  await page.goto('/?preset=cycle-160');
  await page.getByTestId('speedup-input').fill('2');
  const block = await download(page, 'export-cycle-text');
  expect(block.name).toBe('cycle.txt');
  expect(block.text).toBe('stage generation 70\nstage scoring 10\nstage training 30\nstage refit 50\nspeedup 2\nview cycle\n');
  await page.keyboard.press('Escape');
  await page.getByTestId('cycle-preset-cycle-120').click();
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  await page.getByTestId('open-file').setInputFiles({ name: 'cycle.txt', mimeType: 'text/plain', buffer: Buffer.from(block.text) });
  await expect(page.getByTestId('cycle-new')).toHaveText('135 s');
});

test('opening a file: errors name the field and the line; a good file replaces the state', async ({ page }) => {
  await page.goto('/?preset=toy');
  const bad = '{\n  "tensor": {"name": "w", "shape": [12, 6]},\n  "source": {"mesh": [3], "placements": ["S(0)"]},\n  "destination": {\n    "mesh": [2],\n    "placements": ["S(9)"]\n  }\n}\n';
  // Measured once the app's fonts are in (under load the label was measured in the fallback font first), and
  // once drawn: just after the navigation the app may not have asked for its fonts yet.
  await expect(page.getByTestId('open-file-label')).toBeVisible();
  const buttons = await steady(page, () => page.getByTestId('open-file-label').boundingBox());
  await page.getByTestId('open-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await expect(page.getByTestId('import-problems')).toContainText('line 6, destination.placements[0]');
  await expect(page.getByTestId('change-description')).toContainText('12 × 6');
  // The report is a line under the bar: the buttons stay where they were (they jumped onto a row of their own).
  expect(await page.getByTestId('open-file-label').boundingBox()).toEqual(buttons);

  // A dropped file opens the same way: here a cycle, which switches to the cycle view.
  const cycle = fs.readFileSync(path.join(root, 'examples', 'cycle-160.json'), 'utf8');
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'cycle-160.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, cycle);
  await expect(page.getByTestId('share-report')).toContainText('Opened cycle-160.json: an RL cycle');
  await expect(page.getByTestId('cycle-new')).toHaveText('122.5 s');
  // An inventory whose tensor names repeat opens, and says which (it opened without a word: review 51).
  const side = { placements: ['S(0)'] };
  const twice = JSON.stringify({
    source: { mesh: [2], dim_names: ['x'] },
    destination: { mesh: [2], dim_names: ['x'] },
    tensors: ['wq', 'wk', 'wq'].map((name) => ({ name, shape: [4, 4], source: side, destination: side })),
  });
  await page.getByTestId('open-file').setInputFiles({ name: 'twice.json', mimeType: 'application/json', buffer: Buffer.from(twice) });
  await expect(page.getByTestId('share-report')).toContainText(
    'Opened twice.json: an inventory. Tensor names used more than once: “wq” (2); their rows are told apart only by their place.',
  );
  // Two files at once: neither is opened, and the report says why (the first was opened without a word on
  // the second).
  await page.evaluate((text) => {
    const data = new DataTransfer();
    for (const name of ['a.json', 'b.json']) data.items.add(new File([text], name, { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, cycle);
  await expect(page.getByTestId('share-report')).toContainText('2 files were dropped; drop one at a time. Nothing was changed.');

  // A text block opens into the layout view.
  await page.getByTestId('open-file').setInputFiles({
    name: 'nested.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('tensor v 16x8\nsource mesh 2x4 [S(0), S(0)]\ndestination mesh 4 [S(1)]\n'),
  });
  await expect(page.getByTestId('change-description')).toContainText('v · 16 × 8');
  // A cycle's block opens into the cycle view and leaves the layout as it is. It says its own s, even when
  // s was being taken from the layout (the file's s was ignored), and no preset button stays pressed.
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('cycle-preset-cycle-120').click();
  await page.getByTestId('speedup-from-layout').check();
  await page.getByTestId('open-file').setInputFiles({
    name: 'cycle.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('cycle cycle-160\nspeedup 2\nview cycle\n'),
  });
  await expect(page.getByTestId('tab-cycle')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('speedup-input')).toHaveValue('2');
  await expect(page.getByTestId('cycle-new')).toHaveText('135 s');
  await expect(page.getByTestId('speedup-manual')).toBeChecked();
  await expect(page.getByTestId('cycle-preset-cycle-120')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('tab-layout').click();
  await expect(page.getByTestId('change-description')).toContainText('v · 16 × 8');

  // A file too large to open is refused by its size (before it is read), and nothing changes.
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(9 * 1024 * 1024)], 'huge.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId('import-problems')).toContainText('huge.json is 9,437,184 bytes; files above 8 MiB (8,388,608 bytes) are not opened');
  await expect(page.getByTestId('change-description')).toContainText('v · 16 × 8');
});

test('a hostile tensor name is shown and exported as characters, never run as markup', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto('/?preset=toy');
  await page.getByTestId('field-tensor-name').fill(HOSTILE);
  await expect(page.getByTestId('change-description')).toContainText(HOSTILE);
  expect(await page.locator('img[src="x"]').count()).toBe(0);

  const svg = await download(page, 'export-tensor-svg');
  expect(svg.name).toBe('img-src-x-onerror-alert-1-tensor.svg');
  expect(await wellFormedSvg(page, svg.text)).toBe(true);
  expect(svg.text).not.toContain('<img');
  expect(svg.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  const note = await download(page, 'export-note');
  expect(note.text).toContain('`' + HOSTILE + '`');
  const text = await download(page, 'export-spec-text');
  expect(text.text.split('\n')[0]).toBe(`tensor ${HOSTILE} 12x6 bf16`);
  // A name like a path gives a file name that opens with a letter (it was `-a-b-c-spec.json`).
  await page.getByTestId('field-tensor-name').fill('../a/b c?*');
  await expect(page.getByTestId('change-description')).toContainText('../a/b c?*');
  expect((await download(page, 'export-spec-json')).name).toBe('a-b-c-spec.json');
  await page.getByTestId('field-tensor-name').fill(HOSTILE);
  await expect(page.getByTestId('change-description')).toContainText(HOSTILE);

  await page.getByTestId('share-menu').locator('summary').click();
  // Once written (once its height is measured): an empty box would say nothing about the name.
  await expect(page.getByTestId('embed-code')).toHaveValue(/^<iframe /, { timeout: 40_000 });
  const snippet = await page.getByTestId('embed-code').inputValue();
  expect(snippet).not.toContain('<img');
  // The shared link opens with the name as text in a fresh page too (once the opened menu has written it).
  await expect(page.getByTestId('share-link')).toHaveValue(/#v1\./);
  await page.goto(await page.getByTestId('share-link').inputValue());
  await expect(page.getByTestId('change-description')).toContainText(HOSTILE);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(dialogs).toEqual([]);
});

test('a tensor embed fits a docs column and a phone with its labels at their size', async ({ page }) => {
  const measure = () =>
    page.locator('.tensor-svg').evaluate((svg) => {
      const drawn = parseFloat(getComputedStyle(svg).getPropertyValue('--drawn-w'));
      const box = svg.parentElement!;
      return { scale: svg.getBoundingClientRect().width / drawn, scrolls: box.scrollWidth > box.clientWidth + 1 };
    });
  // A 480 px docs column shows the whole picture, laid out to its width rather than shrunk (fsdp-tp's 11 px
  // labels were 5 px on a phone when CSS shrank it, and cut at 800 of 1,024 columns when it scrolled).
  await page.setViewportSize({ width: 480, height: 900 });
  await page.goto('/?embed=tensor&preset=fsdp-tp');
  await expect(page.locator('.tensor-view [data-testid=piece]').first()).toBeVisible();
  const column = await steady(page, measure);
  expect(column.scrolls).toBe(false);
  expect(column.scale).toBeGreaterThan(0.99);
  // A phone: laid out again when the window narrows, still whole, still at its drawn size.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(async () => (await measure()).scrolls).toBe(false);
  expect((await steady(page, measure)).scale).toBeGreaterThan(0.99);
  await expect(page.locator('.tensor-view [data-testid=piece][data-src="7"]').first()).toBeVisible();
});

test('a cycle embed does not offer s from a layout it does not show; a link made so carries its s', async ({ page }) => {
  await page.goto('/?embed=cycle&preset=cycle-120');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  // The choice took the hidden toy's estimates (s = 0.67): not offered.
  await expect(page.getByTestId('speedup-from-layout')).toBeHidden();
  await expect(page.getByTestId('speedup-input')).toBeVisible();
  // A link made with s from the layout carries the s it took, as a number.
  await page.goto('/?preset=cycle-120');
  await page.getByTestId('speedup-from-layout').check();
  await expect(page.getByTestId('cycle-new')).toHaveText('125 s');
  await expect.poll(() => new URL(page.url()).hash, { timeout: 5000 }).toMatch(/^#v1\./);
  const fragment = new URL(page.url()).hash;
  await page.goto(`/?embed=cycle${fragment}`);
  await expect(page.getByTestId('cycle-new')).toHaveText('125 s');
  await expect(page.getByTestId('speedup-input')).toHaveValue('0.6667');
  await expect(page.getByTestId('speedup-from-layout')).toBeHidden();
});

test("the totals embed is the traffic's three quantities and its estimate, a docs column's height", async ({ page }) => {
  // The traffic embed of fsdp-tp ran to thousands of pixels in a 480 px column (its per-device table).
  await page.setViewportSize({ width: 480, height: 900 });
  const height = () => page.getByTestId('embed').evaluate((e) => e.getBoundingClientRect().height);
  await page.goto('/?embed=traffic&preset=fsdp-tp');
  await expect(page.getByTestId('device-bars')).toBeVisible();
  // Heights once laid out (the fonts swap in after the first paint).
  const whole = await steady(page, height);
  await page.goto('/?embed=totals&preset=fsdp-tp');
  await expect(page.getByTestId('quantity-unique-entries')).toContainText('1,048,576');
  await expect(page.getByTestId('quantity-bytes-received')).toContainText('4 MiB');
  await expect(page.getByTestId('estimate-seconds')).toBeVisible();
  await expect(page.getByTestId('estimate-formula')).toBeVisible();
  for (const left of ['link-table', 'device-bars', 'heatmap']) await expect(page.getByTestId(left)).toHaveCount(0);
  const totals = await steady(page, height);
  expect(totals).toBeLessThan(whole / 3);
  expect(totals).toBeLessThan(1200);
  await page.screenshot({ path: path.join(screenshots, 'embed-480-totals.png'), fullPage: true });
  // The share menu offers it, measured like the others.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=fsdp-tp');
  await page.getByTestId('share-menu').locator('summary').click();
  await page.getByTestId('embed-view').selectOption('totals');
  await page.getByTestId('embed-width').selectOption('480');
  await expect(page.getByTestId('embed-height-note')).toContainText('px, fits this view in a column 480 px wide', { timeout: 20_000 });
  const measured = Number((await page.getByTestId('embed-height-note').innerText()).match(/(\d+) px,/)![1]);
  expect(Math.abs(measured - totals)).toBeLessThan(60);
  await expect(page.getByTestId('embed-code')).toHaveValue(new RegExp(`\\?embed=totals#v1\\.[A-Za-z0-9_-]+" .*height="${measured}"`));
});

test("a rank-3 tensor's picture is exported without the blank band its slice controls left", async ({ page }) => {
  // The controls are knobs, left out of the file; their place stayed, some 150 px of nothing.
  await page.goto('/?preset=toy');
  await page.getByTestId('open-file').setInputFiles({
    name: 'rank3.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('tensor w 4x12x6\nsource mesh 3 [S(1)]\ndestination mesh 2 [S(2)]\n'),
  });
  await expect(page.getByTestId('slice-controls')).toBeVisible();
  // As laid out once the new tensor's picture holds still (the export is made from it later).
  const onScreen = await steady(page, () => page.evaluate(() => {
    const height = (s: string) => document.querySelector(s)!.getBoundingClientRect().height;
    return { figure: height('[data-testid=tensor-view]'), controls: height('[data-testid=slice-controls]') };
  }));
  const svg = await download(page, 'export-tensor-svg');
  const height = Number(svg.text.match(/<svg[^>]* height="([\d.]+)"/)![1]);
  expect(svg.text, svg.text.slice(0, 3000)).toContain('slice at dim');
  // The figure and the 16 px margins, less the controls (and the gap under them).
  expect(height).toBeLessThan(onScreen.figure + 32 - onScreen.controls + 1);
});
