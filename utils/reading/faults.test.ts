import { describe, expect, it } from 'vitest';
import { makeWorld, sentences } from '../../tests/unit/reader-world';

const turn = () => new Promise((r) => setTimeout(r, 0));
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await turn();
};

describe('review of the reading core', () => {
  it('a part that failed with a 5xx is not paid for after the listener jumped away from it during the backoff', async () => {
    let failed = false;
    const w = makeWorld({
      manualTime: true,
      maxConcurrency: 2,
      blocks: [{ kind: 'paragraph', text: sentences(200) }],
      answer: (body) => {
        if (!failed && body.text === w.store.plan!.parts[0]!.text) {
          failed = true;
          return { kind: 'error', status: 503, code: 'synthesis_failed' };
        }
        return { kind: 'ok' };
      },
    });
    void w.start();
    await w.until(() => failed, 'the first part refused with a 503');
    await turns(); // the download now waits out its backoff
    const parts = w.store.plan!.parts;
    await w.reader.jumpTo(5);
    await w.until(() => w.okTexts().includes(parts[5]!.text), 'the part jumped to requested');
    w.tick(60_000); // the backoff ends
    await turns();
    // Part 0 was asked for once (the 503); the listener is at part 5 now: a second, billed request for part 0 is money thrown away.
    expect(w.log.filter((e) => e.text === parts[0]!.text)).toHaveLength(1);
  });

  it('Save as MP3 survives the listener jumping away from the part it is saving (no failure, the part is not paid twice)', async () => {
    let parts: string[] = [];
    const w = makeWorld({
      manualTime: true,
      maxConcurrency: 1,
      blocks: [{ kind: 'paragraph', text: sentences(200) }],
      answer: (body) => (body.text === w.store.plan?.parts[2]?.text ? { kind: 'stall' } : { kind: 'ok' }),
    });
    void w.start();
    await w.until(() => w.store.plan !== null, 'planned');
    parts = w.store.plan!.parts.map((p) => p.text);
    await w.until(() => w.okTexts().length === 2 && w.reader.view.state === 'playing', 'parts 0 and 1 received');
    await turns();
    const saving = w.saveAll();
    await w.until(() => w.okTexts().includes(parts[2]!), 'Save as MP3 streaming part 2');
    // The listener goes to part 2 (joins the save's download), then on to part 6.
    await w.reader.jumpTo(2);
    w.tick(1_000);
    await w.reader.jumpTo(6);
    await turns();
    w.release();
    const result = await saving;
    expect(result).toEqual({ ok: true });
    expect(w.okTexts().filter((t) => t === parts[2])).toHaveLength(1);
  });

  it('Save as MP3 started during the reading still completes when the listener presses Stop', async () => {
    let parts: string[] = [];
    const w = makeWorld({
      maxConcurrency: 2,
      blocks: [{ kind: 'paragraph', text: sentences(200) }],
      answer: (body) => (body.text === w.store.plan?.parts[1]?.text ? { kind: 'held' } : { kind: 'ok' }),
    });
    void w.start();
    await w.until(() => w.store.plan !== null, 'planned');
    parts = w.store.plan!.parts.map((p) => p.text);
    await w.until(() => w.reader.view.state === 'playing' && w.log.some((e) => e.text === parts[1]), 'part 0 playing, part 1 requested ahead');
    const saving = w.saveAll();
    await turns();
    await w.reader.stop();
    w.release();
    // Save as MP3 outlives the reading (ReadingRun.lifeSignal: "Save as MP3 may fetch after the reading has ended").
    expect(await saving).toEqual({ ok: true });
  });

  it('after a restart of the background, a 402 lets the audio the player holds play out before showing the error', async () => {
    const first = makeWorld();
    void first.start();
    await first.until(() => first.log.length === 2, 'two parts requested');
    await first.until(() => first.reader.view.chars > 0, 'billed');
    await turns();
    const second = makeWorld({
      autoplay: true,
      saved: { ...first.store },
      cache: first.cache,
      answer: () => ({ kind: 'error', status: 402, code: 'insufficient_balance' }),
    });
    await second.reader.ready;
    // The player, which kept playing, is in part 1 and holds parts 0 and 1 whole.
    second.at(1, 1);
    await second.until(() => second.log.length > 0, 'part 2 requested');
    await turns();
    const kinds = second.commands.map((c) => c.type);
    // Part 1 is still sounding: the player must not be stopped before it has played out.
    expect(kinds.indexOf('stop')).toBe(-1);
    expect(kinds).toContain('end-of-stream');
    await second.until(() => second.reader.view.state === 'error', 'error after playing out');
    expect(second.reader.view.error?.code).toBe('insufficient_balance');
  });

  it('after a 402 no further speech request is sent, not even by a Save as MP3 under way', async () => {
    let parts: string[] = [];
    let refusedAt = -1;
    const w = makeWorld({
      manualTime: true,
      maxConcurrency: 2,
      blocks: [{ kind: 'paragraph', text: sentences(200) }],
      answer: (body, n) => {
        if (body.text === parts[2]) return { kind: 'held' };
        if (body.text === parts.at(-1)) return (refusedAt = n), { kind: 'error', status: 402, code: 'insufficient_balance' };
        return { kind: 'ok' };
      },
    });
    void w.start();
    await w.until(() => w.store.plan !== null, 'planned');
    parts = w.store.plan!.parts.map((p) => p.text);
    await w.until(() => w.okTexts().length === 2 && w.reader.view.state === 'playing', 'parts 0 and 1 received');
    await turns();
    const saving = w.saveAll();
    await w.until(() => w.log.some((e) => e.text === parts[2]), 'Save as MP3 asking for part 2');
    // The listener jumps to the last part (nothing after it to fetch ahead): the service refuses it, 402.
    await w.reader.jumpTo(parts.length - 1);
    await w.until(() => w.reader.view.state === 'error', 'the reading stops on the 402');
    w.release();
    await saving;
    expect(w.reader.view.error?.code).toBe('insufficient_balance');
    expect(w.log.slice(refusedAt + 1).map((e) => parts.indexOf(e.text))).toEqual([]);
  });

});
