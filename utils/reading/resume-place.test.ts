import { describe, expect, it } from 'vitest';
import { hashOf } from '../storage/bounds';
import { resumePointsOf, type ResumePoint } from '../storage/resume';
import { resumeOfferOf } from './resume-place';
import type { ReadingRun } from './run';

/** A run of three parts whose cache keys hold their text (as `keyOf` makes them). */
const run = { parts: [{}, {}, {}], key: (part: number) => `["","mp3","Часть ${part}."]` } as unknown as ReadingRun;
const point = (patch: Partial<ResumePoint> = {}): ResumePoint => ({ part: 1, partKey: run.key(1), partTime: 2, position: 30, at: 0, ...patch });

describe('resumeOfferOf: a place is offered when the same part is there again', () => {
  it.each([
    ['the key as a reading makes it', point(), { part: 1, partTime: 2, position: 30 }],
    ['the key as stored (its hash)', point({ partKey: hashOf(run.key(1)) }), { part: 1, partTime: 2, position: 30 }],
    ['an earlier version’s stored point, read back (hashed then)', Object.values(resumePointsOf({ 'https://example.ru/a': point() }))[0]!, { part: 1, partTime: 2, position: 30 }],
    ['another text', point({ partKey: hashOf('["","mp3","Другая часть."]') }), null],
    ['another part’s key', point({ partKey: hashOf(run.key(2)) }), null],
    ['a part the page no longer has', point({ part: 3 }), null],
    ['too early in the page to be worth it', point({ position: 4 }), null],
    ['no place', null, null],
  ])('%s', (_name, p, expected) => {
    expect(resumeOfferOf(run, p)).toEqual(expected);
  });
});
