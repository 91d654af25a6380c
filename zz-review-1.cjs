const { chromium } = require('playwright-core');
(async () => {
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
  const errs = [];
  p.on('console', m => { if (m.type() === 'error' || m.type()==='warning') errs.push(m.type()+': '+m.text()); });
  p.on('pageerror', e => errs.push('pageerror: ' + e.message));
  p.on('request', r => { if (!r.url().startsWith('http://127.0.0.1:4400')) errs.push('EXTERNAL '+r.url()); });
  for (const preset of ['toy','partial','fsdp-tp','uneven']) {
    await p.goto('http://127.0.0.1:4400/?preset=' + preset);
    await p.waitForTimeout(1500);
    // expand constraint check
    const det = p.locator('summary', { hasText: 'Constraint check' });
    if (await det.count()) { await det.first().click(); await p.waitForTimeout(300);
      const sec = det.first().locator('xpath=..');
      console.log('=== constraint', preset, '\n', (await sec.innerText()).slice(3000, 6000)); }
    const sel = p.locator('[data-testid=fault-select]');
    const opts = await sel.first().locator('option').allTextContents();
    console.log('fault options', opts);
    for (const o of opts) {
      await sel.first().selectOption({ index: opts.indexOf(o) });
      await p.getByRole('button', { name: 'Verify' }).click();
      await p.waitForTimeout(500);
      const sec = p.locator('section, div').filter({ has: p.getByRole('button', { name: 'Verify' }) }).last();
      console.log('--- fault', o, '\n', (await sec.innerText()).slice(0, 1500));
    }
  }
  console.log('ERRS', errs);
  await b.close();
})();
