// The editors end to end: a preset opens by its stable link, the layout text re-plans the change, bad text
// shows the message under its field while the last plan stays, and the editor column is photographed.
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

const screenshots = path.join(__dirname, 'screenshots');

async function open(page: Page, preset: string) {
  await page.goto(`/?preset=${preset}`);
  await expect(page.getByTestId('editors')).toBeVisible();
  await expect(page.getByTestId('piece-row').first()).toBeVisible();
}

/** The piece table as `src→dst offset shape` lines, sorted. */
async function pieces(page: Page): Promise<string[]> {
  const lines: string[] = [];
  // Its text in the DOM: the table is below the pictures, where the browser skips rendering until it is near
  // the screen (content-visibility), so its rendered text (innerText) may be empty.
  for (const row of await page.getByTestId('piece-row').all()) {
    const cell = async (id: string) => (await row.getByTestId(id).textContent()) ?? '';
    lines.push(`${await cell('piece-src')}→${await cell('piece-dst')} ${await cell('piece-offset')} ${await cell('piece-shape')}`);
  }
  return lines.sort();
}

test('every preset has a stable link, and the current one is marked', async ({ page }) => {
  await open(page, 'toy');
  for (const name of ['toy', 'uneven', 'nested', 'partial', 'fsdp-tp', 'colocated', 'large']) {
    await expect(page.getByTestId(`preset-${name}`)).toHaveAttribute('href', `?preset=${name}`);
  }
  await expect(page.getByTestId('preset-toy')).toHaveAttribute('aria-current', 'true');
  await page.getByTestId('preset-uneven').click();
  await expect(page).toHaveURL(/\?preset=uneven$/);
  await expect(page.getByTestId('preset-uneven')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('layout-text-source')).toHaveValue('[Shard(0)]');
  await page.goBack();
  await expect(page.getByTestId('preset-toy')).toHaveAttribute('aria-current', 'true');
});

test('destination text [Shard(0)] re-plans; bad text shows its message and keeps the plan', async ({ page }) => {
  await open(page, 'toy');
  const before = await pieces(page);
  expect(before).toHaveLength(6);

  const layout = page.getByTestId('layout-text-destination');
  await expect(layout).toHaveValue('[Shard(1)]');
  await layout.fill('[Shard(0)]');
  await expect(page.getByTestId('piece-count')).toHaveText('4 pieces');
  await expect.poll(() => pieces(page)).toEqual(['d0→d3 [0, 0] 4 × 6', 'd1→d3 [4, 0] 2 × 6', 'd1→d4 [6, 0] 2 × 6', 'd2→d4 [8, 0] 4 × 6']);
  await expect(page.getByTestId('field-destination-placement-0')).toHaveValue('S(0)');

  await layout.fill('[Shard(0), Bogus]');
  await expect(page.getByTestId('problems-destination-layout')).toContainText('`Bogus` is not a placement');
  await expect(layout).toHaveAttribute('aria-invalid', 'true');
  await layout.fill('[Shard(7)]');
  await expect(page.getByTestId('problems-destination-layout')).toHaveText('Shard(7) but the tensor has rank 2');
  // The heading says the last valid change, in its placements (the text typed is not it).
  await expect(page.getByTestId('change-placements')).toHaveText('[Shard(0)] → [Shard(0)]');
  await expect(page.getByTestId('editor-status')).toContainText('the pictures show the last valid change');
  await expect(page.getByTestId('piece-count')).toHaveText('4 pieces');
  await expect(page.getByTestId('total-unique-entries').locator('.total-value')).toHaveText('72');

  await layout.fill("P(None, 'tp')");
  await expect(page.getByTestId('problems-destination-layout')).toHaveText('');
  // A side typed in JAX is headed as typed (it read `[Shard(1)]`, review 52); the other as placements.
  await expect(page.getByTestId('change-placements')).toHaveText("[Shard(0)] → P(None, 'tp')");
  // The piece table follows an edit one paint later.
  await expect.poll(() => pieces(page)).toEqual(before);
});

test('while the editors hold a problem the results say they are the last valid change, and lead to the field', async ({ page }) => {
  await open(page, 'toy');
  const banner = page.getByTestId('stale-banner');
  await expect(banner).toHaveCount(0);
  const stage = page.locator('.stage');
  // Text that does not parse and a value the core refuses are said alike, over the results.
  for (const typed of ['abc', '0']) {
    await page.getByTestId('field-tensor-shape-0').fill(typed);
    await page.getByTestId('change-description').click();
    await expect(banner).toHaveText(/^Showing the last valid change: 1 problem in the editors\./);
    await expect(stage).toHaveClass(/is-stale/);
    // The pictures are drained of colour, not faded: their words stay as readable (review 41); the banner
    // keeps its colour.
    await expect.poll(() => page.getByTestId('tensor-view').evaluate((e) => getComputedStyle(e).filter)).toBe('saturate(0.2)');
    expect(await page.getByTestId('tensor-view').evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
    expect(await banner.evaluate((e) => getComputedStyle(e).filter)).toBe('none');
  }
  await page.screenshot({ path: path.join(screenshots, 'editor-stale.png') });
  // Two problems are counted; "Go to it" takes the keyboard to the first.
  await page.getByTestId('field-topology-nvlink-gbps').fill('fast');
  await page.getByTestId('change-description').click();
  await expect(banner).toContainText('2 problems in the editors');
  await page.getByTestId('stale-go').click();
  await expect(page.getByTestId('field-tensor-shape-0')).toBeFocused();
  // Fixed, the results are current again.
  await page.getByTestId('field-tensor-shape-0').fill('12');
  await page.getByTestId('field-topology-nvlink-gbps').fill('450');
  await page.getByTestId('change-description').click();
  await expect(banner).toHaveCount(0);
  await expect(stage).not.toHaveClass(/is-stale/);
  await expect.poll(() => page.getByTestId('tensor-view').evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
});

test('a mesh size of 0 is named under its field and the stepper fixes it', async ({ page }) => {
  await open(page, 'toy');
  await page.getByTestId('field-source-mesh-0').fill('0');
  await expect(page.getByTestId('problems-source-mesh-0')).toHaveText('0: a mesh dim needs at least one device');
  await expect(page.getByTestId('piece-count')).toHaveText('6 pieces');
  await page.getByTestId('more-source-mesh-0').click();
  await page.getByTestId('more-source-mesh-0').click();
  await expect(page.getByTestId('field-source-mesh-0')).toHaveValue('2');
  await expect(page.getByTestId('piece-count')).toHaveText('4 pieces');
});

test('a name that would reorder the headline is refused under its field; a long one wraps inside the page', async ({ page }) => {
  await open(page, 'toy');
  const name = page.getByTestId('field-tensor-name');
  const headline = await page.getByTestId('change-description').textContent();
  // A right-to-left override made "w · 12 × 6 bf16 · 3 source devices" read "· 61fb 6 × 21 · w".
  await name.fill('w\u202e');
  await expect(page.getByTestId('problems-tensor-name')).toContainText('invisible direction control (U+202E)');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveValue('w\u202e');
  await expect(page.getByTestId('change-description')).toHaveText(headline!);
  // A 200-character name without a space: the headline breaks it, the page does not scroll sideways.
  await name.fill('layers_'.repeat(28) + 'wq12');
  await expect(page.getByTestId('problems-tensor-name')).toBeEmpty();
  await expect(name).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByTestId('change-description')).toContainText(headline!.replace(/^w/, 'wq12'));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await name.fill('layers_'.repeat(29));
  await expect(page.getByTestId('problems-tensor-name')).toHaveText('203 characters: a name has at most 200');
});

test('text typed into a number field that does not parse is still there after a visit to another view', async ({ page }) => {
  await open(page, 'toy');
  const size = page.getByTestId('field-tensor-shape-0');
  await size.fill('12x');
  await expect(page.getByTestId('problems-tensor-shape-0')).toHaveText('`12x` is not a whole number');
  const latency = page.getByTestId('field-topology-latency-us');
  await latency.fill('5 us');
  await page.getByTestId('tab-cycle').click();
  await expect(page.getByTestId('cycle-view')).toBeVisible();
  await page.getByTestId('tab-layout').click();
  // The fields were drawn anew and showed the spec's 12 and 5, their messages gone.
  await expect(size).toHaveValue('12x');
  await expect(page.getByTestId('problems-tensor-shape-0')).toHaveText('`12x` is not a whole number');
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(latency).toHaveValue('5 us');
  await expect(page.getByTestId('piece-count')).toHaveText('6 pieces');
  // Fixed, the draft goes: another visit shows the value.
  await size.fill('8');
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  await expect(size).toHaveValue('8');
  await expect(page.getByTestId('problems-tensor-shape-0')).toBeEmpty();
  // A new spec (a preset) drops what was typed for the old one.
  await page.getByTestId('preset-toy').click();
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  await expect(latency).toHaveValue('5');
});

test('layout text and a device list that do not parse are still there after a visit to another view', async ({ page }) => {
  await open(page, 'toy');
  const layout = page.getByTestId('layout-text-destination');
  await layout.fill('[Shard(1), Shard(');
  await expect(page.getByTestId('layout-text-destination-kept')).toBeVisible();
  await page.getByTestId('field-source-devices').selectOption('list');
  const ids = page.getByTestId('field-source-device-ids');
  await ids.fill('0-2, x');
  await expect(ids).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('tab-cycle').click();
  await expect(page.getByTestId('cycle-view')).toBeVisible();
  await page.getByTestId('tab-layout').click();
  // Both fields were drawn anew with the cards' layout and list, their messages gone.
  await expect(layout).toHaveValue('[Shard(1), Shard(');
  await expect(layout).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('layout-text-destination-kept')).toBeVisible();
  await expect(ids).toHaveValue('0-2, x');
  await expect(ids).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('piece-count')).toHaveText('6 pieces');
  // Put right, the text goes: another visit shows what the cards read.
  await page.getByTestId('layout-text-destination-use').click();
  await ids.fill('3-5');
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  await expect(layout).toHaveValue('[Shard(1)]');
  await expect(ids).toHaveValue('3, 4, 5');
  await expect(ids).toHaveAttribute('aria-invalid', 'false');
});

test('removing a tensor dim that a layout shards says that the shard became a replica, until the next edit', async ({ page }) => {
  // `[Shard(1)]` turned into `[Replicate()]` with nothing said: the plan went from two shards to two copies.
  await open(page, 'toy');
  const note = page.getByTestId('removed-dim-note');
  await page.getByTestId('remove-tensor-dim-1').click();
  await expect(note).toHaveText("Tensor dim 1 is gone: the destination's Shard(dim=1) is a Replicate() now.");
  await expect(page.getByTestId('layout-text-destination')).toHaveValue('[Replicate()]');
  await expect(page.getByTestId('change-placements')).toHaveText('[Shard(0)] → [Replicate()]');
  // The next edit, here undo, ends it.
  await page.getByTestId('change-description').click();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('change-placements')).toHaveText('[Shard(0)] → [Shard(1)]');
  await expect(note).toHaveCount(0);
  // A removal that only moves shards down means the same layout, and says nothing.
  await page.getByTestId('add-tensor-dim').click();
  await page.getByTestId('remove-tensor-dim-2').click();
  await expect(page.getByTestId('change-placements')).toHaveText('[Shard(0)] → [Shard(1)]');
  await expect(note).toHaveCount(0);
});

test('text kept in number fields follows its row when a dim is removed or added, never another field', async ({ page }) => {
  await open(page, 'toy');
  await page.getByTestId('field-tensor-shape-1').fill('6x');
  await page.getByTestId('remove-tensor-dim-1').click();
  await page.getByTestId('add-tensor-dim').click();
  // The new dim 1 once showed "6x", the text typed into the dim removed before it.
  await expect(page.getByTestId('field-tensor-shape-1')).not.toHaveValue('6x');
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  await expect(page.getByTestId('field-tensor-shape-1')).not.toHaveValue('6x');
  await expect(page.getByTestId('problems-tensor-shape-1')).toBeEmpty();

  // Removing dim 0 under text typed into dim 1: the row that holds it is dim 0 now, and after a tab trip
  // the text is there, in that row and no other (it was dropped, and the field showed 6 without a word).
  await open(page, 'toy');
  await page.getByTestId('add-tensor-dim').click();
  await page.getByTestId('field-tensor-shape-1').fill('6x');
  await page.getByTestId('field-tensor-shape-2').fill('9');
  await page.getByTestId('remove-tensor-dim-0').click();
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  // Read until the editors are drawn again (evaluateAll does not wait for them).
  await expect
    .poll(() => page.locator('[data-testid^=field-tensor-shape-]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))
    .toEqual(['6x', '9']);
  await expect(page.getByTestId('problems-tensor-shape-0')).toHaveText('`6x` is not a whole number');
  await expect(page.getByTestId('editor-status')).toHaveText('1 problem: the pictures show the last valid change.');
  // The layout text too, through a mesh dim added.
  const layout = page.getByTestId('layout-text-source');
  await layout.fill('[Shard(1), Shard(');
  await page.getByTestId('add-mesh-dim-source').click();
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('tab-layout').click();
  await expect(layout).toHaveValue('[Shard(1), Shard(');
});

test('every editor control is labelled and reachable by Tab', async ({ page }) => {
  await open(page, 'fsdp-tp');
  const controls = page.getByTestId('editors').locator('input, select, button, textarea');
  const count = await controls.count();
  expect(count).toBeGreaterThan(20);
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    const name = await control.evaluate((el) => {
      const labelled = el.getAttribute('aria-label') ?? '';
      const byFor = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '' : '';
      const wrapped = el.closest('label')?.textContent ?? '';
      const text = el.tagName === 'BUTTON' ? el.textContent ?? '' : '';
      return (labelled + byFor + wrapped + text).trim();
    });
    expect(name, `control ${i} has an accessible name`).not.toBe('');
    // A stepper's −/+ are the pointer's: its field, a spin button in the Tab order, steps by the arrow keys
    // (WAI-ARIA's spin button), so they are not stops of their own (three stops a size made 48 in all).
    const step = await control.evaluate((el) => el.classList.contains('step'));
    const field = control.locator('xpath=../input[@role="spinbutton"]');
    if (step) {
      expect(await control.getAttribute('tabindex')).toBe('-1');
      await expect(field).toHaveCount(1);
      expect(await field.getAttribute('tabindex')).not.toBe('-1');
    } else {
      expect(await control.getAttribute('tabindex')).not.toBe('-1');
    }
  }
  // Tab from the tensor name reaches the first dim's size, which the arrow keys step.
  await page.getByTestId('field-tensor-name').focus();
  await page.keyboard.press('Tab');
  const size = page.getByTestId('field-tensor-shape-0');
  await expect(size).toBeFocused();
  const before = Number(await size.inputValue());
  await page.keyboard.press('ArrowUp');
  await expect(size).toHaveValue(String(before + 1));
  await page.keyboard.press('ArrowDown');
  await expect(size).toHaveValue(String(before));
  // Then Tab goes past the buttons to the dim's remove button, and on to the next size.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('remove-tensor-dim-0')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('field-tensor-shape-1')).toBeFocused();
});

test('screenshots of the editor column at 1280×800 and 1920×1080', async ({ page }) => {
  fs.mkdirSync(screenshots, { recursive: true });
  for (const [width, height] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await open(page, 'toy');
    const editors = page.locator('aside.editors');
    await editors.screenshot({ path: path.join(screenshots, `editor-toy-${width}x${height}.png`) });
    await page.getByTestId('layout-text-destination').fill('[Shard(0), Bogus]');
    await page.getByTestId('field-source-mesh-0').fill('0');
    await editors.screenshot({ path: path.join(screenshots, `editor-invalid-${width}x${height}.png`) });
    await open(page, 'fsdp-tp');
    await editors.screenshot({ path: path.join(screenshots, `editor-fsdp-tp-${width}x${height}.png`) });
  }
});

test('a button greyed at the most dims says why; a strided placement is named in its select, and a typo with the name meant', async ({ page }) => {
  await page.goto('/?preset=toy');
  const addTensorDim = page.getByTestId('add-tensor-dim');
  await expect(addTensorDim).not.toHaveAttribute('title');
  for (let rank = 2; rank < 8; rank++) await addTensorDim.click();
  await expect(addTensorDim).toBeDisabled();
  await expect(addTensorDim).toHaveAttribute('title', 'A tensor has at most 8 dims');
  const addMeshDim = page.getByTestId('add-mesh-dim-source');
  await expect(addMeshDim).toHaveAttribute('title', /^Adds an outer mesh dim/);
  for (let rank = 1; rank < 8; rank++) await addMeshDim.click();
  await expect(addMeshDim).toBeDisabled();
  await expect(addMeshDim).toHaveAttribute('title', 'A mesh has at most 8 dims');

  // A strided placement typed as text is named in the placement's select as the others are (its DTensor
  // spelling was cut to "_StridedShard(di").
  await page.goto('/?preset=toy');
  await page.getByTestId('layout-text-source').fill('[_StridedShard(dim=0, split_factor=2)]');
  const select = page.getByTestId('field-source-placement-0');
  await expect(select.locator('option:checked')).toHaveText('Strided(0, ×2)');
  // A select does not report its text's overflow: its text is measured in its font, beside the arrow (the font
  // loaded first: a canvas measures in a fallback while the app's font is still on its way).
  const fits = await select.evaluate(async (s: HTMLSelectElement) => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = getComputedStyle(s).font;
    await document.fonts.load(context.font, s.selectedOptions[0].text);
    return context.measureText(s.selectedOptions[0].text).width <= s.clientWidth - 28;
  });
  expect(fits).toBe(true);

  // A dim the tensor does not have is named as the others are (it read "Shard(dim=5)").
  await page.goto('/?preset=toy');
  await page.getByTestId('layout-text-source').fill('[Shard(5)]');
  await expect(page.getByTestId('field-source-placement-0').locator('option:checked')).toHaveText('Shard(dim 5)');

  // The whole list of spellings took nine lines of the narrow column; a typo gets the name meant.
  await page.goto('/?preset=toy');
  await page.getByTestId('layout-text-source').fill('[Shrd(0)]');
  await expect(page.getByTestId('problems-source-layout')).toHaveText(/`Shrd\(0\)` is not a placement; did you mean Shard\(0\)\?/);
});

test('the strided order is written as PyTorch writes it, and the text read back keeps the layout', async ({ page }) => {
  // "[Shard(0), Shard(0)]" pasted into PyTorch is the other order: the text says _StridedShard.
  await page.goto('/?preset=nested');
  const text = page.getByTestId('layout-text-source');
  const order = page.getByTestId('field-source-order');
  await expect(text).toHaveValue('[Shard(0), Shard(0)]');
  const offsets = () => page.locator('[data-testid=piece][data-dst="8"]').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-src')).join());
  // The pieces once drawn (evaluateAll does not wait for them); after an edit, once the picture has followed.
  await expect(page.getByTestId('piece')).toHaveCount(32);
  const meshOrder = await offsets();
  await order.check();
  await expect(text).toHaveValue('[_StridedShard(dim=0, split_factor=4), Shard(0)]');
  await expect.poll(offsets).not.toBe(meshOrder);
  const strided = await offsets();
  // Typed back (or pasted from PyTorch), the same layout: the box stays ticked, the pieces stay.
  await text.fill('[_StridedShard(dim=0, split_factor=4), Shard(0)]');
  await text.blur();
  await expect(order).toBeChecked();
  expect(await offsets()).toBe(strided);
  // Unticked, the strided shard becomes a plain one: mesh order again.
  await order.uncheck();
  await expect(order).not.toBeChecked();
  await expect(text).toHaveValue('[Shard(0), Shard(0)]');
  await expect.poll(offsets).toBe(meshOrder);
});

test("removing a dim puts the focus on the × now in its place, or on '+ dim' when none is left to remove", async ({ page }) => {
  // The × went with its row and the focus fell to the page's body (a screen reader lost its place).
  await page.goto('/?preset=toy');
  await page.getByTestId('add-tensor-dim').click();
  await page.getByTestId('remove-tensor-dim-1').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('field-tensor-shape-1')).toHaveValue('4');
  await expect(page.getByTestId('remove-tensor-dim-1')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('add-tensor-dim')).toBeFocused();
  await page.goto('/?preset=nested');
  await page.getByTestId('remove-mesh-dim-source-1').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('add-mesh-dim-source')).toBeFocused();
});

test("typing a tensor's name plans nothing again: the plans, the comparison and the check's counts stay", async ({ page }) => {
  // Each key typed into the name of a 65,536-device change planned it again, 0.4–0.85 s (review 34). What
  // the core is asked is read from the performance measures the app records around each call.
  await open(page, 'uneven');
  const asked = () => page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name));
  const planning = ['plan', 'compare strategies', 'constraint check'];
  await page.waitForTimeout(300);
  await page.evaluate(() => performance.clearMeasures());
  await page.getByTestId('field-tensor-name').fill('wq');
  await expect(page.getByTestId('change-description')).toContainText('wq');
  await page.waitForTimeout(500);
  expect((await asked()).filter((name) => planning.includes(name))).toEqual([]);
  // A new shape is a new plan: the same measures show it.
  await page.getByTestId('field-tensor-shape-0').fill('8');
  await expect.poll(async () => (await asked()).filter((name) => planning.includes(name)).sort()).toEqual([...planning].sort());
});

test('a strategy picked again, or by Back, is not planned or checked again, until the change is another', async ({ page }) => {
  // Back to a strategy seen a moment before planned it again: 6 s with 81,000 tensors (review 43).
  await open(page, 'uneven');
  const plans = () => page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name === 'plan').length);
  await page.waitForTimeout(300);
  await page.evaluate(() => performance.clearMeasures());
  await page.getByTestId('strategy-option-gather').click();
  await expect.poll(plans).toBe(1);
  await page.getByTestId('strategy-option-intersection').click();
  await page.getByTestId('strategy-option-gather').click();
  await expect(page.getByTestId('strategy-option-gather')).toBeChecked();
  await page.waitForTimeout(300);
  expect(await plans(), 'both plans kept').toBe(1);
  // Back draws the view anew: neither the plan nor the constraint check is made again. (A step is kept in
  // the history once the page has held still a moment.)
  await page.waitForTimeout(1000);
  await page.evaluate(() => performance.clearMeasures());
  await page.goBack();
  await expect(page.getByTestId('strategy-option-intersection')).toBeChecked();
  await page.waitForTimeout(500);
  const asked = await page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name));
  expect(asked.filter((name) => ['plan', 'compare strategies', 'constraint check'].includes(name))).toEqual([]);
  // Another change: the plans kept are of the change before, and the new one is planned.
  await page.getByTestId('field-tensor-shape-0').fill('8');
  await expect.poll(plans).toBe(1);
});

test('a new latency or bandwidth re-prices the plans, which are not made again; the check runs again', async ({ page }) => {
  // Each key typed into the latency planned the three strategies again (~1 s each for a 4,096-device
  // crossing). The plans read devices per node only; the prices follow the field at once.
  await open(page, 'uneven');
  const asked = () => page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name));
  const planning = ['plan', 'compare strategies'];
  const formula = page.getByTestId('estimate-formula');
  const time = page.getByTestId('compare-estimated-time-gather');
  const before = { formula: await formula.textContent(), time: await time.textContent() };
  await page.waitForTimeout(300);
  await page.evaluate(() => performance.clearMeasures());
  await page.getByTestId('field-topology-latency-us').fill('400');
  await expect(formula).toContainText('400 µs ×');
  await expect(time).not.toHaveText(before.time ?? '');
  await expect.poll(async () => (await asked()).filter((name) => name === 'constraint check').length).toBe(1);
  await page.getByTestId('field-topology-nvlink-gbps').fill('3');
  await expect(formula).toContainText('÷ 3 GB/s');
  await expect.poll(async () => (await asked()).filter((name) => name === 'constraint check').length).toBe(2);
  expect((await asked()).filter((name) => planning.includes(name))).toEqual([]);
  // Back to the prices it was planned with: the first numbers again.
  await page.getByTestId('field-topology-latency-us').fill('5');
  await page.getByTestId('field-topology-nvlink-gbps').fill('450');
  await expect(formula).toHaveText(before.formula ?? '');
  await expect(time).toHaveText(before.time ?? '');
  // New nodes class the links anew: that is a new plan.
  await page.getByTestId('field-topology-devices-per-node').fill('2');
  await expect.poll(async () => (await asked()).filter((name) => planning.includes(name)).sort()).toEqual([...planning].sort());
});

test("P() is read as JAX's empty PartitionSpec, and the field says so; [P()] is Partial without a word", async ({ page }) => {
  // A DTensor user typed P() for Partial and got Replicate without a word (review 37).
  await page.goto('/?preset=toy');
  await page.getByTestId('layout-text-source').fill('P()');
  await expect(page.getByTestId('layout-text-source-reading')).toHaveText(
    "Read as JAX's empty PartitionSpec: every tensor dim is replicated. For DTensor's Partial, write [Partial()].",
  );
  await page.getByTestId('layout-text-source').fill('[P()]');
  await expect(page.getByTestId('layout-text-source-reading')).toHaveCount(0);
  await expect(page.getByTestId('change-placements')).toHaveText('[Partial()] → [Shard(1)]');
});
