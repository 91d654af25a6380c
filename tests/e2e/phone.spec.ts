// The app on a phone's screen (320 to 414 px): presenting and the tour in one column, a tooltip kept in the
// part of a scrolled picture in sight, the editors' controls inside their cards. Screenshots for a human.
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { cardsFit } from './cards';
import { layoutSettled, steady } from './settle';

const screenshots = path.join(__dirname, 'screenshots');
test.beforeAll(() => fs.mkdirSync(screenshots, { recursive: true }));

// How much wider than `text` (in the element's font) the element's text box is: its width less its padding
// and `reserved` pixels (a select's arrow).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { roomFor: unknown }).roomFor = (element: HTMLElement, text: string, reserved: number) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(element).font;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'pre';
      probe.textContent = text;
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      const style = getComputedStyle(element);
      return element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - reserved - needed;
    };
  });
});

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

test('presenting on a phone is one column: the headline, the tensor and the devices one under another', async ({ page }) => {
  // Beside the tensor, the headline's column was 34 px wide at 360 px and the meshes ran the page to 450.
  for (const width of [320, 360, 414]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=toy&present');
    await expect(page.getByTestId('piece')).toHaveCount(6);
    // Measured once the slide has fitted its pictures (a frame or two after load).
    await layoutSettled(page);
    const headline = await box(page, '.change-panel');
    const tensor = await box(page, '[data-testid=tensor-view]');
    const meshes = await box(page, '[data-testid=mesh-view]');
    expect(headline.width, `headline at ${width} px`).toBeGreaterThan(width * 0.8);
    expect(tensor.y, `tensor under the headline at ${width} px`).toBeGreaterThanOrEqual(headline.y + headline.height - 1);
    expect(meshes.y, `devices under the tensor at ${width} px`).toBeGreaterThanOrEqual(tensor.y + tensor.height - 1);
    expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
  }
  await page.screenshot({ path: path.join(screenshots, 'phone-present.png'), fullPage: true });
});

test('on a phone the whole-shard plan keeps the page inside the screen: its toggle wraps', async ({ page }) => {
  // "Show the whole-shard transfer (the plan shown)" stayed on one line and ran the page 22 px wide at 360 px.
  for (const width of [320, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=toy');
    await page.getByTestId('strategy-option-whole-shard').click();
    await expect(page.getByTestId('tensor-view').getByTestId('whole-shard-toggle')).toBeChecked();
    await layoutSettled(page);
    expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
  }
  await page.getByTestId('tensor-view').screenshot({ path: path.join(screenshots, 'phone-whole-shard-plan.png') });
});

test("on a phone the tour's buttons stand on their own line and its bar leaves half the screen", async ({ page }) => {
  // Beside the progress the buttons' column was 0 px wide at 320 px, Next stood past the screen's edge, and
  // the bar covered 731 px of 800.
  for (const width of [320, 360, 414]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=toy');
    await page.getByTestId('explain').click();
    for (let step = 0; step < 3; step++) {
      const next = await box(page, '[data-testid=tour-next]');
      expect(next.x + next.width, `Next at ${width} px, step ${step + 1}`).toBeLessThanOrEqual(width);
      const bar = await box(page, '[data-testid=tour]');
      expect(bar.height, `the bar at ${width} px, step ${step + 1}`).toBeLessThanOrEqual(800 * 0.5 + 1);
      // Words scrolled inside it: its lower edge fades out, so that a sentence cut there does not read as the end.
      // (The fade follows a scroll-driven animation, which takes its value on a frame after the step is drawn:
      // read until it has.)
      await expect
        .poll(
          () =>
            page.getByTestId('tour').evaluate((tour) => {
              const more = tour.scrollHeight > tour.clientHeight + 1;
              // The fading layer's own height: it read a length that does not inherit, and was 0 px.
              return `${more ? 'more below' : 'all in sight'}, fade ${getComputedStyle(tour, '::after').height}`;
            }),
          { message: `the bar's lower edge at ${width} px, step ${step + 1}` },
        )
        .toMatch(/^more below, fade 40px$|^all in sight, fade 0px$/);
      // Each way out whole, in its short words: not squeezed to a sliver (its column was 0 px wide), its
      // words not cut, not past the screen's edge.
      for (const id of ['tour-leave', 'tour-restore']) {
        const link = await box(page, `[data-testid=${id}]`);
        expect(link.width, `${id} at ${width} px`).toBeGreaterThan(30);
        expect(link.x + link.width, `${id} at ${width} px`).toBeLessThanOrEqual(width);
        const [words, room] = await page.getByTestId(id).evaluate((e) => [e.scrollWidth, e.clientWidth]);
        expect(words, `${id}'s words at ${width} px`).toBeLessThanOrEqual(room + 1);
      }
      expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
      // A real tap, not a scripted click: nothing covers Next.
      await page.getByTestId('tour-next').click();
      await expect(page.getByTestId('tour-progress')).toContainText(`Step ${step + 2} of`);
    }
  }
  await page.screenshot({ path: path.join(screenshots, 'phone-tour.png') });
});

test('on a phone the tensor is laid out to the screen: whole, at its drawn size, labelled', async ({ page }) => {
  // Drawn at 560 px it was cut behind a sideways scroll: uneven's d6 column, fsdp-tp's columns 600–1,024.
  for (const [preset, width] of [['uneven', 390], ['fsdp-tp', 360]] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/?preset=${preset}`);
    await expect(page.getByTestId('piece').first()).toBeVisible();
    const fit = await page.locator('.tensor-svg').evaluate((svg) => {
      const box = svg.closest('.tv-picture')!;
      return { scrolls: box.scrollWidth > box.clientWidth + 1, scale: svg.getBoundingClientRect().width / Number(svg.getAttribute('width')) };
    });
    expect(fit, `${preset} at ${width} px`).toEqual({ scrolls: false, scale: 1 });
  }
  await expect(page.locator('.tv-piece-label', { hasText: 'd7 → d11, d15' })).toBeVisible();
});

test("a piece's tooltip stays in the part of a scrolled tensor picture in sight", async ({ page }) => {
  // The uneven layout's picture is 630 px wide in a ~510 px box beside the editors of a 1,000 px window (a
  // phone lays it out to its screen instead): a tooltip beside a piece at the box's edge was placed in the
  // part scrolled away and never seen.
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.goto('/?preset=uneven');
  await expect(page.getByTestId('piece').first()).toBeVisible();
  const picture = page.locator('.tv-picture');
  await picture.scrollIntoViewIfNeeded();
  const scrolls = await picture.evaluate((e) => e.scrollWidth > e.clientWidth + 100);
  expect(scrolls, 'the picture scrolls sideways at 1,000 px').toBe(true);
  for (const scrollLeft of [0, 150]) {
    await picture.evaluate((e, left) => { e.scrollLeft = left; }, scrollLeft);
    // Pointed at where things stay: read once the page holds still (it is still laid out after it is drawn).
    const [sight, pieces] = await steady(page, async () => [
      (await picture.boundingBox())!,
      await page.getByTestId('piece').evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON())),
    ] as const);
    // The piece in sight that reaches furthest right, pointed at near its right end (or the box's edge).
    const end = sight.x + sight.width;
    const edge = pieces.filter((p) => p.left < end - 16 && p.right > sight.x).sort((a, b) => b.right - a.right)[0];
    if (!edge) throw new Error(`no piece in sight at scroll ${scrollLeft}`);
    expect(edge.right, `a piece reaches the box's edge at scroll ${scrollLeft}`).toBeGreaterThan(end - 40);
    await page.mouse.move(Math.min(edge.right, end) - 8, edge.top + Math.min(edge.height / 2, 20));
    const tooltip = page.getByTestId('piece-tooltip');
    await expect(tooltip).toHaveCount(1);
    const tip = (await tooltip.locator('rect').boundingBox())!;
    expect(tip.x, `tooltip's left at scroll ${scrollLeft}`).toBeGreaterThanOrEqual(sight.x - 0.5);
    expect(tip.x + tip.width, `tooltip's right at scroll ${scrollLeft}`).toBeLessThanOrEqual(sight.x + sight.width + 0.5);
    await page.mouse.move(0, 0);
  }
  // Scrolled while a piece keeps the focus: the tooltip follows into sight.
  await page.getByTestId('piece').first().focus();
  await picture.evaluate((e) => { e.scrollLeft = e.scrollWidth; });
  const sight = (await picture.boundingBox())!;
  await expect.poll(async () => {
    // No tooltip drawn (yet) is a "no", not a throw: a throw inside expect.poll fails at once.
    const tip = await page.getByTestId('piece-tooltip').locator('rect').boundingBox();
    return tip !== null && tip.x >= sight.x - 0.5 && tip.x + tip.width <= sight.x + sight.width + 0.5;
  }).toBe(true);
});

test("on a phone the editors' fields, the totals and the refit's parts fit their cards", async ({ page }) => {
  for (const width of [320, 360, 414]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=fsdp-tp');
    await expect(page.getByTestId('tensor-view')).toBeVisible();
    // Measured once laid out, in the app's fonts (they swap in after the first paint).
    await layoutSettled(page);
    // The tensor dims' remove buttons inside their fieldset (1.6 rem in a 1.3 rem column stood 5 px out).
    const dims = await box(page, '.tensor-card fieldset.dims');
    for (const remove of await page.locator('[data-testid^=remove-tensor-dim]').all()) {
      const b = (await remove.boundingBox())!;
      expect(b.x + b.width, `a dim's remove button at ${width} px`).toBeLessThanOrEqual(dims.x + dims.width + 0.5);
    }
    // A select shows the whole of its choice: side by side at 320 px, the cards cut "disjoint" and "bf16".
    for (const id of ['field-source-dtype', 'field-destination-devices', 'field-source-placement-0']) {
      const room = await page.getByTestId(id).evaluate((select: HTMLSelectElement) => {
        const w = window as unknown as { roomFor: (e: HTMLElement, text: string, reserved: number) => number };
        // Less the select's arrow (~20 px).
        return w.roomFor(select, select.selectedOptions[0].text, 20);
      });
      expect(room, `${id} at ${width} px`).toBeGreaterThanOrEqual(0);
    }
    // A total's value on one line ("1,048,57 / 6" at 414 px).
    const value = page.getByTestId('total-unique-entries').locator('.total-value');
    const lines = await value.evaluate((e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize));
    expect(lines, `the entries' value at ${width} px`).toBeLessThan(2);
  }
  // The refit's three parts inside their fieldset on the smallest phone.
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/?preset=cycle-120');
  await expect(page.getByTestId('refit-split')).toBeVisible();
  await layoutSettled(page);
  const split = await box(page, '[data-testid=refit-split]');
  for (const id of ['refit-wait', 'refit-transfer', 'refit-preparation']) {
    const b = await box(page, `[data-testid=${id}]`);
    expect(b.x + b.width, `${id} at 320 px`).toBeLessThanOrEqual(split.x + split.width + 0.5);
  }
  const room = await page.getByTestId('refit-transfer').evaluate((input: HTMLInputElement) => {
    const w = window as unknown as { roomFor: (e: HTMLElement, text: string, reserved: number) => number };
    return w.roomFor(input, input.placeholder, 0);
  });
  expect(room, "the transfer's placeholder whole").toBeGreaterThanOrEqual(0);
});

test("on a phone the pair heatmap scrolls sideways rather than shrink its labels out of reading", async ({ page }) => {
  // Fitted to a 320 px page, fsdp-tp's 11 px labels were drawn 5.7 px high.
  for (const width of [320, 414]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=fsdp-tp');
    const heatmap = page.getByTestId('heatmap');
    await heatmap.scrollIntoViewIfNeeded();
    await expect(heatmap).toBeVisible();
    const label = await heatmap.evaluate((svg: SVGSVGElement) => {
      const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
      const text = svg.querySelector('.heat-row-label')!;
      return parseFloat(getComputedStyle(text).fontSize) * scale;
    });
    expect(label, `a row label's size at ${width} px`).toBeGreaterThanOrEqual(8.5);
    expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
  }
});

test('on a phone a link on the first screen goes past the editors to the change, which the Tab goes on from', async ({ page }) => {
  // The editors stand over the pictures there: a shared link showed a screen and a half of fields first.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?preset=toy');
  const link = page.getByTestId('see-the-change');
  await expect(link).toBeVisible();
  // Where it stands once the bar and the presets above it are laid out (in fonts that may swap in late).
  await layoutSettled(page);
  expect((await link.boundingBox())!.y + (await link.boundingBox())!.height).toBeLessThanOrEqual(844);
  await expect(page.locator('#change')).not.toBeInViewport();
  await link.click();
  await expect(page.locator('#change')).toBeFocused();
  await expect(page.getByTestId('change-description')).toBeInViewport();
  await page.screenshot({ path: path.join(screenshots, 'phone-see-the-change.png') });
  // Beside the editors there is nothing to go past.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(link).toBeHidden();
});

test('a table wider than a phone fades out at the edge it scrolls on from, and a table that fits does not', async ({ page }) => {
  // Cut at a column's edge, a table read as all there is. The layout view's tables are cards on a phone now
  // (the strategies' since review 38: gather's column stood behind the scroll); the measured cycles' scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?preset=fsdp-tp');
  const strategies = page.getByTestId('strategy-table').locator('xpath=..');
  await strategies.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('compare-bytes-received-gather')).toBeVisible();
  expect(await strategies.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
  await page.goto('/?preset=cycle-120');
  const lines = ['cycle,stage,seconds'];
  for (let c = 1; c <= 12; c++) {
    for (const [stage, seconds] of [['generation', 70], ['scoring', 10], ['training', 30], ['refit', 10]] as const) {
      lines.push(`${c},${stage},${seconds + (c % 3)}`);
    }
  }
  await page.getByTestId('measured-text').fill(lines.join('\n'));
  const table = page.getByRole('region', { name: "Steady state: each stage's times, scrollable" });
  await table.scrollIntoViewIfNeeded();
  await expect(table).toBeVisible();
  // The fades follow a scroll-driven animation, which takes its value on a frame after the table is drawn:
  // read until it has.
  const fades = () =>
    table.evaluate((box) => {
      const style = getComputedStyle(box);
      return { start: style.getPropertyValue('--fade-start'), end: style.getPropertyValue('--fade-end'), wider: box.scrollWidth > box.clientWidth };
    });
  await expect.poll(fades).toEqual({ start: '0px', end: '40px', wider: true });
  await table.evaluate((box) => (box.scrollLeft = box.scrollWidth));
  await expect.poll(fades).toEqual({ start: '40px', end: '0px', wider: true });
  // Scrolled to max, the stage names stay in sight at the box's left edge, unfaded (they scrolled away,
  // leaving p90 and max without their stages): the box fades at its right edge only.
  const names = await table.evaluate((box) => {
    const left = box.getBoundingClientRect().left + box.clientLeft;
    return {
      offsets: [...box.querySelectorAll('tbody th, tfoot th')].map((th) => Math.round(th.getBoundingClientRect().left - left)),
      mask: getComputedStyle(box).maskImage.startsWith('linear-gradient(to right, rgb(0, 0, 0)'),
    };
  });
  expect(names).toEqual({ offsets: [0, 0, 0, 0, 0], mask: true });
  await page.screenshot({ path: path.join(screenshots, 'phone-measured-table-scrolled.png') });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=toy');
  const links = page.getByTestId('link-table').locator('xpath=..');
  await expect(links).toBeAttached();
  await expect.poll(() => links.evaluate((box) => [box.className, getComputedStyle(box).getPropertyValue('--fade-end')])).toEqual(['table-scroll', '0px']);
  // Only a box that scrolls is a tab stop and a named region: one that fits was a stop that did nothing
  // (review 41).
  expect(await links.evaluate((box) => [box.getAttribute('tabindex'), box.getAttribute('role')])).toEqual([null, null]);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/?preset=cycle-120');
  await page.getByTestId('measured-text').fill(lines.join('\n'));
  await expect(table).toHaveAttribute('tabindex', '0');
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('measured-steady').locator('.table-scroll')).not.toHaveAttribute('tabindex', /.*/);
});

test("on a phone the plan's pieces, the first mismatches and the transport rules fit the screen", async ({ page }) => {
  // As tables, the pieces' offsets, shapes and bytes and the mismatches' "found" stood behind a sideways
  // scroll; a rule's NCCL_RESHARD_MAX_TENSOR_DIMS ran out of its card.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?preset=fsdp-tp');
  await page.getByTestId('fault-select').selectOption('swap');
  await page.getByTestId('verify-button').click();
  await expect(page.getByTestId('mismatch-row').first()).toBeVisible();
  await page.locator('.constraints > summary').click();
  const overflowing = (selector: string) =>
    page.locator(selector).evaluate((t) => {
      const box = t.parentElement!.getBoundingClientRect();
      // The column heads are kept for screen readers only (clipped to nothing), as the inventory's cards do.
      const cells = [...t.querySelectorAll('td, tbody th, p, li, span')].filter((c) => getComputedStyle(c).display !== 'none' && c.getClientRects().length);
      return cells.filter((c) => c.getBoundingClientRect().right > box.right + 0.5).map((c) => c.textContent);
    });
  // Read once the opened checklist and the cards hold still (laid out in fonts that may swap in late).
  for (const selector of ['[data-testid=piece-table]', '[data-testid=mismatch-list]', '.rules']) {
    expect(await steady(page, () => overflowing(selector)), selector).toEqual([]);
  }
  // A piece: its devices, bytes, offset, shape and link in two lines.
  const piece = page.getByTestId('piece-table').locator('tbody tr').first();
  const [src, bytes, offset, link] = await Promise.all(
    ['piece-src', 'piece-bytes', 'piece-offset'].map((id) => piece.getByTestId(id).boundingBox()).concat(piece.locator('td').nth(7).boundingBox()),
  );
  expect(Math.abs(src!.y - bytes!.y), 'devices and bytes on one line').toBeLessThan(4);
  expect(offset!.y, 'offset under them').toBeGreaterThan(src!.y + src!.height - 1);
  expect(Math.abs(offset!.y - link!.y), 'offset and link on one line').toBeLessThan(4);
  await page.getByTestId('mismatch-list').screenshot({ path: path.join(screenshots, 'phone-mismatch-cards.png') });
});

test('on a phone each link and each device is a card that fits the screen: no column behind a sideways scroll', async ({ page }) => {
  // As five columns, the link table's times and the device table's "messages in" sat past a phone's edge.
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/?preset=fsdp-tp');
    const links = page.getByTestId('link-table');
    await expect(links.locator('tbody tr')).toHaveCount(16);
    const devices = page.getByTestId('device-bars');
    await expect(devices.locator('tbody tr')).toHaveCount(16);
    for (const table of [links, devices]) {
      // Read once the cards hold still (their widths are their text's, in fonts that may swap in late).
      const fit = await steady(page, () => table.evaluate((t) => {
        const box = t.parentElement!;
        const right = box.getBoundingClientRect().right;
        const cells = [...t.querySelectorAll('td, th')].filter((c) => getComputedStyle(c).display !== 'none');
        return { wider: box.scrollWidth > box.clientWidth, past: cells.filter((c) => c.getBoundingClientRect().right > right + 0.5).length };
      }));
      expect(fit, `${await table.getAttribute('data-testid')} at ${width} px`).toEqual({ wider: false, past: 0 });
    }
    // A link's card: its device and name on the first line, its bytes, bar and time on the second.
    const first = links.locator('tbody tr').first();
    const [device, name, bytes, time] = await Promise.all(
      ['td:nth-child(1)', 'td:nth-child(2)', 'td:nth-child(3)', 'td:nth-child(5)'].map((cell) => first.locator(cell).boundingBox()),
    );
    // (The name's badges may take a second line at 320 px: the device then stands beside both.)
    const middle = device!.y + device!.height / 2;
    expect(middle > name!.y && middle < name!.y + name!.height, 'device beside its link').toBe(true);
    expect(bytes!.y, 'bytes under the link').toBeGreaterThanOrEqual(name!.y + name!.height - 1);
    expect(Math.abs(bytes!.y - time!.y), 'bytes and time on one line').toBeLessThan(4);
    await expect(first.locator('td').nth(4)).toHaveText('10.49 µs');
    // A device's messages are named under its bars, since their columns' headers are not drawn.
    const messages = await devices.locator('tbody tr').first().locator('td.num').evaluateAll((cells) =>
      cells.map((c) => getComputedStyle(c, '::before').content + c.textContent),
    );
    expect(messages).toEqual(['"messages out: "2', '"messages in: "0']);
    // The link table's header row is its sort buttons, and says so ("DEVICE" stood over the bytes).
    expect(await links.locator('thead tr').evaluate((r) => getComputedStyle(r, '::before').content)).toBe('"Sort by"');
    // The strategy choice's names are whole in their segments ("Intersection", chosen and bold, was cut).
    const cut = await page.getByTestId('strategy-choice').locator('.segment').evaluateAll((segments) =>
      segments.filter((s) => s.scrollWidth > s.clientWidth + 0.5).map((s) => s.textContent),
    );
    expect(cut, `segments cut at ${width} px`).toEqual([]);
    // And every segment is whole inside the control, whose edge clips them (at 320 px the third ran past it,
    // "Gather then broadcast" cut to "Gath / then / broa").
    const outside = await page.getByTestId('strategy-choice').locator('.segments').evaluate((control) => {
      const edge = control.getBoundingClientRect().right;
      return [...control.querySelectorAll('.segment')].filter((s) => s.getBoundingClientRect().right > edge + 0.5).map((s) => s.textContent);
    });
    expect(outside, `segments past the control's edge at ${width} px`).toEqual([]);
  }
  await page.getByTestId('link-table').scrollIntoViewIfNeeded();
  // Below the pictures, panels are drawn once near the screen (content-visibility): two frames after.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.screenshot({ path: path.join(screenshots, 'phone-link-cards.png') });
});

test("on a phone the strategy bars get shorter rather than shrink their labels", async ({ page }) => {
  // The 480-unit charts drawn in a 290 px box: 13 px names and values were 7 px high at 320 px, then 9 px
  // at 390 px. The names now stand above their bars where beside them they would shrink.
  for (const width of [320, 390, 414]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?preset=fsdp-tp');
    const chart = page.getByTestId('strategy-chart-bytes-received');
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toBeVisible();
    await expect
      .poll(() => chart.evaluate((svg: SVGSVGElement) => svg.viewBox.baseVal.width), { message: `${width} px` })
      .toBeLessThan(480);
    const sizes = await chart.evaluate((svg: SVGSVGElement) => {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const size = (selector: string) => parseFloat(getComputedStyle(svg.querySelector(selector)!).fontSize) * scale;
      // Every value ends inside the picture.
      const right = svg.getBoundingClientRect().right;
      const inside = [...svg.querySelectorAll('.chart-value, .chart-name')].every((t) => {
        const box = t.getBoundingClientRect();
        return box.right <= right + 0.5 && box.left >= svg.getBoundingClientRect().left - 0.5;
      });
      // No name overlaps a bar.
      const bars = [...svg.querySelectorAll('.chart-bar')].map((b) => b.getBoundingClientRect());
      const clear = [...svg.querySelectorAll('.chart-name')].every((t) => {
        const n = t.getBoundingClientRect();
        return bars.every((b) => n.right <= b.left || n.left >= b.right || n.bottom <= b.top || n.top >= b.bottom);
      });
      return { name: size('.chart-name'), value: size('.chart-value'), inside, clear };
    });
    expect(sizes.name, `a strategy's name at ${width} px`).toBeGreaterThanOrEqual(12);
    expect(sizes.value, `a value at ${width} px`).toBeGreaterThanOrEqual(12);
    expect(sizes.inside, `names and values inside at ${width} px`).toBe(true);
    expect(sizes.clear, `names clear of the bars at ${width} px`).toBe(true);
    expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
  }
  await page.getByTestId('strategy-chart').screenshot({ path: path.join(screenshots, 'phone-strategy-bars.png') });
});

test('on a phone the speedup chart keeps its text readable and its labels apart', async ({ page }) => {
  // Never narrower than 560 units, it drew its text 8 px high at 375 px, and the bound's label ran
  // across the whole plot.
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/?view=cycle&preset=cycle-120');
    const chart = page.getByTestId('cycle-curve');
    await chart.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('curve-marker-label')).toHaveText('s = 4 → 1.067×');
    // Read once the chart holds still: drawn at its widest viewBox, it is fitted to the phone's width a frame
    // later (a ResizeObserver's measure), and its labels' boxes are their font's, which may swap in late.
    const seen = await steady(page, () => chart.evaluate((svg: SVGSVGElement) => {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const box = (e: Element) => e.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')];
      const labels = texts.filter((t) => /curve-(family|current|asymptote|marker)-label/.test(t.getAttribute('class') ?? ''));
      const overlaps: string[] = [];
      for (const [i, a] of labels.entries())
        for (const b of labels.slice(i + 1)) {
          const [p, q] = [box(a), box(b)];
          if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) overlaps.push(`${a.textContent} / ${b.textContent}`);
        }
      const frame = box(svg);
      // The bound's label stands on a ground that hides the grey curves rising through it near s = 1.
      const [label, ground] = [box(svg.querySelector('.curve-asymptote-label')!), box(svg.querySelector('.curve-label-ground')!)];
      return {
        grounded: ground.left <= label.left && label.right <= ground.right && ground.top <= label.top + 1 && label.bottom <= ground.bottom + 1,
        font: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
        outside: texts.filter((t) => box(t).left < frame.left - 1 || box(t).right > frame.right + 1).map((t) => t.textContent),
        overlaps,
      };
    }));
    expect(seen.font, `the smallest text at ${width} px`).toBeGreaterThanOrEqual(9);
    expect(seen.outside, `${width} px`).toEqual([]);
    expect(seen.overlaps, `${width} px`).toEqual([]);
    expect(seen.grounded, `the bound's label on its ground at ${width} px`).toBe(true);
    expect(await pageWidth(page), `${width} px`).toBeLessThanOrEqual(width);
  }
  await page.getByTestId('cycle-curve').screenshot({ path: path.join(screenshots, 'phone-speedup-curve.png') });
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 360, height: 800 } });

  test('every small control is a target of 24 × 24 px at least', async ({ page }) => {
    // With a finger: 13 px checkboxes, 17 px radios, 20 px sort buttons, 22 px steppers, a 16 px slider, a 21 px × that
    // removed a tensor dim beside its +.
    const small = async () =>
      page.locator('input[type=checkbox], input[type=radio], input[type=range], .sort-button, .step, .icon-button, .remove').evaluateAll((elements) =>
        elements
          .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
          .map((e) => ({ e: e.getAttribute('data-testid') ?? e.className, r: e.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 2 && (r.width < 23.5 || r.height < 23.5))
          .map(({ e, r }) => `${e} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`),
      );
    for (const preset of ['fsdp-tp', 'cycle-120']) {
      await page.goto(`/?preset=${preset}`);
      await expect(page.locator('.view-panel')).toBeVisible();
      // Measured once laid out (a fixed 200 ms was a guess at how long that takes).
      await layoutSettled(page);
      expect(await small(), preset).toEqual([]);
      expect(await pageWidth(page), preset).toBeLessThanOrEqual(360);
    }
  });
});

test("on a phone the inventory's tables are cards: every figure on the first screen, named", async ({ page }) => {
  // As five columns, the bytes sat behind a sideways scroll: the first screen showed names without a number.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?view=inventory');
  // The tensor table too: as columns, its bytes stood 500 px right of the names.
  for (const id of ['inventory-totals', 'inventory-groups', 'inventory-tensors']) {
    const table = page.getByTestId(id);
    await expect(table).toBeVisible();
    // Read once the cards hold still (laid out in fonts that may swap in after the first paint).
    expect(await steady(page, () => cardsFit(table)), id).toEqual({ wider: false, past: 0, unnamed: 0 });
  }
  // Each figure beside its column's name; the ratios as Compare strategies writes them.
  const first = page.getByTestId('inventory-strategy').first();
  await expect(first.locator('td').last()).toHaveText('1×');
  const label = await first.locator('td').first().evaluate((c) => getComputedStyle(c, '::before').content);
  expect(label).toBe('"Bytes received"');
  await page.getByTestId('inventory-totals').screenshot({ path: path.join(screenshots, 'phone-inventory-totals.png') });
});

test("on a phone the timeline's seconds are read at about 10 px, not 8", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?preset=cycle-overlap');
  const tick = page.locator('.gantt .gantt-tick').first();
  await expect(tick).toBeAttached();
  // The font size in viewBox units times the picture's scale: the size read on the screen, once the chart is
  // fitted to the phone's width (drawn at its widest viewBox, it is fitted a frame later).
  const px = await steady(page, () => tick.evaluate((t) => {
    const svg = (t as SVGTextElement).ownerSVGElement!;
    return parseFloat(getComputedStyle(t).fontSize) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
  }));
  expect(px).toBeGreaterThan(9.5);
});

test("on a phone the heatmap's legend stays inside its box: the local copies' entry goes under the ramp", async ({ page }) => {
  // Beside the ramp, "local copy (no link)" ran the colocated heatmap 27 px past its 294 px box (review 35).
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/?preset=colocated');
  const box = page.locator('.heatmap-scroll');
  await expect(box.locator('text', { hasText: 'local copy (no link)' })).toBeAttached();
  await layoutSettled(page);
  const [scroll, client] = await box.evaluate((e) => [e.scrollWidth, e.clientWidth]);
  expect(scroll, 'no sideways scroll').toBeLessThanOrEqual(client);
});

test("a heatmap wider than a phone is not faded at its edges (a lighter cell would read as fewer bytes) but says it scrolls", async ({ page }) => {
  // The tables' scroll fade lightened the heatmap's last columns (review 38).
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/?preset=large');
  await expect(page.getByTestId('heatmap')).toBeVisible();
  const scroller = page.locator('.heatmap-scroll');
  expect(await scroller.evaluate((s) => s.scrollWidth > s.clientWidth)).toBe(true);
  expect(await scroller.evaluate((s) => getComputedStyle(s).maskImage)).toBe('none');
  // What says that it scrolls instead: a line over it (a 360 px embed showed 7 of 8 columns, the eighth
  // cut, with no sign that the grid went on: review 48).
  const hint = page.getByTestId('heatmap-scroll-hint');
  await expect(hint).toBeVisible();
  await expect(hint).toHaveText(/^32 columns, wider than this page: scroll the grid sideways/);
  // Not over a grid that fits: the toy's two columns at 360 px, and fsdp-tp's eight on a laptop.
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('heatmap')).toBeVisible();
  await layoutSettled(page);
  await expect(page.getByTestId('heatmap-scroll-hint')).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=fsdp-tp');
  await expect(page.getByTestId('heatmap')).toBeVisible();
  await layoutSettled(page);
  await expect(page.getByTestId('heatmap-scroll-hint')).toBeHidden();
  await expect(page.getByTestId('heatmap-scroll-hint')).toHaveText(/^8 columns/);
});

test("on a phone the cycle's substituted formula stands on a line of its own, whole", async ({ page }) => {
  // After "new/old = 1 − f + f/s =" it broke mid-sum on every phone (reviews 32, 35, 38).
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/?preset=cycle-queue');
  const formula = page.getByTestId('cycle-working').locator('.working-formula');
  await expect(formula).toHaveText('1 - 0.0167 + 0.0167/4 = 0.9875');
  expect(await formula.evaluate((chip) => chip.getClientRects().length), 'one box, one line').toBe(1);
  const [line, chip] = await formula.evaluate((chip) => [
    parseFloat(getComputedStyle(chip.querySelector('.formula-part')!).lineHeight) || 24,
    chip.getBoundingClientRect().height,
  ]);
  expect(chip).toBeLessThan(line * 1.6);
});
