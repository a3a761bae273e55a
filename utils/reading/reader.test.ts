import { describe, expect, it, vi } from 'vitest';
import { FRAME_SECONDS, makeWorld, sentences } from '../../tests/unit/reader-world';
import { LOOKAHEAD_SECONDS } from './lookahead';
import { planParts } from './plan';
import { MAX_RETRIES } from '../speech/errors';
import { formatRubPlain } from '../money/money';
import { DEFAULT_PLAYBACK, type Playback } from '../storage/settings';
import { SLEEP_CHECK_MS } from './sleep';
import { Unreachable } from '../net/bounded-fetch';

const finished = (w: ReturnType<typeof makeWorld>) => w.until(() => !['extracting', 'loading', 'playing', 'confirm'].includes(w.reader.view.state), 'the reading to end');

describe('a reading', () => {
  it('reads every part once, in order; the cost is the sum of the receipts; every request is in the history', async () => {
    const w = makeWorld({ autoplay: true });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const parts = w.store.plan!.parts.map((p) => p.text);
    expect(w.okTexts()).toEqual(parts);
    const chars = parts.map((t) => [...t].length);
    expect(w.reader.view.chars).toBe(chars.reduce((a, b) => a + b, 0));
    // The fake service charges 0.0015 ₽ a character, truncated per request.
    expect(w.reader.view.costRub).toBe(formatRubPlain(chars.reduce((sum, n) => sum + (BigInt(n) * 15n) / 10n, 0n)));
    expect(w.usage).toHaveLength(parts.length);
  });

  it('a start asked for while another is just beginning (the toolbar click, then its popup) leaves that one alone', async () => {
    const w = makeWorld({ autoplay: true });
    let extracted = 0;
    const req = { tabId: 1, source: 'article' as const, extract: async () => (extracted++, { title: 'T', source: 'article' as const, blocks: [{ text: sentences(3), kind: 'paragraph' as const }] }) };
    const first = w.reader.start(req);
    const second = w.reader.startUnlessActive(req);
    await Promise.all([first, second]);
    await finished(w);
    expect(extracted).toBe(1);
    expect(w.reader.view.state).toBe('finished');
    expect(new Set(w.okTexts()).size).toBe(w.okTexts().length);
  });

  it('once the last reading is restored, the toolbar\'s start asks for the text in the call itself, before its caller goes on', async () => {
    const w = makeWorld({ autoplay: true });
    await w.reader.ready;
    let asked = false;
    const started = w.reader.startUnlessActive({ tabId: 1, source: 'article', extract: async () => ((asked = true), { title: 'T', source: 'article', blocks: [{ text: sentences(3), kind: 'paragraph' }] }) });
    // Firefox's toolbar opens its popup here, which holds the thread: the page must have been asked already.
    expect(asked).toBe(true);
    await started;
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
  });

  it("asks for the account at the call, not after the last reading is ended and the new one's first view written", async () => {
    const w = makeWorld({ autoplay: true });
    const order: string[] = [];
    const { refreshAccount } = w.deps;
    const { saveView } = w.deps.store;
    w.deps.refreshAccount = () => (order.push('account'), refreshAccount());
    w.deps.store.saveView = (view) => (order.push(`view ${view.state}`), saveView(view));
    const started = w.start();
    expect(order).toEqual(['account']);
    await started;
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(order.slice(0, 2)).toEqual(['account', 'view extracting']);
  });

  it('with its first writes held until the page answers (Firefox), writes nothing before, then in order: the cleared plan, extracting, the new plan, loading', async () => {
    const w = makeWorld({ autoplay: true });
    const order: string[] = [];
    const { saveView, savePlan } = w.deps.store;
    w.deps.store.saveView = (view) => (order.push(`view ${view.state}`), saveView(view));
    w.deps.store.savePlan = (plan) => (order.push(plan ? 'plan' : 'plan cleared'), savePlan(plan));
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    const held: Promise<unknown>[] = [];
    w.deps.startWritesAfter = (extraction) => (held.push(extraction), answered);
    const text = { title: 'T', source: 'article' as const, blocks: [{ text: sentences(3), kind: 'paragraph' as const }] };
    const started = w.reader.start({ tabId: 1, source: 'article', extract: async () => text });
    expect(held).toHaveLength(1);
    await w.until(() => w.reader.view.state === 'extracting', 'the start');
    expect(order).toEqual([]);
    expect(w.log).toHaveLength(0);
    answer();
    await started;
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(order.slice(0, 5)).toEqual(['plan cleared', 'view extracting', 'plan', 'view extracting', 'view loading']);
  });

  it('a stop before the held first writes are made is not written over by the first view', async () => {
    const w = makeWorld({ autoplay: true });
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    w.deps.startWritesAfter = () => answered;
    let gone!: (err: Error) => void;
    const started = w.reader.start({ tabId: 1, source: 'article', extract: () => new Promise((_, reject) => (gone = reject)) });
    await w.until(() => w.reader.view.state === 'extracting', 'the start');
    await w.reader.stop();
    expect(w.store.view?.state).toBe('stopped');
    answer();
    gone(new Error('the tab was closed'));
    await started;
    await Promise.resolve();
    expect(w.store.view?.state).toBe('stopped');
  });

  it('retries a 5xx with backoff and bills the part once', async () => {
    const w = makeWorld({ autoplay: true, answer: (_b, n) => (n < 2 ? { kind: 'error', status: 503, code: 'synthesis_failed' } : { kind: 'ok' }) });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.log.slice(0, 3).map((e) => e.status)).toEqual([503, 503, 200]);
    expect(new Set(w.okTexts()).size).toBe(w.okTexts().length);
  });

  it('stops with the service code after the retries run out', async () => {
    const w = makeWorld({ autoplay: true, answer: () => ({ kind: 'error', status: 502, code: 'synthesis_failed' }) });
    await w.start();
    await finished(w);
    expect(w.reader.view.error?.code).toBe('synthesis_failed');
    expect(w.log.filter((e) => e.text === w.store.plan!.parts[0]!.text)).toHaveLength(MAX_RETRIES + 1);
  });

  it('halves a part the service finds too long and reads both halves, losing nothing', async () => {
    let refused = '';
    const w = makeWorld({
      autoplay: true,
      answer: (body, n) => (n === 1 ? ((refused = body.text), { kind: 'error', status: 422, code: 'text_too_long' }) : { kind: 'ok' }),
    });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const a = w.okTexts().find((t) => refused.startsWith(t) && t !== refused)!;
    const b = w.okTexts().find((t) => refused.endsWith(t) && t !== refused)!;
    expect(`${a} ${b}`).toBe(refused);
    expect(w.reader.view.parts).toBe(w.store.plan!.parts.length);
  });

  it('skips a part the service refuses, with a notice, and reads on', async () => {
    const w = makeWorld({ autoplay: true, answer: (_b, n) => (n === 2 ? { kind: 'error', status: 422, code: 'content_rejected' } : { kind: 'ok' }) });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.reader.view.notice).toEqual({ code: 'content-rejected', count: 1 });
    expect(w.okTexts()).toHaveLength(w.store.plan!.parts.length - 1);
  });

  it('a stream cut mid-part: what arrived plays, the rest is asked for from the cut sentence', async () => {
    const blocks = [{ kind: 'paragraph' as const, text: sentences(60, 6) }];
    const w = makeWorld({ autoplay: true, blocks, answer: (_b, n) => (n === 1 ? { kind: 'drop', frames: 600 } : { kind: 'ok' }) });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const cut = w.log[1]!.text;
    const rest = w.log[2]!.text;
    expect(cut.endsWith(rest)).toBe(true);
    expect(rest.length).toBeLessThan(cut.length);
    expect(rest).toMatch(/^Предложение \d+/);
    const resumed = w.commands.filter((c) => c.type === 'append' && c.resumed);
    expect(resumed).toHaveLength(1);
    // The part made of the cut stream and its rest is kept like any other: read again, nothing is asked for.
    const again = makeWorld({ autoplay: true, blocks, cache: w.cache });
    await again.start();
    await finished(again);
    expect(again.reader.view.state).toBe('finished');
    expect(again.log).toHaveLength(0);
  });

  it('a new player (the part it played was lost with the old one, mid-stream): the part from the sentence being heard, not whole', async () => {
    const blocks = [{ kind: 'paragraph' as const, text: sentences(60, 6) }];
    // Part 1 streams and never ends: it is in no cache when the background and its player start again.
    const first = makeWorld({ blocks, answer: (_b, n) => (n === 1 ? { kind: 'stall' } : { kind: 'ok' }) });
    void first.start();
    await first.until(() => first.log.length === 2, 'the second part streaming');
    const part = first.store.plan!.parts[1]!;
    const view = { ...first.store.view!, state: 'playing' as const, part: 1, partTime: 20, position: 30 };
    const second = makeWorld({ autoplay: true, saved: { ...first.store, view }, cache: first.cache, newPlayer: true });
    await second.reader.ready;
    await second.until(() => second.log.length > 0, 'the part asked for again');
    const rest = second.log[0]!.text;
    expect(part.text.endsWith(rest)).toBe(true);
    expect(rest.length).toBeLessThan(part.text.length);
    expect(rest).toMatch(/^Предложение \d+/);
    // The player is told the part's audio begins there: its time in the part and the position go on from there.
    const load = second.commands.find((c) => c.type === 'load');
    expect(load).toMatchObject({ startPart: 1, seekInPart: 0 });
    const offset = (load as { partOffset: number }).partOffset;
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(20);
    expect((load as { positionBase: number }).positionBase).toBeCloseTo(30 - (20 - offset), 6);
    // Its words are told as the part's: the rest's text, and the words before it.
    const append = second.commands.find((c) => c.type === 'append' && c.part === 1);
    expect(append).toMatchObject({ text: rest });
    expect((append as { wordsBefore: number }).wordsBefore).toBe(part.text.slice(0, part.text.length - rest.length).trim().split(/\s+/).length);
    await finished(second);
    expect(second.reader.view.state).toBe('finished');
  });

  it('a 429 while our own requests are in flight: fewer at once from then on, no retry spent on it', async () => {
    const sleep = vi.fn();
    // An account that really takes one request at a time, though it says two.
    const w = makeWorld({ autoplay: true, answer: (_b, n) => (n > 0 && w.inFlight > 0 ? { kind: 'error', status: 429, code: 'concurrency_limit' } : { kind: 'ok' }) });
    const realSleep = w.deps.sleep;
    w.deps.sleep = (ms, signal) => (sleep(ms), realSleep(ms, signal));
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.log.filter((e) => e.status === 429)).toHaveLength(1);
    expect(w.slots.capacity).toBe(1);
    expect(w.log.filter((e) => e.status === 200).every((e) => e.inFlightAtArrival === 0)).toBe(true);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('quick jumps never have more requests in flight than the account allows, and pay only for where they stop', async () => {
    const w = makeWorld({ maxConcurrency: 2, manualTime: true, blocks: [{ kind: 'paragraph', text: sentences(300) }], answer: () => ({ kind: 'held' }) });
    void w.start();
    await w.until(() => w.log.length === 2, 'the first part and the one ahead requested');
    for (let i = 0; i < 5; i++) {
      w.tick(250);
      await w.reader.jump(1);
    }
    w.tick(1_000);
    await w.until(() => w.log.some((e) => e.text === w.store.plan!.parts[5]!.text), 'the part reached requested');
    expect(w.maxInFlight).toBeLessThanOrEqual(2);
    // Only the first part, the one fetched ahead, and the part the listener stopped at were ever requested.
    const requested = w.log.map((e) => w.store.plan!.parts.findIndex((p) => p.text === e.text));
    expect(requested.filter((k) => k > 1 && k < 5)).toEqual([]);
    w.release();
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    expect(w.reader.view.part).toBe(5);
  });

  it('a report the player sent before a jump, arriving after it, does not move the reading back', async () => {
    const w = makeWorld({ blocks: [{ kind: 'paragraph', text: sentences(200) }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    await w.reader.jump(1);
    await w.reader.jump(1);
    expect(w.reader.view.part).toBe(2);
    w.staleReport(1);
    await w.until(() => w.commands.filter((c) => c.type === 'load').length === 3, 'loaded three times');
    await new Promise((r) => setTimeout(r, 0));
    expect(w.reader.view.part).toBe(2);
    await w.reader.jump(1);
    expect(w.reader.view.part).toBe(3);
  });

  it('a report the player sends while a jump is being prepared does not undo the jump', async () => {
    const w = makeWorld({ blocks: [{ kind: 'paragraph', text: sentences(300) }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    const getPlayback = w.deps.getPlayback;
    // The player, still on part 0, reports just as the reader prepares the new load.
    w.deps.getPlayback = async () => {
      w.reportNow(0);
      await new Promise((r) => setTimeout(r, 0));
      return getPlayback();
    };
    await w.reader.jump(1);
    await w.reader.jump(1);
    expect(w.reader.view.part).toBe(2);
  });

  it('a removed key is never sent again: Save as MP3 after removal fails with no-key and requests nothing', async () => {
    const w = makeWorld();
    void w.start();
    await w.until(() => w.log.length >= 1 && w.reader.view.state === 'playing', 'playing');
    await w.reader.stop();
    const before = w.log.length;
    w.removeKey();
    expect((await w.reader.saveEstimate()).missing).toBeGreaterThan(0);
    expect(await w.saveAll()).toEqual({ ok: false, code: 'no-key' });
    expect(w.log).toHaveLength(before);
  });

  it('a stop while a part is arriving lets it finish into the cache: Save as MP3 counts it paid and never asks for it again', async () => {
    const w = makeWorld({ answer: (_b, n) => (n === 0 ? { kind: 'stall' } : { kind: 'ok' }) });
    void w.start();
    await w.until(() => w.log.length === 2 && w.reader.view.state === 'playing', 'playing, the part ahead asked for');
    await w.until(() => w.inFlight === 1, 'the part ahead received');
    await w.reader.stop();
    expect(w.reader.view.state).toBe('stopped');
    const parts = w.store.plan!.parts;
    // Part 0 is arriving (paid for), part 1 is in the cache: neither is counted missing.
    expect(await w.reader.saveEstimate()).toMatchObject({ missing: parts.length - 2, arriving: 1 });
    // Saving joins the arriving part.
    const saving = w.saveAll();
    w.release();
    expect(await saving).toEqual({ ok: true });
    expect(w.log[0]!.aborted).toBe(false);
    // Every part once: the one stopped while arriving came from the cache.
    expect(w.okTexts()).toEqual(parts.map((p) => p.text));
  });

  it('a stop on removing the key ends a part under way too (its audio is being deleted)', async () => {
    const w = makeWorld({ answer: (_b, n) => (n === 0 ? { kind: 'stall' } : { kind: 'ok' }) });
    void w.start();
    await w.until(() => w.log.length === 2 && w.reader.view.state === 'playing', 'playing, the part ahead asked for');
    await w.reader.stop({ drop: true });
    await w.until(() => w.inFlight === 0, 'the part under way ended');
    expect(w.log[0]!.aborted).toBe(true);
  });

  it('a cache that refuses writes does not stop the reading', async () => {
    const w = makeWorld({ autoplay: true, brokenCache: true });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts()).toHaveLength(w.store.plan!.parts.length);
  });

  it('after a restart of the background it carries on from what the player holds, paying for nothing twice', async () => {
    const first = makeWorld();
    void first.start();
    await first.until(() => first.log.length === 2, 'two parts requested');
    await first.until(() => first.reader.view.chars > 0, 'billed');
    const costBefore = first.reader.view.costRub;
    // A new background: the same saved state and cache; the player, which kept playing, reports.
    const second = makeWorld({ autoplay: true, saved: { ...first.store }, cache: first.cache });
    await second.reader.ready;
    expect(second.reader.view.state).toBe('playing');
    second.at(1, 1);
    await finished(second);
    expect(second.reader.view.state).toBe('finished');
    const plan = second.store.plan!.parts.map((p) => p.text);
    // Parts 0 and 1 were paid for by the first life: never asked for again.
    expect(second.okTexts()).toEqual(plan.slice(2));
    expect(BigInt(second.reader.view.costRub.replace('.', ''))).toBeGreaterThan(BigInt(costBefore.replace('.', '')));
  });
});

describe('the current price decides', () => {
  it('a price that rose since the key was saved makes the estimate, and the reading asks first, with nothing sent', async () => {
    const w = makeWorld({ threshold: '10', price: '1500.0000', freshAccount: { pricePerMillionRub: '15000.0000' } });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    const chars = w.reader.view.estimateChars;
    expect(w.reader.view.estimateRub).toBe(formatRubPlain((BigInt(chars) * 15000n * 10_000n) / 1_000_000n));
    expect(w.reader.view.stalePrice).toBe(false);
    expect(w.log).toHaveLength(0);
  });

  it('at the old price the same reading starts without asking', async () => {
    const w = makeWorld({ threshold: '10', price: '1500.0000', autoplay: true });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
  });

  it('when the service cannot be asked, the last known price is used and the popup is told so', async () => {
    const w = makeWorld({ threshold: '10', price: '1500.0000', freshAccount: 'fails', autoplay: true });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.reader.view.stalePrice).toBe(true);
  });
});

describe('the preview', () => {
  const blocks = [
    { kind: 'paragraph' as const, text: sentences(10, 12, 'Первый') },
    { kind: 'paragraph' as const, text: sentences(10, 12, 'Рекламный') },
    { kind: 'paragraph' as const, text: sentences(10, 12, 'Последний') },
  ];

  it('lists the blocks with their characters; a block switched off lowers the estimate by its characters and is never sent', async () => {
    const w = makeWorld({ autoplay: true, threshold: '0', blocks });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    const before = w.reader.view;
    expect(before.preview.map((b) => b.block)).toEqual([0, 1, 2]);
    // The blocks' characters are the estimate, but for the spaces and line breaks between them.
    expect(before.preview.reduce((n, b) => n + b.chars, 0)).toBeGreaterThan(before.estimateChars * 0.95);
    const ad = before.preview[1]!.chars;
    await w.reader.setBlockOn(1, false);
    expect(w.reader.view.estimateChars).toBeLessThanOrEqual(before.estimateChars - ad + 1);
    expect(w.reader.view.preview[1]).toMatchObject({ block: 1, on: false, chars: 0 });
    await w.reader.confirm();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts().join(' ')).not.toContain('Рекламный');
    expect(w.okTexts().join(' ')).toContain('Последний 10');
    expect(w.reader.view.preview).toEqual([]);
  });

  it('the last block cannot be switched off: there would be nothing to read', async () => {
    const w = makeWorld({ threshold: '0', blocks: [blocks[0]!] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    await w.reader.setBlockOn(0, false);
    expect(w.reader.view.preview[0]!.on).toBe(true);
    expect(w.reader.view.estimateChars).toBeGreaterThan(0);
  });
});

describe('spending caps', () => {
  it('a reading that would pass the daily cap asks first, with nothing sent; agreed to, it reads to the end', async () => {
    // About 5.4 ₽ of text; 3 ₽ already spent today; a 5 ₽ daily cap.
    const w = makeWorld({ autoplay: true, caps: { dailyCapRub: '5' }, spent: { day: 30_000n, month: 30_000n } });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    expect(w.reader.view.confirmReason).toBe('budget');
    expect(w.log).toHaveLength(0);
    await w.reader.confirm();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
  });

  it('the monthly cap counts too; under both caps nothing is asked', async () => {
    const over = makeWorld({ caps: { dailyCapRub: '100', monthlyCapRub: '50' }, spent: { day: 0n, month: 470_000n } });
    void over.start();
    await over.until(() => over.reader.view.state === 'confirm', 'the confirmation');
    expect(over.reader.view.confirmReason).toBe('budget');
    const under = makeWorld({ autoplay: true, caps: { dailyCapRub: '100', monthlyCapRub: '100' } });
    await under.start();
    await finished(under);
    expect(under.reader.view.state).toBe('finished');
  });

  it('reaching the cap mid-reading stops at the end of a part, with budget-limit: the cap is never passed, nothing is requested past it', async () => {
    // The service bills ten times the price the estimate used: the estimate (0.53 ₽) is under the 2 ₽ cap, the bills (5.3 ₽) are not.
    const w = makeWorld({ autoplay: true, price: '15.0000', caps: { dailyCapRub: '2' }, blocks: [{ kind: 'paragraph', text: sentences(400) }] });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('error');
    expect(w.reader.view.error?.code).toBe('budget-limit');
    const parts = w.store.plan!.parts.length;
    expect(w.okTexts().length).toBeLessThan(parts);
    const largest = Math.max(...w.store.plan!.parts.map((p) => [...p.text].length));
    // Never past the cap: once the bills show the real price, the next part is priced at it.
    expect(Number(w.reader.view.costRub)).toBeLessThanOrEqual(2);
    expect(Number(w.reader.view.costRub)).toBeGreaterThan(2 - largest * 0.00015);
    // What was received went to the player, every billed part of it.
    const appended = new Set(w.commands.flatMap((c) => (c.type === 'append' ? [c.part] : [])));
    expect([...appended].sort((a, b) => a - b)).toEqual(w.okTexts().map((_, k) => k));
  });
});

describe('money headers that cannot be true', () => {
  it.each([
    { name: 'a negative cost', receipt: { cost: -50_000n } },
    { name: 'a cost beyond any number', receipt: { cost: 10n ** 30n } },
    { name: 'a huge character count and no cost', receipt: { charsBilled: 1e30, cost: null } },
    { name: 'a negative character count and no cost', receipt: { charsBilled: -3, cost: null } },
  ])('$name: the price decides, the reading goes on, every request is recorded', async ({ receipt }) => {
    const w = makeWorld({ autoplay: true, answer: () => ({ kind: 'ok', receipt }) });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const chars = w.okTexts().reduce((n, t) => n + [...t].length, 0);
    // 1500 ₽ per million characters, each request rounded half-up to 0.0001 ₽.
    const expected = w.okTexts().reduce((sum, t) => sum + (BigInt([...t].length) * 15_000_000n + 500_000n) / 1_000_000n, 0n);
    expect(w.reader.view.costRub).toBe(formatRubPlain(expected));
    expect(w.reader.view.chars).toBe(chars);
    expect(w.usage).toHaveLength(w.okTexts().length);
    expect(w.usage.every((u) => !u.costRub.startsWith('-'))).toBe(true);
  });
});

describe('Reader.setPlayback', () => {
  it.each<{ name: string; patches: Partial<Playback>[]; saved: Playback }>([
    { name: 'one change', patches: [{ rate: 2 }], saved: { rate: 2, volume: DEFAULT_PLAYBACK.volume } },
    { name: 'speed, then volume at once', patches: [{ rate: 2 }, { volume: 0.5 }], saved: { rate: 2, volume: 0.5 } },
    { name: 'volume, then speed at once', patches: [{ volume: 0.3 }, { rate: 1.5 }], saved: { rate: 1.5, volume: 0.3 } },
    { name: 'a slider dragged: the last value stays', patches: [{ volume: 0.9 }, { volume: 0.7 }, { rate: 3 }, { volume: 0.2 }], saved: { rate: 3, volume: 0.2 } },
    { name: 'out of range is clamped', patches: [{ rate: 10 }, { volume: -1 }], saved: { rate: 3, volume: 0 } },
  ])('$name: no change is lost', async ({ patches, saved }) => {
    const w = makeWorld();
    let stored = DEFAULT_PLAYBACK;
    const later = () => new Promise((resolve) => setTimeout(resolve, 1));
    w.deps.getPlayback = async () => (await later(), stored);
    w.deps.savePlayback = async (p) => void (await later(), (stored = p));
    await Promise.all(patches.map((p) => w.reader.setPlayback(p)));
    expect(stored).toEqual(saved);
  });

  it('with no reading, nothing is sent to the player', async () => {
    const w = makeWorld();
    await w.reader.setPlayback({ rate: 2 });
    expect(w.commands).toEqual([]);
  });
});

describe('a document read in batches (a PDF)', () => {
  const batch = (prefix: string, more: boolean, gate?: Promise<void>) => ({
    blocks: [{ kind: 'paragraph' as const, text: sentences(12, 12, prefix) }],
    leftOutChars: 7,
    more,
    gate,
  });

  it('reads every batch once, in order, to the end; the estimate grows to the whole document', async () => {
    const w = makeWorld({ autoplay: true, blocks: [{ kind: 'paragraph', text: sentences(3, 12, 'Первая') }], batches: [batch('Вторая', true), batch('Третья', false)] });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const parts = w.store.plan!.parts;
    expect(w.okTexts()).toEqual(parts.map((p) => p.text));
    expect(w.okTexts().join(' ')).toMatch(/^Первая.*Вторая.*Третья[^]*$/);
    expect(parts.map((p) => p.index)).toEqual(parts.map((_, i) => i));
    expect(w.reader.view.estimateChars).toBe(parts.reduce((n, p) => n + p.chars, 0));
    expect(w.reader.view.chars).toBe(w.reader.view.estimateChars);
    expect(w.reader.view.savedChars).toBe(14);
    expect(w.reader.view.counting).toBe(false);
    expect(w.store.plan!.grows).toBeUndefined();
    // Each request for more says how many blocks the reading has (a late one from a replaced reading is refused by the page).
    expect(w.askedAfter).toEqual([1, 2]);
    // Sentences of later batches point at their own blocks (the page highlights them there).
    expect(new Set(parts.flatMap((p) => p.sentences.map((s) => s.block)))).toEqual(new Set([0, 1, 2]));
  });

  it('starts speaking before the rest of the document is counted, when the first batch is over the threshold', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const w = makeWorld({ threshold: '0.01', blocks: [{ kind: 'paragraph', text: sentences(10, 12, 'Первая') }], batches: [batch('Вторая', false, gate)] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    expect(w.reader.view.counting).toBe(true);
    expect(w.log).toHaveLength(0);
    await w.reader.confirm();
    await w.until(() => w.log.length > 0, 'the first request');
    expect(w.reader.view.counting).toBe(true);
    const before = w.reader.view.estimateChars;
    open();
    await w.until(() => !w.reader.view.counting, 'the count');
    expect(w.reader.view.estimateChars).toBeGreaterThan(before);
  });

  it('under the threshold so far, it waits for the whole count: a document that passes it asks first, with nothing sent', async () => {
    const w = makeWorld({ threshold: '0.1', price: '1500.0000', blocks: [{ kind: 'paragraph', text: 'Короткое начало.' }], batches: [batch('Вторая', true), batch('Третья', false)] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    expect(w.reader.view.confirmReason).toBe('threshold');
    expect(w.log).toHaveLength(0);
  });

  it('short parts in a row (a book\'s one-line sections): while the player waits on one, the next few are bought — enough seconds to play on, not the whole book', async () => {
    // Chromium's player, run dry, waits for more than a moment of audio before it plays again: bought one part at
    // a time, parts of a fraction of a second never gave it enough, and the reading stood still for good.
    const section = (n: number) => ({ blocks: [{ kind: 'heading' as const, text: `Глава ${n}.` }, { kind: 'paragraph' as const, text: `Ласточка летела ${n} раз.` }], leftOutChars: 0, more: n < 30 });
    const w = makeWorld({ threshold: '1000', blocks: section(1).blocks, batches: Array.from({ length: 29 }, (_, i) => section(i + 2)) });
    void w.start();
    // The player stays on the first part: it never says it moved.
    await w.until(() => w.okTexts().length >= 4, 'parts past the next one bought');
    for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 0));
    const bought = w.okTexts();
    const parts = w.store.plan!.parts;
    expect(bought).toEqual(parts.slice(0, bought.length).map((p) => p.text));
    // Within the look-ahead's seconds (at the first part's measured pace, ~38 characters a second), far from the book's end.
    const between = bought.slice(1, -1).reduce((n, t) => n + [...t].length, 0) * FRAME_SECONDS;
    expect(between).toBeLessThan(LOOKAHEAD_SECONDS);
    expect(bought.length).toBeLessThan(20);
    // The player moves on: more is bought from there.
    w.at(bought.length - 1);
    await w.until(() => w.okTexts().length > bought.length, 'more bought as the player moves');
  });

  it('after a restart of the background, the rest of the document is asked for from where the plan stopped', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const first = makeWorld({ threshold: '0.0001', blocks: [{ kind: 'paragraph', text: sentences(3, 12, 'Первая') }], batches: [batch('Вторая', true), batch('Никогда', false, gate)] });
    void first.start();
    await first.until(() => first.reader.view.state === 'confirm', 'the confirmation');
    await first.reader.confirm();
    await first.until(() => first.store.plan?.grows?.blocks === 2, 'the second batch planned');
    await first.until(() => first.log.length > 0, 'the first request');
    // A new background: the saved plan says two blocks are planned and more follow; the page gives the third.
    const second = makeWorld({ autoplay: true, saved: { ...first.store }, cache: first.cache, batches: [batch('Третья', false)] });
    await second.reader.ready;
    second.at(0, -1);
    // Agreed to the document as counted then (its first block): past it, the reading asks again, with what is counted now.
    await second.until(() => second.reader.view.state === 'confirm', 'asked again');
    expect(second.okTexts().join(' ')).not.toContain('Третья');
    await second.reader.confirm();
    await finished(second);
    expect(second.askedAfter).toEqual([2]);
    expect(second.okTexts().join(' ')).toContain('Третья');
    expect(second.reader.view.counting).toBe(false);
    open();
  });

  it('agreed while still counted ("≥ X"): what was counted then is read, and the reading asks again before buying past it', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const w = makeWorld({ autoplay: true, threshold: '0.0001', blocks: [{ kind: 'paragraph', text: sentences(3, 12, 'Первая') }], batches: [batch('Вторая', false, gate)] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    await w.reader.confirm();
    open();
    await w.until(() => w.reader.view.state === 'confirm', 'asked again');
    expect(w.okTexts().join(' ')).toContain('Первая');
    expect(w.okTexts().join(' ')).not.toContain('Вторая');
    await w.reader.confirm();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts().join(' ')).toContain('Вторая');
  });

  it('a page that stops answering ends the growth: what was planned is read, and the reading finishes', async () => {
    const w = makeWorld({ autoplay: true, blocks: [{ kind: 'paragraph', text: sentences(3, 12, 'Первая') }], batches: [batch('Вторая', true)] });
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts().join(' ')).toContain('Вторая');
    expect(w.reader.view.counting).toBe(false);
  });
});

describe('a book read section by section (its page tells the most its text can bill)', () => {
  const chapter = (word: string) => [{ kind: 'paragraph' as const, text: sentences(20, 12, word) }];
  /** A book of two chapters, the second held back until `open` (its count), that bills `mostChars` at most; 10 ₽ at 1,500 ₽ a million characters: 6,666. */
  const book = (mostChars: number) => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const w = makeWorld({ autoplay: true, threshold: '10', price: '1500.0000', mostChars, blocks: chapter('Первая'), batches: [{ blocks: chapter('Вторая'), leftOutChars: 0, more: false, gate }] });
    return { w, open };
  };

  it('under the threshold: its first part is asked for while the rest is still being counted, and the whole is read', async () => {
    // The book's most of 6,000 is within the threshold.
    const { w, open } = book(6_000);
    void w.start();
    await w.until(() => w.log.length > 0, 'the first request');
    expect(w.log[0]!.text).toContain('Первая 1 ');
    expect(w.reader.view.counting).toBe(true);
    open();
    await finished(w);
    expect(w.okTexts().join(' ')).toContain('Вторая 20 ');
    expect(w.reader.view.counting).toBe(false);
  });

  it('one whose most could pass the threshold sends nothing until it is counted whole (the same text, 6,667 at most)', async () => {
    const { w, open } = book(6_667);
    void w.start();
    await w.until(() => w.askedAfter.length > 0, 'the rest asked for');
    await new Promise((r) => setImmediate(r));
    expect(w.log).toHaveLength(0);
    expect(w.reader.view.counting).toBe(true);
    open();
    // Counted whole, it is under the threshold: read without asking.
    await finished(w);
    expect(w.okTexts().join(' ')).toContain('Вторая 20 ');
  });
});

describe('an article read title first (its page answered with the title; the rest follows)', () => {
  const title = { kind: 'title' as const, text: 'Статья о реке' };
  const rest = [{ kind: 'paragraph' as const, text: sentences(20, 12, 'Дальше') }, { kind: 'paragraph' as const, text: sentences(20, 12, 'Потом') }];

  it('the title is asked for before the rest is counted when the page bounds the reading under the threshold; the whole is read as one text', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // 10 ₽ at 1,500 ₽ a million characters: 6,666; the page's bound of 2,000 is within it.
    const w = makeWorld({ autoplay: true, threshold: '10', price: '1500.0000', bound: 2_000, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false, gate }] });
    const started = w.start();
    await w.until(() => w.log.length > 0, 'the first request');
    expect(w.log[0]!.text).toBe('Статья о реке.');
    expect(w.reader.view.counting).toBe(true);
    // The title's audio plays; the popup says so only with the whole estimate.
    await w.until(() => w.commands.some((c) => c.type === 'append'), 'the title handed to the player (the player says it plays)');
    await new Promise((r) => setImmediate(r));
    expect(w.reader.view.state).toBe('loading');
    open();
    await w.until(() => w.reader.view.state !== 'loading', 'playing');
    expect(w.reader.view.counting).toBe(false);
    await started;
    await finished(w);
    // The parts are the ones of the article read whole, the first one's context aside.
    const whole = planParts([title, ...rest]).parts;
    expect(w.okTexts()).toEqual(whole.map((p) => p.text));
    expect(w.store.plan!.parts.map((p) => p.sentences.map((s) => s.block))).toEqual(whole.map((p) => p.sentences.map((s) => s.block)));
    expect(w.reader.view.counting).toBe(false);
  });

  it('stopped before the title plays: the rest is never fetched, and the popup no longer says it is counting', async () => {
    const w = makeWorld({ threshold: '10', price: '1500.0000', bound: 2_000, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false }], answer: () => ({ kind: 'held' }) });
    void w.start();
    await w.until(() => w.log.length === 1, 'the title requested');
    expect(w.reader.view.counting).toBe(true);
    await w.reader.stop();
    expect(w.reader.view.state).toBe('stopped');
    expect(w.reader.view.counting).toBe(false);
    expect(w.moreAsked).toBe(0);
  });

  it('a page whose text could bill more than the threshold waits for the whole count, and asks first with nothing sent', async () => {
    const w = makeWorld({ threshold: '10', price: '1500.0000', bound: 7_000, blocks: [title], batches: [{ blocks: [{ kind: 'paragraph', text: sentences(120, 12, 'Дальше') }], leftOutChars: 0, more: false }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    expect(w.log).toHaveLength(0);
    expect(w.reader.view.counting).toBe(false);
  });

  it('the rest is taken from the page only once the title plays (the page\'s Readability would share the cores with the first audio)', async () => {
    // The title's audio is still coming in (its stream waits after its first frames).
    const w = makeWorld({ playingLate: true, threshold: '10', price: '1500.0000', bound: 2_000, maxConcurrency: 2, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false }], answer: (_body, n) => (n === 0 ? { kind: 'stall' } : { kind: 'ok' }) });
    void w.start();
    await w.until(() => w.commands.some((c) => c.type === 'append'), "the title's first bytes in the player");
    await new Promise((r) => setImmediate(r));
    expect(w.askedAfter).toEqual([]);
    w.playing();
    await w.until(() => w.log.length === 2, 'the next part requested');
    expect(w.askedAfter).toEqual([1]);
    expect(w.log[1]!.text).toMatch(/^Дальше/);
  });

  it('the part after the title is asked for as soon as it is planned, not once the title has downloaded', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // The title's audio is still coming in (its stream waits after its first frames).
    const w = makeWorld({ threshold: '10', price: '1500.0000', bound: 2_000, maxConcurrency: 2, blocks: [title], batches: [{ blocks: rest, leftOutChars: 0, more: false, gate }], answer: (_body, n) => (n === 0 ? { kind: 'stall' } : { kind: 'ok' }) });
    void w.start();
    await w.until(() => w.log.length === 1, 'the title requested');
    open();
    await w.until(() => w.log.length === 2, 'the next part requested');
    expect(w.log[0]!.aborted).toBe(false);
    expect(w.log[1]!.text).toMatch(/^Дальше/);
  });
});

describe('the sleep timer', () => {
  it('stops at the end of the sentence being read, and nothing past it is requested, even while paused; resume carries on', async () => {
    const w = makeWorld({ manualTime: true, blocks: [{ kind: 'paragraph', text: sentences(60) }] });
    void w.start();
    await w.until(() => w.log.length === 2, 'the first part and the one ahead requested');
    await w.until(() => w.reader.view.state === 'playing' || w.reader.view.state === 'loading', 'the reading under way');
    // Up in well under a part: the part playing is the last one wanted.
    await w.reader.setSleepTimer(0.00001);
    expect(w.reader.view.sleepAt).toBeGreaterThan(0);
    // The player moves on to part 1: normally part 2 would be asked for now; the timer holds it back.
    w.at(1, 0);
    await w.until(() => w.reader.view.part === 1, 'the player at part 1');
    w.tick(1);
    for (let i = 0; i < 20 && w.reader.view.state !== 'paused'; i++) {
      w.tick(60_000);
      await new Promise((r) => setTimeout(r, 0));
    }
    await w.until(() => w.reader.view.state === 'paused', 'paused by the timer');
    expect(w.reader.view.sleepAt).toBe(0);
    w.at(1, 0);
    await new Promise((r) => setTimeout(r, 10));
    expect(w.log).toHaveLength(2);
    await w.reader.resume();
    await w.until(() => w.log.length === 3, 'the next part asked for once listening again');
  });

  it('counts the wall clock: a machine asleep for most of it (timers frozen) pauses within a check of waking, not the time slept later', async () => {
    const w = makeWorld({ manualTime: true, blocks: [{ kind: 'paragraph', text: sentences(60) }] });
    void w.start();
    await w.until(() => w.log.length === 2, 'the first part and the one ahead requested');
    await w.reader.setSleepTimer(30);
    // Asleep for 29 minutes, then awake for a minute and a half.
    w.wallJump(29 * 60_000);
    for (let i = 0; i < 20 && w.reader.view.state !== 'paused'; i++) {
      w.tick(SLEEP_CHECK_MS);
      await new Promise((r) => setTimeout(r, 0));
      w.tick(60_000 / 60);
      await new Promise((r) => setTimeout(r, 0));
    }
    await w.until(() => w.reader.view.state === 'paused', 'paused by the timer, by the wall clock');
  });

  it('a timer cleared before it is up changes nothing', async () => {
    const w = makeWorld({ autoplay: true });
    await w.reader.setSleepTimer(30);
    await w.reader.setSleepTimer(null);
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    expect(w.okTexts()).toEqual(w.store.plan!.parts.map((p) => p.text));
  });
});

describe("the sleep timer's end of this chapter (a book)", () => {
  it("nothing of the next chapter is bought; run dry at the chapter's end, the reading pauses there; resume goes on into it", async () => {
    const chapter = (n: number) => [{ kind: 'heading' as const, text: `Глава ${n}`, chapter: true as const }, ...[1, 2, 3].map((i) => ({ kind: 'paragraph' as const, text: sentences(14, 12, `Глава${n}абзац${i}`) }))];
    const w = makeWorld({ threshold: '1000', blocks: [...chapter(1), ...chapter(2)] });
    await w.start();
    await w.reader.setSleepTimer(null, false, true);
    expect(w.reader.view.sleepAtChapter).toBe(true);
    expect(w.reader.view.chapters).toBe(false); // an article's extraction: not a book's (the popup offers it only for books)
    const parts = w.store.plan!.parts;
    const second = parts.findIndex((p, i) => i > 0 && p.chapter);
    expect(second).toBeGreaterThan(1);
    // The player goes through the first chapter; it ends in its last part.
    for (let k = 0; k < second; k++) {
      w.at(k);
      await w.until(() => w.okTexts().length >= Math.min(k + 2, second), `part ${k + 1} bought`);
    }
    await w.until(() => w.commands.some((c) => c.type === 'part-end' && c.part === second - 1), 'the chapter handed whole');
    expect(w.okTexts()).toEqual(parts.slice(0, second).map((p) => p.text));
    w.ranDry();
    await w.until(() => w.reader.view.state === 'paused', 'paused at the chapter\'s end');
    expect(w.reader.view.sleepAtChapter).toBe(false);
    expect(w.okTexts()).toHaveLength(second);
    await w.reader.resume();
    await w.until(() => w.okTexts().length > second, 'the next chapter bought after resume');
    expect(w.okTexts()[second]).toBe(parts[second]!.text);
  });

  const shortFirstChapter = [
    { kind: 'heading' as const, text: 'Глава 1', chapter: true as const },
    { kind: 'paragraph' as const, text: 'Короткое начало.' },
    { kind: 'heading' as const, text: 'Глава 2', chapter: true as const },
    { kind: 'paragraph' as const, text: sentences(40) },
    { kind: 'heading' as const, text: 'Глава 3', chapter: true as const },
    { kind: 'paragraph' as const, text: sentences(3) },
  ];

  it("the next chapter's opening already given to the player when the timer is set: the player is told to stop where it begins, and its stop pauses the reading there", async () => {
    const w = makeWorld({ threshold: '1000', blocks: shortFirstChapter });
    await w.start();
    const parts = w.store.plan!.parts;
    const second = parts.findIndex((p, i) => i > 0 && p.chapter);
    // The first chapter is short: the look-ahead gives the player the second's opening while it plays.
    w.at(0);
    await w.until(() => w.commands.some((c) => c.type === 'part-end' && c.part === second), "the next chapter's first part given");
    const stops = () => w.commands.filter((c) => c.type === 'stop-before');
    expect(stops()).toEqual([]);
    await w.reader.setSleepTimer(null, false, true);
    expect(stops()).toEqual([{ type: 'stop-before', readingId: w.reader.view.id, part: second }]);
    // Told once, not again at each report while the chapter plays.
    w.at(second - 1);
    await w.until(() => w.reader.view.part === second - 1, 'the report taken');
    expect(stops()).toHaveLength(1);
    const bought = w.okTexts().length;
    w.stoppedBefore(second);
    await w.until(() => w.reader.view.state === 'paused', "paused at the chapter's end");
    expect(w.reader.view.sleepAtChapter).toBe(false);
    expect(stops().at(-1)).toEqual({ type: 'stop-before', readingId: w.reader.view.id, part: null });
    expect(w.okTexts()).toHaveLength(bought);
    // Resume goes on into the next chapter, from its start (the player kept its audio).
    await w.reader.resume();
    expect(w.reader.view.state).toBe('playing');
    expect(w.commands.at(-1)).toEqual({ type: 'resume', readingId: w.reader.view.id });
  });

  /** The short-first-chapter book's reading begun, with its second and third chapters' first parts. */
  async function threeChapters() {
    const w = makeWorld({ threshold: '1000', blocks: shortFirstChapter });
    await w.start();
    const parts = w.store.plan!.parts;
    const second = parts.findIndex((p, i) => i > 0 && p.chapter);
    return { w, second, third: parts.findIndex((p, i) => i > second && p.chapter) };
  }

  it("a report of the next chapter's first part a moment before the player stops there moves neither the stop nor what is bought; a report well into it (told too late) finishes that chapter", async () => {
    const { w, second, third } = await threeChapters();
    w.at(0);
    await w.until(() => w.commands.some((c) => c.type === 'part-end' && c.part === second), "the next chapter's first part given");
    await w.reader.setSleepTimer(null, false, true);
    const stops = () => w.commands.filter((c) => c.type === 'stop-before').map((c) => c.type === 'stop-before' && c.part);
    const bought = w.okTexts().length;
    // The player's report rounds to the next part 20 ms before its stop there (Firefox, a busy machine).
    w.at(second, second - 1, 0.02);
    await w.until(() => w.reader.view.part === second, 'the report taken');
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
    expect(stops()).toEqual([second]);
    expect(w.okTexts()).toHaveLength(bought);
    // Well into that part: the player did not stop (told too late); the chapter now playing is the one finished.
    w.at(second, second - 1, 0.8);
    await w.until(() => stops().length === 2, 'told again');
    expect(stops()).toEqual([second, third]);
    await w.until(() => w.okTexts().length > bought, 'the rest of that chapter bought');
    expect(w.reader.view.sleepAtChapter).toBe(true);
  });

  it('a jump into the next chapter while the timer is set finishes the chapter jumped to', async () => {
    const { w, second, third } = await threeChapters();
    w.at(0);
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    await w.reader.setSleepTimer(null, false, true);
    await w.reader.jumpTo(second);
    w.at(second, second - 1, 0);
    await w.until(() => w.commands.some((c) => c.type === 'part-end' && c.part === second + 1), 'the chapter jumped to goes on being bought');
    const stops = w.commands.filter((c) => c.type === 'stop-before').map((c) => c.type === 'stop-before' && c.part);
    expect(stops.at(-1)).toBe(third);
    expect(w.reader.view.state).toBe('playing');
  });

  it("the timer turned off just as the player stopped at the chapter's end: the player is told to go on", async () => {
    const w = makeWorld({ threshold: '1000', blocks: shortFirstChapter });
    await w.start();
    const second = w.store.plan!.parts.findIndex((p, i) => i > 0 && p.chapter);
    w.at(0);
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    await w.reader.setSleepTimer(null, false, true);
    await w.reader.setSleepTimer(null, false, false);
    expect(w.commands.filter((c) => c.type === 'stop-before').map((c) => c.type === 'stop-before' && c.part)).toEqual([second, null]);
    w.stoppedBefore(second);
    await w.until(() => w.commands.at(-1)?.type === 'resume', 'told to go on');
    expect(w.reader.view.state).toBe('playing');
  });

  it('running dry in the middle of a chapter (a slow network) does not pause it', async () => {
    const blocks = [{ kind: 'heading' as const, text: 'Глава 1', chapter: true as const }, { kind: 'paragraph' as const, text: sentences(40) }, { kind: 'heading' as const, text: 'Глава 2', chapter: true as const }, { kind: 'paragraph' as const, text: sentences(3) }];
    const w = makeWorld({ threshold: '1000', blocks });
    await w.start();
    await w.reader.setSleepTimer(null, false, true);
    w.at(0);
    await w.until(() => w.commands.some((c) => c.type === 'part-end' && c.part === 0), 'the first part handed');
    w.ranDry();
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
    expect(w.reader.view.state).toBe('playing');
    expect(w.reader.view.sleepAtChapter).toBe(true);
  });
});

describe('media keys and the system media controls', () => {
  it('pause, play, next, previous and stop drive the reading', async () => {
    const w = makeWorld({ manualTime: true, blocks: [{ kind: 'paragraph', text: sentences(60) }] });
    void w.start();
    await w.until(() => w.reader.view.state === 'loading' || w.reader.view.state === 'playing', 'the reading under way');
    const press = (action: 'play' | 'pause' | 'stop' | 'nexttrack' | 'previoustrack') => w.reader.onPlayerEvent({ type: 'media-action', readingId: w.reader.view.id, action });
    await press('pause');
    expect(w.reader.view.state).toBe('paused');
    await press('play');
    expect(w.reader.view.state).toBe('playing');
    await press('nexttrack');
    expect(w.reader.view.part).toBe(1);
    await press('previoustrack');
    expect(w.reader.view.part).toBe(0);
    await press('stop');
    expect(w.reader.view.state).toBe('stopped');
    // The player is told the page's title for the controls.
    expect(w.commands.find((c) => c.type === 'load')).toMatchObject({ title: 'T' });
  });
});

describe('resume per page', () => {
  it('coming back offers where the listener stopped; continuing plays what was received from the cache, unpaid', async () => {
    const points = new Map();
    const blocks = [{ kind: 'paragraph' as const, text: sentences(60) }];
    const first = makeWorld({ blocks, url: 'https://example.com/a', resumePoints: points });
    void first.start();
    await first.until(() => first.log.length === 2, 'two parts requested');
    await first.until(() => first.reader.view.chars > 0, 'billed');
    // The player is 8 s into part 1 (its audio received whole), then the listener stops.
    first.at(1, 1);
    await first.until(() => points.has('https://example.com/a'), 'the place kept');
    await first.reader.stop();
    const kept = points.get('https://example.com/a');
    expect(kept).toMatchObject({ part: 1, partKey: first.reader['run']!.key(1) });
    // (The world's player reports no seconds; a listener who stopped here had heard 42.)
    points.set('https://example.com/a', { ...kept, position: 42 });

    const second = makeWorld({ blocks, url: 'https://example.com/a', resumePoints: points, cache: first.cache });
    void second.start();
    await second.until(() => second.reader.view.resumeOffer !== null || second.reader.view.state === 'error', 'the offer');
    expect(second.reader.view.resumeOffer).toMatchObject({ part: 1 });
    await second.reader.resumeFromOffer();
    expect(second.reader.view.part).toBe(1);
    expect(second.reader.view.resumeOffer).toBeNull();
    // What the first visit received comes from the cache: none of it is requested again.
    second.at(3, 2);
    await second.until(() => second.log.length > 0, 'a part after them requested');
    const paidBefore = new Set(first.okTexts());
    expect(second.log.filter((e) => paidBefore.has(e.text))).toEqual([]);
  });

  it('the first part is asked for without waiting for the place kept on the page; the offer shows once it is known', async () => {
    const blocks = [{ kind: 'paragraph' as const, text: sentences(60) }];
    const url = 'https://example.com/slow';
    let answer!: () => void;
    const resumeGate = new Promise<void>((ok) => (answer = ok));
    const w = makeWorld({ blocks, url, resumeGate });
    void w.start();
    await w.until(() => w.log.length > 0, 'the first part requested');
    const plan = w.reader['run']!;
    w.resumePoints.set(url, { part: 2, partKey: plan.key(2), partTime: 3, position: 50, at: 0 });
    expect(w.reader.view.resumeOffer).toBeNull();
    answer();
    await w.until(() => w.reader.view.resumeOffer !== null, 'the offer');
    expect(w.reader.view.resumeOffer).toMatchObject({ part: 2, position: 50 });
  });

  it('a page read to the end offers nothing next time; another text at the same address neither', async () => {
    const points = new Map();
    const w = makeWorld({ autoplay: true, url: 'https://example.com/b', resumePoints: points });
    await w.start();
    await finished(w);
    expect(points.has('https://example.com/b')).toBe(false);
    points.set('https://example.com/b', { part: 1, partKey: 'another text', partTime: 2, position: 60, at: 0 });
    const again = makeWorld({ autoplay: true, url: 'https://example.com/b', resumePoints: points });
    void again.start();
    await again.until(() => again.reader.view.state !== 'extracting', 'the start');
    expect(again.reader.view.resumeOffer).toBeNull();
  });
});

describe('a start from a page (click-to-read) never takes the place of what only the listener may end', () => {
  const fromPage = (w: ReturnType<typeof makeWorld>) =>
    w.reader.startFromPage({ tabId: 1, source: 'article', extract: async () => ({ title: 'Другая', source: 'article', blocks: [{ text: 'Другая статья со страницы.', kind: 'paragraph' }] }) });

  it('a reading that asks first is kept, and nothing is sent', async () => {
    const w = makeWorld({ threshold: '0.0001' });
    void w.start();
    await w.until(() => w.reader.view.state === 'confirm', 'the confirmation');
    const id = w.reader.view.id;
    expect(await fromPage(w)).toBe(false);
    expect(w.reader.view).toMatchObject({ id, state: 'confirm' });
    expect(w.log).toHaveLength(0);
  });

  it('a reading being saved as MP3 is kept until the file is made', async () => {
    const w = makeWorld({ answer: (_b, n) => (n === 0 ? { kind: 'stall' } : { kind: 'ok' }) });
    void w.start();
    await w.until(() => w.log.length === 2 && w.reader.view.state === 'playing', 'playing, the part ahead asked for');
    await w.reader.stop();
    const saving = w.saveAll();
    await w.until(() => w.reader.saving, 'the save under way');
    const id = w.reader.view.id;
    expect(await fromPage(w)).toBe(false);
    expect(w.reader.view.id).toBe(id);
    w.release();
    expect(await saving).toEqual({ ok: true });
  });

  it('any other reading is replaced, as a start from the toolbar would', async () => {
    const w = makeWorld();
    void w.start();
    await w.until(() => w.reader.view.state === 'playing', 'playing');
    const id = w.reader.view.id;
    expect(await fromPage(w)).toBe(true);
    await w.until(() => w.reader.view.id !== id, 'the new reading');
  });
});

describe('the marks on the page follow the words the player tells (issue 48)', () => {
  const text = 'Первое предложение здесь. Второе предложение там. Третье в конце.';
  const marked = async (wordMark: boolean | undefined, told: Array<[number, number]>) => {
    const w = makeWorld({ blocks: [{ kind: 'paragraph', text }] });
    const marks: unknown[] = [];
    w.deps.highlight = (_tab, mark) => void marks.push(mark);
    if (wordMark !== undefined) w.deps.wordMark = () => wordMark;
    await w.start();
    await vi.waitFor(() => expect(w.reader.view.state).toBe('playing'));
    const part = (k: number) => w.store.plan!.parts[k]!.text;
    for (const [k, word] of told) {
      w.word(k, word);
      await vi.waitFor(() => expect(marks.length).toBeGreaterThan(0));
      await new Promise((r) => setTimeout(r, 0));
    }
    // A report of the player's place in a part whose words are told moves nothing by share.
    const before = marks.length;
    w.reportNow(told.at(-1)![0]);
    await new Promise((r) => setTimeout(r, 0));
    return { marks, part, after: marks.length - before };
  };

  it('each word told is marked, in its sentence, with its place there', async () => {
    const { marks, part, after } = await marked(undefined, [[0, 0], [0, 1], [0, 2]]);
    const first = part(0).split('.')[0]!;
    expect(marks).toEqual([
      { block: 0, text: expect.stringContaining(first), word: { start: 0, end: 'Первое'.length } },
      { block: 0, text: expect.stringContaining(first), word: { start: 'Первое '.length, end: 'Первое предложение'.length } },
      { block: 0, text: expect.stringContaining(first), word: { start: 'Первое предложение '.length, end: 'Первое предложение здесь'.length } },
    ]);
    expect(after).toBe(0);
  });

  it('a word told behind the one marked (the part before, in the same load) moves nothing: the band never goes back', async () => {
    const { marks, part } = await marked(undefined, [[1, 0], [0, 0]]);
    expect(marks).toEqual([{ block: 0, text: expect.stringContaining(part(1).split('.')[0]!), word: { start: 0, end: part(1).split(' ')[0]!.length } }]);
  });

  it('with the word mark off: the sentence alone, sent once while its words are said', async () => {
    const { marks, after } = await marked(false, [[0, 0], [0, 1], [0, 2]]);
    expect(marks).toEqual([{ block: 0, text: expect.stringContaining('Первое предложение здесь') }]);
    expect(after).toBe(0);
  });
});

describe('the service cannot be reached (issue 58)', () => {
  /** Every view the reader wrote, in order. */
  function viewsOf(w: ReturnType<typeof makeWorld>) {
    return vi.spyOn(w.deps.store, 'saveView').mock.calls;
  }

  it('a wait, not an error: shown with when it began, tried again until answered, then read to the end, every part paid once', async () => {
    const w = makeWorld({ autoplay: true, answer: (_b, n) => (n >= 1 && n <= 6 ? { kind: 'unreachable' } : { kind: 'ok' }) });
    const saves = viewsOf(w);
    await w.start();
    await finished(w);
    expect(w.reader.view.state).toBe('finished');
    const waits = saves.map(([v]) => v).filter((v) => v.wait === 'network');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((v) => v.waitSince > 0 && (v.state === 'playing' || v.state === 'loading'))).toBe(true);
    expect(w.reader.view).toMatchObject({ wait: '', waitSince: 0 });
    expect(w.okTexts()).toEqual(w.store.plan!.parts.map((p) => p.text));
    expect(w.log.filter((e) => e.answer === 'unreachable')).toHaveLength(6);
  });

  it('past the pause limit it pauses (not an error) and tries nothing more; ▶ tries at once and reads to the end', async () => {
    let online = false;
    const w = makeWorld({ autoplay: true, networkPauseAfterMs: 30_000, answer: (_b, n) => (n >= 1 && !online ? { kind: 'unreachable' } : { kind: 'ok' }) });
    await w.start();
    await w.until(() => w.reader.view.state === 'paused', 'paused by the wait');
    expect(w.reader.view).toMatchObject({ state: 'paused', wait: 'network', error: null });
    const tries = w.log.length;
    // Asked for ahead, the second part met the wall and was given up; needed, it was tried at 0, 1, 3, 7,
    // 15, 23 s and at the limit itself, 30 s.
    const second = w.store.plan!.parts[1]!.text;
    expect(w.log.filter((e) => e.text === second).length).toBe(1 + 7);
    await new Promise((r) => setTimeout(r, 20));
    expect(w.log.length).toBe(tries);
    online = true;
    await w.reader.resume();
    await finished(w);
    expect(w.reader.view).toMatchObject({ state: 'finished', wait: '' });
    expect(w.okTexts()).toEqual(w.store.plan!.parts.map((p) => p.text));
  });

  it('a stop while it waits ends the wait: nothing more is tried', async () => {
    const w = makeWorld({ autoplay: true, manualTime: true, answer: (_b, n) => (n >= 1 ? { kind: 'unreachable' } : { kind: 'ok' }) });
    await w.start();
    await w.until(() => w.reader.view.wait === 'network', 'waiting');
    const tries = w.log.length;
    await w.reader.stop();
    expect(w.reader.view).toMatchObject({ state: 'stopped', wait: '', waitSince: 0 });
    w.tick(60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(w.log.length).toBe(tries);
  });
});

describe("a reading's text from a host that cannot be reached (a queued page, issue 58)", () => {
  it('waits for the network while extracting, asks for the text again, and reads it', async () => {
    const w = makeWorld({ autoplay: true });
    const saves = vi.spyOn(w.deps.store, 'saveView').mock.calls;
    let asked = 0;
    await w.reader.start({
      tabId: null,
      source: 'article',
      extract: async () => {
        asked += 1;
        if (asked <= 3) throw new Unreachable();
        return { title: 'T', source: 'article', blocks: [{ kind: 'paragraph', text: sentences(5) }] };
      },
    });
    await finished(w);
    expect(w.reader.view).toMatchObject({ state: 'finished', wait: '' });
    expect(asked).toBe(4);
    expect(saves.some(([v]) => v.state === 'extracting' && v.wait === 'network')).toBe(true);
  });

  it('past the pause limit it ends in network: there is nothing to pause on', async () => {
    const w = makeWorld({ autoplay: true, networkPauseAfterMs: 10_000 });
    await w.reader.start({ tabId: null, source: 'article', extract: async () => Promise.reject(new Unreachable()) });
    await finished(w);
    expect(w.reader.view).toMatchObject({ state: 'error', error: { code: 'network' }, wait: '' });
    expect(w.log).toHaveLength(0);
  });
});

