const { chromium } = require('playwright-core');
(async () => {
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
  const errs = [];
  p.on('console', m => { if (m.type() === 'error' || m.type()==='warning') errs.push(m.type()+': '+m.text()); });
  p.on('pageerror', e => errs.push('pageerror: ' + e.message));
  for (const preset of ['toy','partial','fsdp-tp']) {
    await p.goto('http://127.0.0.1:4400/?preset=' + preset);
    await p.waitForTimeout(1500);
    const sel = p.locator('[data-testid=fault-select]');
    const n = await sel.locator('option').count();
    for (let i = 0; i < n; i++) {
      await sel.selectOption({ index: i });
      await p.getByRole('button', { name: 'Verify' }).click();
      await p.waitForTimeout(700);
      const card = p.locator('h2, h3', { hasText: 'Check correctness' }).first().locator('xpath=ancestor::*[self::section or self::article or contains(@class,"card")][1]');
      await card.scrollIntoViewIfNeeded();
      console.log('--- ', preset, i, '\n', await card.innerText());
      await card.screenshot({ path: `/tmp/verify-${preset}-${i}.png` });
    }
  }
  console.log('ERRS', errs);
  await b.close();
})();
