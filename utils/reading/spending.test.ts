/**
 * Every ruble through one gate, as a listener meets it: caps that hold after the history is cleared, Save
 * as MP3 that buys only what it showed, a text that grows past what was agreed, totals that cannot be kept.
 */
import { describe, expect, it } from 'vitest';
import { makeWorld, sentences } from '../../tests/unit/reader-world';
import { floatingCommandOf } from '../messaging/protocol';
import { MAY_SEND, pageSender, tabToStart } from '../messaging/protocol';
import { planParts } from './plan';

const finished = (w: ReturnType<typeof makeWorld>) => w.until(() => !['extracting', 'loading', 'playing', 'confirm'].includes(w.reader.view.state), 'the reading to end');
const article = (title: string, text: string) => ({ tabId: 1, source: 'article' as const, extract: async () => ({ title, source: 'article' as const, blocks: [{ kind: 'paragraph' as const, text }] }) });
/** `chars` characters of sentences, about. */
const textOf = (chars: number, prefix: string) => sentences(400, 12, prefix).slice(0, chars).replace(/\s+\S*$/, '.');

describe('spending caps count money spent, not the usage history', () => {
  it('a second reading that would pass the daily cap asks first, even after the history was cleared', async () => {
    // 150 ₽ a million characters, as the local service bills: 3,400 characters are about 0.51 ₽.
    const w = makeWorld({ autoplay: true, threshold: '100', price: '150.0000', caps: { dailyCapRub: '0.80' } });
    await w.reader.start(article('A', textOf(3_400, 'Первая')));
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const spent = w.reader.view.costRub;
    expect(Number(spent)).toBeGreaterThan(0.45);
    // "Clear history" on the options page empties the list: the totals stay.
    w.usage.splice(0);
    expect(w.spending.totals?.dayRub).toBe(spent);
    const before = w.log.length;
    void w.reader.start(article('B', textOf(3_300, 'Вторая')));
    await w.until(() => w.reader.view.state === 'confirm', 'the second reading asks first');
    expect(w.reader.view.confirmReason).toBe('budget');
    expect(w.log).toHaveLength(before);
  });

  it('with a cap set, nothing is sent while the spending totals cannot be written (fail closed)', async () => {
    const w = makeWorld({ autoplay: true, threshold: '100', caps: { dailyCapRub: '50' } });
    await w.wallet.ready;
    w.spending.fail = true;
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('error');
    expect(w.reader.view.error?.code).toBe('budget-limit');
    expect(w.okTexts()).toEqual([]);
  });

  it('without a cap, a write that fails stops nothing', async () => {
    const w = makeWorld({ autoplay: true });
    await w.wallet.ready;
    w.spending.fail = true;
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
  });

  it('agreed to pass a cap: the reading may pass it by its estimate, not more', async () => {
    const w = makeWorld({ autoplay: true, threshold: '100', caps: { dailyCapRub: '0.10' } });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'asks first');
    expect(w.reader.view.confirmReason).toBe('budget');
    await w.reader.confirm();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    // The fake service truncates each bill: never more than the estimate.
    expect(Number(w.reader.view.costRub)).toBeLessThanOrEqual(Number(w.reader.view.estimateRub));
  });
});

describe('Save as MP3 buys what its confirmation showed, for that reading', () => {
  const stopped = async () => {
    const w = makeWorld({ threshold: '1000' });
    void w.start();
    await w.until(() => w.log.length >= 1 && w.reader.view.state === 'playing', 'playing');
    await w.reader.stop();
    return w;
  };

  it('a confirmation of another reading buys nothing (the reading changed since)', async () => {
    const w = await stopped();
    const shown = await w.reader.saveEstimate();
    expect(shown.missing).toBeGreaterThan(0);
    void w.reader.start(article('B', sentences(30)));
    await w.until(() => w.reader.view.id !== shown.readingId, 'another reading');
    const before = w.log.length;
    expect(await w.reader.fetchMissing({ readingId: shown.readingId, upTo: shown.upTo, maxRub: shown.missingRub })).toEqual({ ok: false, code: 'save-changed' });
    expect(w.log.filter((e, i) => i >= before && e.text.startsWith('Предложение'))).toEqual([]);
  });

  it('a confirmation for fewer parts or a lower cost than the reading now holds buys nothing', async () => {
    const w = await stopped();
    const shown = await w.reader.saveEstimate();
    const before = w.log.length;
    expect(await w.reader.fetchMissing({ ...shown, upTo: shown.upTo - 1, maxRub: shown.missingRub })).toEqual({ ok: false, code: 'save-changed' });
    expect(await w.reader.fetchMissing({ readingId: shown.readingId, upTo: shown.upTo, maxRub: '0.0001' })).toEqual({ ok: false, code: 'save-changed' });
    expect(w.log).toHaveLength(before);
    expect(await w.saveAll()).toEqual({ ok: true });
  });

  it('a document still being counted (a PDF) cannot be saved: its cost is not known', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const w = makeWorld({ threshold: '1000', blocks: [{ kind: 'paragraph', text: sentences(10) }], batches: [{ blocks: [{ kind: 'paragraph', text: sentences(10, 12, 'Дальше') }], leftOutChars: 0, more: false, gate }] });
    void w.start();
    // Under the threshold: counted whole before anything is sent.
    await w.until(() => w.store.plan !== null && w.reader.view.counting, 'counting');
    const shown = await w.reader.saveEstimate();
    expect(shown.refusal).toBe('still-counting');
    expect(await w.reader.fetchMissing({ readingId: shown.readingId, upTo: shown.upTo, maxRub: '1000' })).toEqual({ ok: false, code: 'still-counting' });
    open();
  });

  it('a reading waiting for its own confirmation cannot be saved', async () => {
    const w = makeWorld({ threshold: '0.01' });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'asks first');
    const shown = await w.reader.saveEstimate();
    expect(shown.refusal).toBe('save-changed');
    expect(await w.reader.fetchMissing({ readingId: shown.readingId, upTo: shown.upTo, maxRub: '1000' })).toEqual({ ok: false, code: 'save-changed' });
    expect(w.log).toHaveLength(0);
  });
});

describe('a text that grows past what was agreed asks again', () => {
  const title = { kind: 'title' as const, text: 'Статья о реке' };

  it('an article read title first whose page grew past the threshold: the title plays, then it asks with the whole estimate', async () => {
    // 1 ₽ at 1,500 ₽ a million: 666 characters. The page said 300 (its bound); its script then read 2,700.
    const rest = [{ kind: 'paragraph' as const, text: sentences(20, 12, 'Дальше') }];
    const w = makeWorld({ autoplay: true, threshold: '1', price: '1500.0000', bound: 300, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'asks again');
    expect(w.reader.view.confirmReason).toBe('threshold');
    const whole = planParts([title, ...rest]).parts;
    expect(w.reader.view.estimateChars).toBe(whole.reduce((n, p) => n + p.chars, 0));
    // Nothing past what stays under the threshold was bought.
    expect(w.okTexts().reduce((n, t) => n + [...t].length, 0)).toBeLessThanOrEqual(666);
    await w.reader.confirm();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts()).toEqual(whole.map((p) => p.text));
  });

  it('stopped while it asks again: nothing more is bought', async () => {
    const rest = [{ kind: 'paragraph' as const, text: sentences(20, 12, 'Дальше') }];
    const w = makeWorld({ autoplay: true, threshold: '1', price: '1500.0000', bound: 300, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'asks again');
    const bought = w.log.length;
    await w.reader.stop();
    await new Promise((r) => setImmediate(r));
    expect(w.reader.view.state).toBe('stopped');
    expect(w.log).toHaveLength(bought);
  });
});

describe('who may send what', () => {
  const own = { id: 'ext', origin: 'chrome-extension://ext/' };
  it.each<[string, { id?: string; url?: string; tab?: unknown; frameId?: number }, string | null]>([
    ['the popup', { id: 'ext', url: 'chrome-extension://ext/popup.html?tabId=3' }, 'popup'],
    ['the options page', { id: 'ext', url: 'chrome-extension://ext/options.html' }, 'options'],
    ['the welcome page', { id: 'ext', url: 'chrome-extension://ext/welcome.html' }, 'welcome'],
    ['the sample page (it sends nothing)', { id: 'ext', url: 'chrome-extension://ext/sample.html' }, null],
    ['the PDF page', { id: 'ext', url: 'chrome-extension://ext/pdf.html?file=x' }, 'pdf'],
    ['the offscreen player', { id: 'ext', url: 'chrome-extension://ext/offscreen.html' }, 'offscreen'],
    ['our content script in a web page’s top frame: the page’s own controls', { id: 'ext', url: 'https://example.com/', tab: {}, frameId: 0 }, 'page-controls'],
    ['our content script in a subframe', { id: 'ext', url: 'https://ads.example/', tab: {}, frameId: 3 }, null],
    ['a web page’s address without a tab', { id: 'ext', url: 'https://example.com/' }, null],
    ['another extension', { id: 'other', url: 'chrome-extension://other/popup.html' }, null],
    ['a page of ours not in the table', { id: 'ext', url: 'chrome-extension://ext/extract.html' }, null],
  ])('%s', (_name, sender, expected) => {
    expect(pageSender(sender, own.id, own.origin)).toBe(expected);
  });

  it('the page’s own controls send only their own few: never confirm, a command of the popup’s, money or the settings', () => {
    const fromPage = (Object.keys(MAY_SEND) as (keyof typeof MAY_SEND)[]).filter((type) => MAY_SEND[type].includes('page-controls'));
    expect(fromPage.sort()).toEqual(['floatingCommand', 'floatingMoved', 'floatingRate', 'readFromHere']);
  });

  it('money, the key and the settings only from the popup and the options page (the welcome page saves a key as the options page does, and starts only its sample)', () => {
    for (const type of ['removeKey', 'fetchForSave', 'saveEstimate', 'clearHistory'] as const) {
      expect(MAY_SEND[type].every((p) => p === 'popup' || p === 'options'), type).toBe(true);
    }
    expect([...MAY_SEND.saveSettings].sort()).toEqual(['options', 'welcome']);
    expect(MAY_SEND.trySample).toEqual(['welcome']);
  });

  it.each([
    ['the popup, for the tab it names', 'popup', 7, undefined, 7],
    ['the PDF page, for its own tab', 'pdf', 7, 7, 7],
    ['the PDF page, for another tab', 'pdf', 3, 7, null],
    ['the PDF page, not in a tab', 'pdf', 7, undefined, null],
    ['the book page, for its own tab', 'book', 7, 7, 7],
    ['the book page, for another tab', 'book', 3, 7, null],
    ['the options page', 'options', 7, 7, null],
    ['a web page', null, 7, 7, null],
  ] as const)('a reading started by %s: %s', (_n, from, asked, senderTab, expected) => {
    expect(tabToStart(from, asked, senderTab)).toBe(expected);
  });

  it.each([
    ['toggle', 'toggle'],
    ['stop', 'stop'],
    ['confirm', null],
    ['resume', null],
    [{ toString: (): string => 'stop' }, null],
  ])('the mini-player may send %s: %s', (command, expected) => {
    expect(floatingCommandOf(command)).toBe(expected);
  });
});
