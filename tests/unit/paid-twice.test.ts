import { describe, expect, it } from 'vitest';
import { paidTwice } from '../fixtures/paid-twice';

/** An answer of `text`, 10 bytes a character; cut ones sent `sent` bytes. */
const ok = (text: string, aborted = false, sent = 0) => ({ status: 200, text, billedChars: [...text].length, aborted, bytesSent: aborted ? sent : 10 * [...text].length });

describe('paidTwice: what a reading paid for twice, from the service log', () => {
  it.each([
    ['every part once', [ok('А раз. Б два.'), ok('В три.')], { receivedTwice: [], askedWholeAgain: [], repaidChars: 0, cut: 0 }],
    ['a cut answer, its rest from the cut sentence', [ok('А раз. Б два. В три.', true, 100), ok('Б два. В три.')], { receivedTwice: [], askedWholeAgain: [], repaidChars: 13, cut: 1 }],
    ['a cut answer well into its text asked for whole again', [ok('А раз. Б два. В три.', true, 150), ok('А раз. Б два. В три.')], { receivedTwice: [], askedWholeAgain: ['А раз. Б два. В три.'], repaidChars: 0, cut: 1 }],
    ['one cut in its first sentence can only be asked for whole', [ok('А раз. Б два. В три.', true, 50), ok('А раз. Б два. В три.')], { receivedTwice: [], askedWholeAgain: [], repaidChars: 0, cut: 1 }],
    ['a part received whole twice', [ok('А раз. Б два.'), ok('Б два. В три.')], { receivedTwice: ['Б два.'], askedWholeAgain: [], repaidChars: 0, cut: 0 }],
    ['a body the service cut (a reset: logged as ended) is a cut one', [{ ...ok('А раз. Б два. В три.'), fault: 'reset', bytesSent: 100 }, ok('Б два. В три.')], { receivedTwice: [], askedWholeAgain: [], repaidChars: 13, cut: 1 }],
    ['errors and unbilled answers count for nothing', [{ status: 502, text: 'А раз.', billedChars: 0, aborted: false, bytesSent: 40 }, ok('А раз.')], { receivedTwice: [], askedWholeAgain: [], repaidChars: 0, cut: 0 }],
  ])('%s', (_name, log, expected) => expect(paidTwice(log)).toEqual(expected));
});
