import { makeArticleHtml } from '../fixtures/make-article.ts';
import { expect, player, test, TEST_KEY } from './fixtures.ts';

test.use({ serviceOptions: { msPerChar: 0.35, minMs: 200 } });

async function readArticle(ext: import('./fixtures.ts').ExtensionHelpers, path = 'sample-article.html') {
  const { tabId } = await ext.openTab(path);
  const popup = await ext.openPopup(tabId);
  return { popup, p: player(popup), error: popup.getByTestId('error') };
}

test('a key the service refuses stops at once and offers the settings', async ({ ext, service }) => {
  await ext.configure();
  service.configure({ accounts: [{ key: 'vk_live_other', name: 'x', balanceRub: '1.0000', pricePerMillionRub: '1500.0000', maxConcurrency: 1 }] });
  const { popup, p, error } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'error');
  await expect(error).toHaveAttribute('data-code', 'unauthorized');
  await expect(popup.getByRole('button', { name: /settings|настройки/i })).toBeVisible();
  expect(await popup.content()).not.toContain(TEST_KEY);
});

test('402 mid-reading: what was received plays out, then insufficient_balance, and nothing more is requested', async ({
  ext,
  service,
  pages,
}) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/six.html', makeArticleHtml(6_000));
  service.addFault({ match: { nth: 3 }, kind: 'status', status: 402, code: 'insufficient_balance' });
  const { popup, p, error } = await readArticle(ext, 'six.html');
  await expect.poll(async () => Number(await p.getAttribute('data-parts'))).toBeGreaterThan(3);
  await expect(p).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(error).toHaveAttribute('data-code', 'insufficient_balance');
  expect(service.speechLog()).toHaveLength(3);
  // Both paid parts were played before the error showed.
  expect(Number(await p.getAttribute('data-part'))).toBe(1);
  const paid = service.speechLog().filter((e) => e.status === 200);
  await expect(popup.getByTestId('chars')).toHaveAttribute('data-value', String(paid.reduce((n, e) => n + e.billedChars, 0)));
  await expect(popup.getByTestId('balance')).toHaveAttribute('data-value', service.account(TEST_KEY).balanceRub);
});

test('an empty balance on the first part: error with the balance shown', async ({ ext, service }) => {
  await ext.configure();
  service.setBalance(TEST_KEY, '0.0000');
  const { popup, p, error } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'error');
  await expect(error).toHaveAttribute('data-code', 'insufficient_balance');
  await expect(popup.getByTestId('cost')).toHaveAttribute('data-value', '0.0000');
});

test('a part the service refuses is skipped with a notice and the reading goes on', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: { text: 'Интонация и паузы' }, kind: 'status', status: 422, code: 'content_rejected' });
  const { popup, p } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-code', 'content-rejected');
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-count', '1');
  await expect(popup.getByTestId('error')).toHaveAttribute('data-code', '');
});

test('5xx and 429 are retried and the reading finishes; each part is billed once', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: { nth: 1 }, kind: 'status', status: 503, code: 'synthesis_failed' });
  service.addFault({ match: { nth: 3 }, kind: 'status', status: 429, code: 'concurrency_limit', retryAfter: 0 });
  const { p } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const ok = service.speechLog().filter((e) => e.status === 200);
  expect(new Set(ok.map((e) => e.text)).size).toBe(ok.length);
  expect(service.speechLog().filter((e) => e.status !== 200)).toHaveLength(2);
});

test('a service that keeps failing ends in a clear error, not a hang', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: {}, times: Infinity, kind: 'status', status: 500, code: 'synthesis_failed' });
  const { p, error } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'error', { timeout: 45_000 });
  await expect(error).toHaveAttribute('data-code', 'synthesis_failed');
  // Five tries of the first part, and the second part's early request (two in flight are allowed).
  expect(service.speechLog().length).toBeLessThanOrEqual(6);
});

test('a 200 whose body is not audio is never played', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: { nth: 1 }, kind: 'json200' });
  const { p, error } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'error');
  await expect(error).toHaveAttribute('data-code', 'bad-audio');
});

test.describe('pages without text to read', () => {
  test('a page with no article', async ({ ext, service }) => {
    await ext.configure();
    const { p, error } = await readArticle(ext, 'no-article.html');
    await expect(p).toHaveAttribute('data-state', 'error');
    await expect(error).toHaveAttribute('data-code', 'no-text');
    expect(service.speechLog()).toHaveLength(0);
  });

  test('a restricted browser page', async ({ ext, service }) => {
    await ext.configure();
    const { p, error } = await readArticle(ext, 'chrome://version/');
    await expect(p).toHaveAttribute('data-state', 'error');
    await expect(error).toHaveAttribute('data-code', 'restricted-page');
    expect(service.speechLog()).toHaveLength(0);
  });

  test('a restricted page still reads the context menu selection text', async ({ ext, service }) => {
    await ext.configure();
    const { tabId } = await ext.openTab('chrome://version/');
    // The popup's own reading of the page is refused; the menu's selection text still reads.
    const popup = await ext.openPopup(tabId);
    await expect(popup.getByTestId('error')).toHaveAttribute('data-code', 'restricted-page');
    await ext.menuClick(tabId, 'Текст из просмотрщика PDF.');
    await expect(player(popup)).toHaveAttribute('data-state', 'finished');
    expect(service.speechLog().map((e) => e.text)).toEqual(['Текст из просмотрщика PDF.']);
  });
});

test.describe('every stopping error of SERVICE.md ends the reading with its code', () => {
  const cases: Array<[number, string, string]> = [
    [403, 'client_disabled', 'stop'],
    [422, 'invalid_request', 'stop, with the request id'],
    [422, 'unknown_voice', 'stop, pointing at the settings'],
    [422, 'unknown_model', 'stop, pointing at the settings'],
    [422, 'unknown_format', 'stop, pointing at the settings'],
  ];
  for (const [status, code, what] of cases) {
    test(`${status} ${code}: ${what}`, async ({ ext, service }) => {
      await ext.configure();
      service.addFault({ match: { nth: 1 }, kind: 'status', status, code, message: `service says ${code}` });
      const { popup, p, error } = await readArticle(ext);
      await expect(p).toHaveAttribute('data-state', 'error');
      await expect(error).toHaveAttribute('data-code', code);
      // The first part, and at most the second one asked for alongside it; nothing after the error.
      expect(service.speechLog().length).toBeLessThanOrEqual(2);
      if (code === 'invalid_request') await expect(error).toContainText(service.speechLog().find((e) => e.status === status)!.id);
      if (code.startsWith('unknown_')) await expect(popup.getByRole('button', { name: /settings|настройки/i })).toBeVisible();
    });
  }

  test('a voice the service does not know, set in the options, is refused with unknown_voice', async ({ ext, service }) => {
    await ext.configure({ voice: 'no-such-voice' });
    const { p, error } = await readArticle(ext);
    await expect(p).toHaveAttribute('data-state', 'error');
    await expect(error).toHaveAttribute('data-code', 'unknown_voice');
    expect(service.speechLog()[0]!.body).toMatchObject({ voice: 'no-such-voice' });
  });
});

test('unsupported_language from the service skips that part with a notice; the reading finishes', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: { text: 'Интонация и паузы' }, kind: 'status', status: 422, code: 'unsupported_language' });
  const { popup, p } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-code', 'content-rejected');
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-count', '1');
});

test('text_too_long: the part is split smaller and retried, nothing is lost', async ({ ext, service }) => {
  await ext.configure();
  service.addFault({ match: { text: 'Интонация и паузы' }, kind: 'status', status: 422, code: 'text_too_long' });
  const { p } = await readArticle(ext);
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  const refused = service.speechLog().find((e) => e.status === 422)!;
  const after = service.speechLog().filter((e) => e.nth! > refused.nth! && e.status === 200);
  // The refused text arrives again in two smaller requests.
  expect(after[0]!.text.length).toBeLessThan(refused.text.length);
  expect(`${after[0]!.text} ${after[1]!.text}`).toBe(refused.text);
});

test('a refused part in the middle is passed over: the reading goes on to the end', async ({ ext, service, pages }) => {
  await ext.configure({ threshold: '1000' });
  pages.put('/six.html', makeArticleHtml(6_000));
  service.addFault({ match: { nth: 3 }, kind: 'status', status: 422, code: 'content_rejected' });
  const { popup, p } = await readArticle(ext, 'six.html');
  await expect(p).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(popup.getByTestId('notice')).toHaveAttribute('data-count', '1');
  const parts = Number(await p.getAttribute('data-parts'));
  expect(service.speechLog().filter((e) => e.status === 200)).toHaveLength(parts - 1);
});

test('after a 402, jumping to another part sends no further request', async ({ ext, service, pages }) => {
  service.configure({ msPerChar: 2 });
  await ext.configure({ threshold: '1000' });
  pages.put('/six.html', makeArticleHtml(6_000));
  service.addFault({ match: { nth: 3 }, kind: 'status', status: 402, code: 'insufficient_balance' });
  const { popup, p, error } = await readArticle(ext, 'six.html');
  await expect.poll(() => service.speechLog().length).toBe(3);
  await expect(p).toHaveAttribute('data-state', 'playing');
  await popup.getByTestId('next').click();
  await popup.getByTestId('next').click();
  await expect(p).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(error).toHaveAttribute('data-code', 'insufficient_balance');
  expect(service.speechLog()).toHaveLength(3);
});
