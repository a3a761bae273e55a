import { describe, expect, it } from 'vitest';
import { parseRub } from '../money/money';
import { IDLE_VIEW, type ReadingView } from './state';
import { type ViewChange, viewAfter } from './view';

const PRICE = parseRub('1500.0000')!;
const NOW = 1_700_000_000_000;
const view = (v: Partial<ReadingView> = {}): ReadingView => ({ ...IDLE_VIEW, id: 'r1', state: 'playing', tabId: 7, title: 'Статья', costRub: '0.5000', chars: 333, balanceRub: '99.5000', parts: 4, part: 1, position: 30, ...v });
const offer = { part: 2, partTime: 5, position: 60 };

describe('viewAfter: what the listener is shown after each change (the one function)', () => {
  it.each<[string, ReadingView, ViewChange, Partial<ReadingView>]>([
    ['a new reading shows nothing of the last but its sleep timer', view({ notice: { code: 'skipped-words', count: 2 } }), { type: 'begun', id: 'r2', state: 'extracting', tabId: 9, source: 'menu', sleepAt: NOW + 60_000, sleepAtEnd: false },
      { id: 'r2', state: 'extracting', tabId: 9, source: 'menu', title: '', costRub: '0.0000', chars: 0, balanceRub: '', parts: 0, position: 0, notice: { code: '', count: 0 }, sleepAt: NOW + 60_000 }],
    ['a step shows its state, the wait and what came with it', view(), { type: 'step', state: 'loading', wait: '', shown: { part: 3, partTime: 1.5 }, lastPart: 3 }, { state: 'loading', part: 3, partTime: 1.5, waitSince: 0 }],
    ['a wait that begins shows when it began', view(), { type: 'step', state: 'playing', wait: 'network', waitSince: NOW - 2_000, shown: {}, lastPart: 3 }, { wait: 'network', waitSince: NOW - 2_000 }],
    ['a wait that goes on keeps when it began', view({ wait: 'network', waitSince: NOW - 9_000 }), { type: 'step', state: 'paused', wait: 'network', shown: {}, lastPart: 3 }, { state: 'paused', wait: 'network', waitSince: NOW - 9_000 }],
    ['the wait over: no time shown', view({ wait: 'network', waitSince: NOW - 9_000 }), { type: 'step', state: 'playing', wait: '', shown: {}, lastPart: 3 }, { wait: '', waitSince: 0 }],
    ['finished: the last part shown, no place offered', view({ resumeOffer: offer }), { type: 'step', state: 'finished', wait: '', shown: {}, lastPart: 3 }, { state: 'finished', part: 3, resumeOffer: null }],
    ['stopped while a PDF was counted: counted no more', view({ counting: true }), { type: 'step', state: 'stopped', wait: '', shown: {}, lastPart: 3 }, { state: 'stopped', counting: false }],
    ['an error shows its code', view(), { type: 'step', state: 'error', wait: '', shown: { error: { code: 'balance', requestId: 'q', detail: '' } }, lastPart: 3 }, { state: 'error', error: { code: 'balance', requestId: 'q', detail: '' } }],
    ['planned: the title and the plan’s figures; a source told before is kept', view({ source: 'menu' }), { type: 'planned', title: 'T', source: '', balanceRub: '10.0000', stalePrice: true, counting: false, planned: { parts: 2, savedChars: 10, savedRub: '0.0150', estimateChars: 2_000, estimateRub: '3.0000', estimateAboveBalance: false, notice: { code: '', count: 0 }, chapters: false } },
      { title: 'T', source: 'menu', balanceRub: '10.0000', stalePrice: true, parts: 2, estimateChars: 2_000, estimateRub: '3.0000' }],
    ['a PDF’s batch counted', view({ estimateChars: 1_000 }), { type: 'grown', batch: { leftOutChars: 0, silentChars: 0, skippedWords: 0, more: true }, partChars: [1_000, 1_000], price: PRICE, incomplete: false }, { parts: 2, estimateChars: 2_000, estimateRub: '3.0000', counting: true }],
    ['the rest of a PDF could not be read: said', view({ counting: true }), { type: 'counted', incomplete: true }, { counting: false, notice: { code: 'incomplete', count: 0 } }],
    ['billed: the cost and characters so far, the balance told', view(), { type: 'billed', cost: parseRub('1.2345')!, chars: 823, balanceRub: '98.7655' }, { costRub: '1.2345', chars: 823, balanceRub: '98.7655' }],
    ['billed without a balance: the last one stays', view(), { type: 'billed', cost: parseRub('1.2345')!, chars: 823, balanceRub: null }, { balanceRub: '99.5000' }],
    ['an earlier bill’s receipt handled after a later one’s: the lower balance stays', view({ balanceRub: '97.0330' }), { type: 'billed', cost: parseRub('2.9670')!, chars: 1_978, balanceRub: '99.9775' }, { costRub: '2.9670', chars: 1_978, balanceRub: '97.0330' }],
    ['the first bill after the account check', view({ balanceRub: '' }), { type: 'billed', cost: parseRub('0.0225')!, chars: 15, balanceRub: '99.9775' }, { balanceRub: '99.9775' }],
    ['parts refused by the service: said with their number', view(), { type: 'refused', count: 2 }, { notice: { code: 'content-rejected', count: 2 } }],
    ['the player moved: rounded to hundredths', view(), { type: 'moved', part: 2, position: 41.23456, partTime: 3.14159, rate: 1.5 }, { part: 2, position: 41.23, partTime: 3.14, rate: 1.5 }],
    ['moved past the place offered: the offer goes', view({ resumeOffer: offer }), { type: 'moved', part: 2, position: 61, partTime: 6, rate: 1 }, { resumeOffer: null }],
    ['moved, not yet past it: still offered', view({ resumeOffer: offer }), { type: 'moved', part: 1, position: 31, partTime: 1, rate: 1 }, { resumeOffer: offer }],
    ['the player ran out earlier than shown: the position does not go back', view({ position: 30 }), { type: 'heard-to', position: 29.5 }, { position: 30 }],
    ['the sleep timer spent: “to the end” as it was', view({ sleepAt: NOW, sleepAtEnd: false }), { type: 'sleep', sleepAt: 0 }, { sleepAt: 0, sleepAtEnd: false }],
    ['the sleep timer to the end of the article', view(), { type: 'sleep', sleepAt: 0, sleepAtEnd: true }, { sleepAt: 0, sleepAtEnd: true }],
  ])('%s', (_name, before, change, expected) => {
    const after = viewAfter(before, change, NOW);
    expect(after).toMatchObject(expected);
    expect(after.updatedAt).toBe(NOW);
    // The view before is never changed in place (the reader compares views by identity).
    expect(before.updatedAt).toBe(0);
  });
});
