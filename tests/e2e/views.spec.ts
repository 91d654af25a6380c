// The tensor view and the mesh view end to end: every preset draws without a page error (screenshots for a
// human to look at), hovering a device or a piece on the toy highlights and explains it, and the large
// preset stays drawable. Timings are printed, never asserted.
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { steady } from './settle';

const screenshots = path.join(__dirname, 'screenshots');
const PRESETS = ['toy', 'uneven', 'nested', 'partial', 'fsdp-tp', 'colocated', 'large'];

/** Page errors and console errors while `page` lives. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

async function open(page: Page, preset: string) {
  await page.goto(`/?preset=${preset}`);
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  // A device tile, or (above 128 devices a side) a mesh drawn as paths.
  await expect(page.locator('[data-testid=device], [data-testid^=device-paths-] .tile-path').first()).toBeVisible();
}

test.beforeAll(() => fs.mkdirSync(screenshots, { recursive: true }));

for (const [width, height] of [[1280, 800], [1920, 1080]]) {
  test(`every preset draws both views at ${width}×${height}`, async ({ page }) => {
    test.setTimeout(120_000);
    const problems = watch(page);
    await page.setViewportSize({ width, height });
    for (const preset of PRESETS) {
      await open(page, preset);
      const pictures = page.locator('.pictures');
      await pictures.scrollIntoViewIfNeeded();
      await pictures.screenshot({ path: path.join(screenshots, `views-${preset}-${width}x${height}.png`) });
    }
    expect(problems).toEqual([]);
  });
}

test('the toy: hovering a device highlights its pieces, hovering a piece explains it', async ({ page }) => {
  const problems = watch(page);
  await open(page, 'toy');
  await expect(page.getByTestId('piece')).toHaveCount(6);

  await page.locator('[data-testid=device][data-side=source][data-device="1"]').hover();
  const related = page.locator('[data-testid=piece].is-related');
  await expect(related).toHaveCount(2);
  for (const piece of await related.all()) await expect(piece).toHaveAttribute('data-src', '1');
  await expect(page.getByTestId('focus-region')).toHaveCount(1);
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-toy-hover-device.png') });

  await page.locator('[data-testid=piece][data-src="2"][data-dst="3"]').hover();
  const tooltip = page.getByTestId('piece-tooltip');
  await expect(tooltip).toContainText('d2 → d3');
  await expect(tooltip).toContainText('4 × 3');
  await expect(tooltip).toContainText('24 B');
  await expect(tooltip).toContainText('nvlink');
  await expect(page.locator('[data-testid=device].is-related')).toHaveCount(2);
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-toy-hover-piece.png') });
  expect(problems).toEqual([]);
});

test('fsdp-tp: hovering a replica lights the whole box it receives, drawn by the other replica\'s piece', async ({ page }) => {
  // Each 128-row band goes whole to two replicas (d2 → d9 and d2 → d13): one box, drawn by d9's piece, with a
  // card per piece. Hovering d13 left the box faded and lit only its small card.
  await open(page, 'fsdp-tp');
  await page.locator('[data-testid=device][data-side=destination][data-device="13"]').hover();
  const box = (src: number, dst: number) => page.locator(`[data-testid=piece][data-src="${src}"][data-dst="${dst}"]`);
  for (const src of [2, 3]) await expect(box(src, 9)).toHaveClass(/is-related/);
  // Not every box: d13 receives two bands of eight.
  await expect(box(0, 8)).not.toHaveClass(/is-related/);
  expect(await box(2, 9).locator('.tv-piece-box').evaluate((r) => getComputedStyle(r).opacity)).toBe('1');
  expect(await box(0, 8).locator('.tv-piece-box').evaluate((r) => Number(getComputedStyle(r).opacity))).toBeLessThan(1);
});

test("the page's actions stand on one line: Explain, Present, Share, Export and Open file centred alike", async ({ page }) => {
  // Share, Export and Open file stood 3.6 px above Explain and Present (the share bar's own padding).
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=toy');
  // Once drawn (evaluateAll does not wait, and just after a navigation the app may not have drawn them) and
  // laid out in the app's fonts, which swap in after the first paint.
  await expect(page.getByTestId('explain')).toBeVisible();
  const centres = await steady(page, () => page.locator('.page-actions > button, .page-actions > .button-like, .share-bar > .menu > summary, .share-bar > .button-like').evaluateAll((els) =>
    els.filter((e) => e.getClientRects().length).map((e) => { const r = e.getBoundingClientRect(); return Math.round((r.top + r.height / 2) * 2) / 2; }),
  ));
  expect(centres.length).toBeGreaterThanOrEqual(5);
  expect(new Set(centres).size, `centres ${centres}`).toBe(1);
});

test('colocated: a local copy is named as its label names it, without an arrow to itself', async ({ page }) => {
  await page.goto('/?preset=colocated');
  await page.locator('[data-testid=piece][data-src="0"][data-dst="0"]').hover();
  const title = page.getByTestId('piece-tooltip').locator('text').first();
  await expect(title).toHaveText('d0 (local)');
  await expect(page.getByTestId('piece-tooltip')).toContainText('local copy (no link)');
});

test("the toy: a piece low on the first screen gets its tooltip in the window, not below it", async ({ page }) => {
  // d1 → d4 at 1280 × 800, without scrolling: its tooltip stood at 825–905 px, and hovering seemed to do nothing.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=toy');
  const piece = page.locator('[data-testid=piece][data-src="1"][data-dst="4"]');
  // Pointed at where it stays: the page is still laid out just after it is drawn.
  const box = await steady(page, async () => (await piece.boundingBox())!);
  await page.mouse.move(box.x + box.width / 2, Math.min(box.y + box.height / 2, 780));
  await expect(page.getByTestId('piece-tooltip')).toContainText('d1 → d4');
  const tip = (await page.getByTestId('piece-tooltip').locator('rect').boundingBox())!;
  expect(tip.y, "the tooltip's top").toBeGreaterThanOrEqual(0);
  expect(tip.y + tip.height, "the tooltip's bottom").toBeLessThanOrEqual(800);
});

test('partial: one box for the eight pieces on it, and each card of its deck points at its own piece', async ({ page }) => {
  const problems = watch(page);
  await open(page, 'partial');
  await expect(page.getByTestId('piece')).toHaveCount(8);
  await expect(page.locator('[data-testid=piece] .tv-piece-box')).toHaveCount(1);
  const cards = page.getByTestId('deck-card');
  await expect(cards).toHaveCount(8);
  // The left strip of every card (the part the next card leaves uncovered) is that card's piece.
  for (const i of [0, 3, 7]) {
    const piece = page.locator(`[data-testid=piece][data-piece="${await cards.nth(i).getAttribute('data-piece')}"]`);
    const [src, dst] = [await piece.getAttribute('data-src'), await piece.getAttribute('data-dst')];
    // Pointed at where it stays (the page is still laid out just after it is drawn).
    const box = await steady(page, () => cards.nth(i).boundingBox());
    if (!box) throw new Error(`card ${i} is not drawn`);
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await expect(page.getByTestId('piece-tooltip')).toContainText(`d${src} → d${dst}`);
  }
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-partial-hover-card.png') });
  expect(problems).toEqual([]);
});

test("partial: a stacked piece reached by the keyboard stands where its card is, and its card is outlined", async ({ page }) => {
  await open(page, 'partial');
  await page.getByTestId('tensor-view').getByTestId('whole-shard-toggle').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  const focused = page.locator('[data-testid=piece]:focus');
  const index = await focused.getAttribute('data-piece');
  // The second piece of the stack draws no box: its group had been 0 × 0, a focus on nothing.
  await expect(focused.locator('.tv-piece-box')).toHaveCount(0);
  const card = page.locator(`[data-testid=deck-card][data-piece="${index}"]`);
  await expect(card).toHaveClass(/is-focused/);
  await expect(page.locator('[data-testid=deck-card].is-focused')).toHaveCount(1);
  // Drawn once more over the fan, whole: the next card had covered half of it (review 35).
  const top = page.locator('.tv-decks > rect.is-focused:last-child');
  await expect(top).toHaveAttribute('x', (await card.getAttribute('x'))!);
  await expect(top).toHaveAttribute('fill', (await card.getAttribute('fill'))!);
  const [at, drawn] = [(await focused.boundingBox())!, (await card.boundingBox())!];
  // The card's box takes in its outline's width.
  expect(Math.abs(at.width - drawn.width), 'the focused piece is as wide as its card').toBeLessThanOrEqual(3);
  expect(at.x + at.width / 2, 'and stands where it is').toBeCloseTo(drawn.x + drawn.width / 2, 0);
  expect(at.y + at.height / 2).toBeCloseTo(drawn.y + drawn.height / 2, 0);
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-partial-focus-card.png') });
});

test('partial: each destination drawn as the sum of its partials, and what reducing first would send', async ({ page }) => {
  const problems = watch(page);
  await open(page, 'partial');
  const panel = page.getByTestId('partial-sums');
  await expect(panel.getByTestId('partial-sum')).toHaveCount(2);
  await expect(panel.locator('[data-dst="4"] [data-testid=partial-term]')).toHaveText(['P0 · d0', 'P1 · d1', 'P2 · d2', 'P3 · d3']);
  // Each partial in its sender's colour, as the tensor view draws d0's pieces (CSP allows CSSOM styles only).
  const colour = await panel.locator('[data-testid=partial-term]').first().evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(colour).toBe('rgb(230, 159, 0)');
  await expect(page.getByTestId('reduce-first')).toContainText('4× fewer bytes reach the destinations');
  await panel.screenshot({ path: path.join(screenshots, 'views-partial-sums.png') });
  // The toy has no Partial source and no panel.
  await page.getByTestId('preset-toy').click();
  await expect(page.getByTestId('partial-sums')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the toy: keyboard focus reaches pieces and devices', async ({ page }) => {
  await open(page, 'toy');
  // The pieces are one Tab stop: Tab from the whole-shard toggle lands on the first, arrows move between
  // them, Tab leaves them all, Escape lets go of the focused one.
  await page.getByTestId('tensor-view').getByTestId('whole-shard-toggle').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('[data-testid=piece]').first()).toBeFocused();
  await expect(page.getByTestId('piece-tooltip')).toBeVisible();
  // The arrows move across the picture: → from the top left piece is the one beside it, not the list's
  // next (d1 → d3, under it).
  const piece = (src: number, dst: number) => page.locator(`[data-testid=piece][data-src="${src}"][data-dst="${dst}"]`);
  await expect(piece(0, 3)).toBeFocused();
  await expect(page.locator('[data-testid=piece]').nth(1)).toHaveAttribute('data-src', '1');
  await page.keyboard.press('ArrowRight');
  await expect(piece(0, 4)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(piece(1, 4)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(piece(1, 3)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(piece(0, 3)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(piece(0, 3), 'at the top edge the focus stays').toBeFocused();
  // PageDown takes a page of rows, down to the last here, and PageUp brings it back: the focused piece stays
  // in sight (the browser's own PageDown scrolled it away).
  await page.keyboard.press('PageDown');
  await expect(piece(2, 3)).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(piece(2, 3), 'at the bottom edge the focus stays').toBeFocused();
  await expect(piece(2, 3)).toBeInViewport();
  await page.keyboard.press('PageUp');
  await expect(piece(0, 3)).toBeFocused();
  await expect(piece(0, 3)).toBeInViewport();
  await page.keyboard.press('End');
  await expect(page.locator('[data-testid=piece]').last()).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).not.toBe('piece');
  await page.keyboard.press('Shift+Tab');
  await expect(page.locator('[data-testid=piece]').last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('piece-tooltip')).toHaveCount(0);
  await expect(page.getByTestId('focus-line')).toContainText('Hover or focus');
  // Let go of, the piece keeps the keyboard's place: the pointer passing over and away does not bring its
  // highlight back, and an arrow key does (on the next piece).
  const last = page.locator('[data-testid=piece]').last();
  await expect(last).toBeFocused();
  // Where it is stays outlined, by a ring drawn over every piece: its own stroke was half covered by its
  // neighbours (review 41).
  const ring = page.getByTestId('focus-ring');
  await expect(ring).toHaveCount(1);
  expect(await page.evaluate(() => {
    const ring = document.querySelector('[data-testid=focus-ring]')!;
    const pieces = [...document.querySelectorAll('[data-testid=piece]')];
    const box = pieces[pieces.length - 1].querySelector('.tv-piece-box')!;
    const [r, b] = [ring.getBoundingClientRect(), box.getBoundingClientRect()];
    const drawnLater = pieces.every((piece) => piece.compareDocumentPosition(ring) & Node.DOCUMENT_POSITION_FOLLOWING);
    return [drawnLater, Math.round(r.x - b.x), Math.round(r.y - b.y), Math.round(r.width - b.width)];
  })).toEqual([true, 0, 0, 0]);
  await page.locator('[data-testid=piece]').first().hover();
  await page.mouse.move(5, 5);
  await expect(page.getByTestId('focus-line')).toContainText('Hover or focus');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('piece-tooltip')).toHaveCount(1);
  await expect(piece(2, 3)).toBeFocused();
  await page.locator('[data-testid=device][data-side=source][data-device="0"]').focus();
  await expect(ring, 'the keyboard left the pieces').toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('focus-line')).toContainText('d1 (source)');
  // Said over the meshes too, where the eye is, without moving them (where they stood once laid out).
  const meshes = await steady(page, () => page.locator('.meshes').boundingBox());
  await expect(page.getByTestId('mesh-readout')).toContainText('d1 (source) holds offset [4, 0], shape 4 × 6 (24 entries)');
  await page.locator('[data-testid=device][data-side=destination][data-device="4"]').hover();
  // The article's count: each destination needs 36 entries.
  await expect(page.getByTestId('mesh-readout')).toContainText('d4 (destination) holds offset [0, 3], shape 12 × 3 (36 entries)');
  expect(await page.locator('.meshes').boundingBox()).toEqual(meshes);
  await page.locator('[data-testid=device][data-side=source][data-device="1"]').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('focus-line')).toContainText('Hover or focus');
});

test('fsdp-tp: ↑ and ↓ pass a stack of pieces, → walks it', async ({ page }) => {
  await open(page, 'fsdp-tp');
  const piece = (src: number, dst: number) => page.locator(`[data-testid=piece][data-src="${src}"][data-dst="${dst}"]`);
  await piece(0, 8).focus();
  // Each box is carried to two replicas (d8 and d12): ↓ stepped onto the second card of the same box.
  await page.keyboard.press('ArrowDown');
  await expect(piece(1, 8)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(piece(0, 8)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(piece(0, 12)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(piece(0, 8)).toBeFocused();
});

test('the large preset: the keyboard cursor of a 1,024-device mesh stays on screen', async ({ page }) => {
  await open(page, 'large');
  // Too many pieces to list: no empty table, but where every piece is.
  await expect(page.getByTestId('piece-count')).toHaveText('262,144 pieces');
  await expect(page.getByTestId('pieces-elsewhere')).toContainText('Too many to list here (the table holds plans of up to 20,000 pieces)');
  await expect(page.getByTestId('pieces-elsewhere')).toContainText('CSV of Export');
  await expect(page.getByTestId('piece-table')).toBeHidden();
  const cursor = page.locator('[data-testid=device-cursor][data-side=source]');
  await cursor.focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('focus-line')).toContainText('d1023 (source)');
  await expect(cursor).toHaveAttribute('data-device', '1023');
  await expect(cursor).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(cursor).toHaveAttribute('data-device', '0');
  await expect(cursor).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('focus-line')).not.toContainText('(source)');
  // The cursor keeps the keyboard's place, and moved, shows its device again.
  await expect(cursor).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('focus-line')).toContainText('d1 (source)');
});

test('the whole-shard toggle hatches what the receiver discards', async ({ page }) => {
  await open(page, 'toy');
  await page.getByTestId('tensor-view').getByTestId('whole-shard-toggle').check();
  await expect(page.getByTestId('whole-shard-note')).toContainText('discards 36');
  // Beside the cards, whose numbers stay the intersection's: the whole-shard transfer's own (review 52).
  await expect(page.getByTestId('whole-shard-drawn')).toHaveText(
    'The picture also draws the whole-shard transfer: 288 B received by devices, 2× the 144 B of the plan shown.',
  );
  // Each destination's share, over the cards (the article's 36 entries from 3 pieces; only a hover said so).
  await expect(page.getByTestId('each-destination')).toHaveText('Each destination device receives 36 entries (72 B) in 3 pieces.');
  // Shown whole-shard, the cards are its numbers: nothing to add; each destination's share is its.
  await page.getByTestId('strategy-option-whole-shard').click();
  await expect(page.getByTestId('whole-shard-drawn')).toHaveCount(0);
  await expect(page.getByTestId('each-destination')).toHaveText('Each destination device receives 72 entries (144 B) in 3 pieces.');
  await page.getByTestId('strategy-option-intersection').click();
  await expect(page.getByTestId('whole-shard-drawn')).toBeVisible();
  // d3's transfer: its own pieces keep their labels; d4's, under its hatching, have none (they read as
  // d3's, and were unreadable under the veil in the dark theme).
  await expect(page.locator('[data-testid=piece][data-dst="3"] .tv-piece-label').first()).toBeVisible();
  await expect(page.locator('[data-testid=piece][data-dst="4"].is-under-hatch')).toHaveCount(3);
  await expect(page.locator('[data-testid=piece][data-dst="4"] .tv-piece-label').first()).toBeHidden();
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-toy-whole-shard.png') });
  await page.getByTestId('tensor-view').getByTestId('whole-shard-toggle').uncheck();
  await expect(page.locator('[data-testid=piece][data-dst="4"] .tv-piece-label').first()).toBeVisible();
  await expect(page.getByTestId('whole-shard-drawn')).toHaveCount(0);
});

test('the large preset renders without a page error; preset switch timings are printed', { tag: '@timings' }, async ({ page }) => {
  const problems = watch(page);
  await open(page, 'toy');
  const timings: Record<string, number> = {};
  for (const preset of ['large', 'toy', 'large']) {
    const started = Date.now();
    await open(page, preset);
    timings[preset] = Date.now() - started;
  }
  // Inside the page: from navigation start until both views are in the DOM.
  const inPage = await page.evaluate(() => performance.now());
  console.log(`preset switch (navigation until both views drawn), ms: ${JSON.stringify(timings)}; page time ${inPage.toFixed(0)} ms`);
  await expect(page.getByTestId('piece')).toHaveCount(0);
  await expect(page.locator('.tv-notes')).toContainText('262,144 pieces');
  const svgElements = await page.locator('.tensor-svg *').count();
  console.log(`large: ${svgElements} elements in the tensor view`);
  expect(svgElements).toBeLessThan(1000);

  const hoverStarted = await page.evaluate(() => performance.now());
  // Both meshes are paths read by position (above 128 devices a side): pointing at a destination tile
  // highlights that device's region.
  await expect(page.getByTestId('device-paths-destination')).toHaveAttribute('data-count', '256');
  // Tall enough for the whole picture, so that taking its screenshot does not scroll it under the pointer.
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.locator('.pictures').scrollIntoViewIfNeeded();
  // Pointed at where it stays once the taller window is laid out.
  const tile = await steady(page, () => page.locator('[data-testid=device-paths-destination] .tile-path').first().boundingBox());
  if (!tile) throw new Error('the destination paths are not drawn');
  await page.mouse.move(tile.x + tile.width - 4, tile.y + 4);
  await expect(page.getByTestId('focus-region')).toHaveCount(1);
  await expect(page.getByTestId('focus-line')).toContainText('(destination)');
  const hoverEnded = await page.evaluate(() => performance.now());
  console.log(`large: hover to highlight ${(hoverEnded - hoverStarted).toFixed(1)} ms (includes Playwright round trips)`);
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-large-hover-device.png') });
  // The 1024 source devices are paths read by position: pointing at the first tile focuses d0.
  await expect(page.getByTestId('device-paths-source')).toHaveAttribute('data-count', '1024');
  const first = await page.locator('[data-testid=device-paths-source] .tile-path').first().boundingBox();
  if (!first) throw new Error('the source paths are not drawn');
  await page.mouse.move(first.x + 4, first.y + 4);
  await expect(page.getByTestId('focus-line')).toContainText('d0 (source)');
  // The last tile too: the mesh is drawn scaled down to its column (384 px wide at 288 px), and a position
  // read without the scale pointed at a device up and left of the one under the pointer.
  const all = await page.getByTestId('device-paths-source').boundingBox();
  if (!all) throw new Error('the source paths are not drawn');
  await page.mouse.move(all.x + all.width - 3, all.y + all.height - 3);
  await expect(page.getByTestId('focus-line')).toContainText('d1023 (source)');
  await page.locator('.pictures').screenshot({ path: path.join(screenshots, 'views-large-hover-source.png') });
  expect(problems).toEqual([]);
});

test('every axis label of the tensor view stands inside its picture', async ({ page }) => {
  // The last column label, centred on the frame's right edge, was cut by 2 px ("4,096" in a 14 px margin).
  for (const preset of ['toy', 'fsdp-tp', 'large']) {
    await page.goto(`/?preset=${preset}`);
    const svg = page.getByTestId('tensor-view').locator('svg').first();
    await expect(svg.locator('.tv-tick-label').first()).toBeVisible();
    // Read once laid out: a label's box is its font's, which may swap in after the first paint.
    const outside = await steady(page, () => svg.evaluate((picture: SVGSVGElement) => {
      const bounds = picture.getBoundingClientRect();
      return [...picture.querySelectorAll('.tv-tick-label')]
        .map((label) => ({ text: label.textContent, r: label.getBoundingClientRect() }))
        .filter(({ r }) => r.left < bounds.left - 0.5 || r.right > bounds.right + 0.5)
        .map(({ text, r }) => `${text}: ${r.left.toFixed(1)}–${r.right.toFixed(1)} of ${bounds.left.toFixed(1)}–${bounds.right.toFixed(1)}`);
    }));
    expect(outside, preset).toEqual([]);
  }
});

test("nested: the boundary between the source's dp groups is drawn heavier, and named in the legend", async ({ page }) => {
  // [Shard(0), Shard(0)] on dp = 2 × tp = 4 drew eight equal bands, as Shard(0) over eight devices would.
  await page.goto('/?preset=nested');
  const group = page.locator('[data-testid=tensor-view] path.tv-src-group-line');
  await expect(group).toHaveCount(1);
  const legend = page.getByTestId('tensor-legend');
  await expect(legend).toContainText("heavier: between the source's dp groups");
  // One horizontal line, halfway down the 16 rows (its path: a move and a horizontal run).
  const d = await group.getAttribute('d');
  expect(d!.match(/M/g)).toHaveLength(1);
  const frame = await page.locator('[data-testid=tensor-view] .tv-outline').evaluate((r: SVGRectElement) => r.height.baseVal.value);
  expect(Number(d!.match(/^M\s*[\d.]+[ ,]([\d.]+)/)![1])).toBeCloseTo(frame / 2, 0);
  await page.getByTestId('tensor-view').screenshot({ path: path.join(screenshots, 'nested-groups.png') });
  // In strided order the groups interleave: no group is one box, and nothing claims one.
  await page.getByTestId('field-source-order').check();
  await expect(group).toHaveCount(0);
  await expect(legend).not.toContainText('heavier');
  // A flat split has no groups.
  await page.goto('/?preset=toy');
  await expect(page.locator('[data-testid=piece]')).toHaveCount(6);
  await expect(group).toHaveCount(0);
});

test("a nested destination's dp groups are drawn as heavier dashes, and named in the legend", async ({ page }) => {
  // fsdp-tp's destination is (Replicate, Shard(0)) on dp = 2 × tp = 4: every dp group holds the whole
  // tensor, so there is no group boundary to draw.
  await page.goto('/?preset=fsdp-tp');
  const group = page.locator('[data-testid=tensor-view] path.tv-dst-group-line');
  const legend = page.getByTestId('tensor-legend');
  await expect(page.getByTestId('tensor-view').locator('path.tv-dst-line')).toHaveCount(1);
  await expect(group).toHaveCount(0);
  // Columns by dp, then each half's rows by tp: one vertical line halfway across.
  await page.getByTestId('layout-text-destination').fill('[Shard(1), Shard(0)]');
  await expect(group).toHaveCount(1);
  await expect(legend).toContainText("heavier dashes: between the destination's dp groups");
  const d = await group.getAttribute('d');
  const width = await page.locator('[data-testid=tensor-view] .tv-outline').evaluate((r: SVGRectElement) => r.width.baseVal.value);
  expect(d).toMatch(/^M[\d.]+ 0V[\d.]+$/);
  expect(Number(d!.match(/^M([\d.]+)/)![1])).toBeCloseTo(width / 2, 0);
  // The source's groups are the source's: a one-dim FSDP mesh has none.
  await expect(page.locator('[data-testid=tensor-view] path.tv-src-group-line')).toHaveCount(0);
  await page.getByTestId('tensor-view').screenshot({ path: path.join(screenshots, 'nested-destination-groups.png') });
  // Replicating along dp again takes the line and its legend entry away.
  await page.getByTestId('layout-text-destination').fill('[Replicate, Shard(0)]');
  await expect(group).toHaveCount(0);
  await expect(legend).not.toContainText('heavier dashes');
});

test("a nested layout's pieces keep the d of their ids, one-digit or two, in one form", async ({ page }) => {
  // "d0→d9" beside "0→10": the bare ids of the two-digit pieces read as row ranges beside the row axis.
  for (const width of [1280, 480]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(width === 480 ? '/?embed=tensor&preset=nested' : '/?preset=nested');
    const labels = page.locator('.tensor-view .tv-piece-label');
    await expect(labels.first()).toBeVisible();
    const texts = await labels.allTextContents();
    expect(texts.filter((t) => /^\d+→\d+/.test(t)), `bare ids at ${width} px`).toEqual([]);
    expect(texts).toContain('d0 →');
    expect(texts).toContain('d10');
    // Both lines of a split name are the name's, drawn alike (not the lighter shape line).
    expect(await page.locator('.tensor-view .tv-piece-shape').count()).toBe(0);
  }
});
