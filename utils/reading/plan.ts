/**
 * The reading's plan, as pure functions: what is sent (acceptable text cut into parts), what it
 * is estimated to cost, each request's body, where a cut stream resumes, and how a part is halved.
 * No browser APIs: everything here is tested with tables.
 */
import { applyPronunciation, type PronunciationRule } from '../text/pronunciation';
import { boundTitle } from '../text/title';
import { readUrls } from '../text/urls';
import { partKey } from '../audio/cache';
import type { SpeechBody } from '../speech/client';
import { costOf, formatRubPlain, parseRub, type RubUnits } from '../money/money';
import type { AccountInfo, AudioFormat, Settings, UrlReading } from '../storage/settings';
import { countLetters, makeAcceptable } from '../text/accepted';
import type { TextBlock } from '../text/extract';
import { PREVIEW_MAX, type PreviewBlock } from './preview';
import { countChars, type Part, splitIntoParts } from '../text/parts';
import { ReadingError } from '../speech/errors';
import { type WordSpan } from '../audio/word-measure';
import type { PageMark } from '../messaging/content';

/** A failure before any request, told by a local code: kept with the error codes (`utils/speech/errors.ts`). */
export { ReadingError };

/** What a restarted background needs to carry on (kept in IndexedDB: a book is megabytes). */
export interface ReadingPlan {
  id: string;
  parts: Part[];
  voice: string;
  format: AudioFormat;
  priceRub: string;
  /** The account's limit of requests in flight when the reading started. */
  maxConcurrency: number;
  /**
   * A document read in batches (a PDF, an article read title first): more text is still being extracted,
   * after `blocks` blocks so far. Absent once everything is planned. `continues`: the rest is split as if it
   * had come with the first batch (an article read title first is cut as it would have been read whole).
   */
  grows?: { blocks: number; continues?: true };
}

export interface Planned {
  parts: Part[];
  /** Words left out (scripts the service refuses). */
  skippedWords: number;
  estimateChars: number;
  /** Code points of sentences with nothing to say (no letter or digit the service reads): never sent. */
  silentChars: number;
}

/**
 * Folds and cuts the extracted blocks into the parts that will be sent. Each sentence keeps the
 * index of its block as extracted, so the page can highlight it in that block.
 */
export function planParts(blocks: readonly TextBlock[], opts: { rules?: readonly PronunciationRule[]; urls?: UrlReading; continues?: boolean } = {}): Planned {
  let urlChars = 0;
  const spoken = (text: string) => {
    const reduced = readUrls(text, opts.urls);
    urlChars += countChars(text) - countChars(reduced);
    return applyPronunciation(reduced, opts.rules ?? []);
  };
  const all = leaveOutForeign(blocks.map((b, origin) => ({ kind: b.kind, origin, ...makeAcceptable(spoken(b.text)) })));
  const accepted = all.filter((b) => b.text.trim() !== '');
  let silentChars = urlChars;
  const parts: Part[] = [];
  // A book's chapters are cut apart: each begins a part of its own (the first only as short as a reading's first).
  for (const group of chapterGroups(accepted, blocks)) {
    const cut = splitIntoParts(group.map(({ kind, text }) => ({ kind, text })), { onSilent: (n) => (silentChars += n), continues: opts.continues === true || parts.length > 0 });
    for (const part of cut) for (const s of part.sentences) s.block = group[s.block]!.origin;
    const before = parts.at(-1);
    if (before && cut[0]) cut[0].previousText = tail(before.text, 300);
    if (blocks[group[0]!.origin]?.chapter && cut[0]) cut[0].chapter = true;
    parts.push(...cut.map((part) => ({ ...part, index: parts.length + part.index })));
  }
  return {
    parts,
    skippedWords: all.reduce((n, b) => n + b.skippedWords, 0),
    estimateChars: parts.reduce((n, p) => n + p.chars, 0),
    silentChars,
  };
}

/** The blocks in runs that each begin at a chapter's first block (one run when the text has no chapters). */
function chapterGroups<B extends { origin: number }>(accepted: B[], blocks: readonly TextBlock[]): B[][] {
  const groups: B[][] = [];
  for (const b of accepted) {
    if (!groups.length || blocks[b.origin]?.chapter) groups.push([]);
    groups.at(-1)!.push(b);
  }
  return groups;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A block written mostly in a script the service cannot read (more of its letters left out than kept) is
 * left out whole: "DeepMind，DNC（）AI，。" is what a Chinese paragraph leaves, and says nothing. On a page
 * written mostly in such scripts, blocks with no letter at all (dates, counters, "1 1") go too. What is
 * left out counts as skipped words.
 */
function leaveOutForeign<B extends { text: string; skipped: string[]; skippedWords: number }>(blocks: B[]): B[] {
  let foreign = 0;
  let kept = 0;
  const counted = blocks.map((b) => {
    const f = countLetters(b.skipped.join(''));
    const k = countLetters(b.text);
    foreign += f;
    kept += k;
    return { b, f, k };
  });
  const foreignPage = foreign > kept;
  return counted.map(({ b, f, k }) => {
    if (f > k || (foreignPage && k === 0)) {
      const words = b.text.match(WORD)?.length ?? 0;
      return { ...b, text: '', skippedWords: b.skippedWords + words };
    }
    return b;
  });
}

/** The preview of a reading: its first extracted blocks (`PREVIEW_MAX`) with the characters its parts bill for each. */
export function previewOf(blocks: readonly TextBlock[], parts: readonly Part[], price: RubUnits, off: ReadonlySet<number>): PreviewBlock[] {
  const chars = new Map<number, number>();
  for (const part of parts) for (const s of part.sentences) chars.set(s.block, (chars.get(s.block) ?? 0) + countChars(part.text.slice(s.start, s.end)));
  return blocks.slice(0, PREVIEW_MAX).flatMap((b, block) => {
    const n = chars.get(block) ?? 0;
    if (n === 0 && !off.has(block)) return []; // nothing of it is read anyway
    return [{ block, kind: b.kind, head: boundTitle(b.text, 90), chars: n, rub: formatRubPlain(costOf(n, price)), on: !off.has(block) }];
  });
}

export function estimateRub(chars: number, price: RubUnits): string {
  return formatRubPlain(costOf(chars, price));
}

/**
 * A new reading's plan, its estimate as the popup shows it, what was left out before billing
 * (`leftOutChars` from the extraction, plus sentences with nothing to say), and whether to ask first.
 */
export function planReading(id: string, text: { blocks: readonly TextBlock[]; leftOutChars?: number; chapters?: boolean }, settings: Settings, account: AccountInfo) {
  const planned = planParts(text.blocks, { rules: settings.pronunciations ?? [], urls: settings.urls ?? 'domain' });
  if (planned.parts.length === 0) throw new ReadingError('no-text');
  const price = parseRub(account.pricePerMillionRub) ?? 0n;
  const estimate = costOf(planned.estimateChars, price);
  const balance = parseRub(account.balanceRub);
  const plan: ReadingPlan = {
    id,
    parts: planned.parts,
    voice: settings.voice.trim(),
    format: settings.format,
    priceRub: account.pricePerMillionRub,
    maxConcurrency: account.maxConcurrency,
  };
  const savedChars = (text.leftOutChars ?? 0) + planned.silentChars;
  const view = {
    parts: planned.parts.length,
    savedChars,
    savedRub: formatRubPlain(costOf(savedChars, price)),
    estimateChars: planned.estimateChars,
    estimateRub: formatRubPlain(estimate),
    estimateAboveBalance: balance !== null && estimate > balance,
    notice: planned.skippedWords > 0 ? { code: 'skipped-words' as const, count: planned.skippedWords } : { code: '' as const, count: 0 },
    chapters: text.chapters === true,
  };
  return { plan, price, estimate, view, askFirst: estimate > (parseRub(settings.confirmThresholdRub) ?? 0n) };
}

/**
 * A batch of a document read in batches, planned on the end of `plan`: its parts numbered after the
 * plan's, its sentences' blocks counted from `blockOffset`, its first part told what came before.
 * `continues`: cut as it would have been after the plan's parts in one text (no short first part).
 */
export function planBatch(
  plan: Pick<ReadingPlan, 'parts'>,
  blockOffset: number,
  blocks: readonly TextBlock[],
  settings: Pick<Settings, 'pronunciations' | 'urls'>,
  continues = false,
): Planned {
  const planned = planParts(blocks, { rules: settings.pronunciations ?? [], urls: settings.urls ?? 'domain', continues });
  const base = plan.parts.length;
  const before = plan.parts[base - 1];
  const parts = planned.parts.map((part, i) => ({
    ...part,
    index: base + i,
    previousText: i === 0 && before ? tail(before.text, 300) : part.previousText,
    sentences: part.sentences.map((s) => ({ ...s, block: s.block + blockOffset })),
  }));
  return { ...planned, parts };
}

export const keyOf = (plan: Pick<ReadingPlan, 'voice' | 'format'>, part: Pick<Part, 'text'>): string =>
  partKey({ text: part.text, voice: plan.voice, format: plan.format });

/** The request for part `part` from code unit `from` on (after a cut stream, the rest of it). */
export function speechBody(plan: Pick<ReadingPlan, 'voice' | 'format'>, part: Part, from = 0): SpeechBody {
  const text = part.text.slice(from);
  const previous = from > 0 ? tail(`${part.previousText} ${part.text.slice(0, from)}`, 300) : part.previousText;
  const body: SpeechBody = { text, stream: true, format: plan.format };
  if (plan.voice) body.voice = plan.voice;
  if (previous) body.previous_text = previous;
  if (part.nextText) body.next_text = part.nextText;
  return body;
}

/** Speech runs at about this many characters a second until a reading has measured its own. */
export const DEFAULT_CHARS_PER_SECOND = 14;
/** A cut stream resumes a little early rather than skip words: the estimate is scaled down. */
const CUT_SAFETY = 0.85;

/**
 * Where to resume part text after `seconds` of its audio (counted from `from`) were received:
 * the start of the sentence being spoken then, estimated from the speech rate, a little early
 * rather than late. Code units into the part's text.
 */
export function cutOffset(part: Part, from: number, seconds: number, charsPerSecond: number): number {
  const chars = Math.floor(seconds * charsPerSecond * CUT_SAFETY);
  const points = [...part.text.slice(from)];
  const at = from + points.slice(0, chars).join('').length;
  const starts = part.sentences.map((s) => s.start).filter((s) => s >= from && s <= at);
  return starts.length ? Math.max(...starts) : from;
}

/** `text_too_long` should never happen; if it does, part k is halved at a space. The parts are renumbered. */
export function splitPart(parts: readonly Part[], k: number): Part[] {
  const part = parts[k]!;
  const mid = part.text.lastIndexOf(' ', Math.floor(part.text.length / 2));
  const cut = mid > 0 ? mid : Math.floor(part.text.length / 2);
  const a = part.text.slice(0, cut).trimEnd();
  const bStart = cut + (part.text.slice(cut).length - part.text.slice(cut).trimStart().length);
  const b = part.text.slice(bStart);
  const half = (text: string, offset: number, previousText: string, nextText: string): Part => ({
    ...part,
    text,
    previousText,
    nextText,
    chars: countChars(text),
    sentences: part.sentences
      .map((s) => ({ ...s, start: Math.max(s.start - offset, 0), end: Math.min(s.end - offset, text.length) }))
      .filter((s) => s.end > 0 && s.start < text.length),
  });
  const next = [...parts.slice(0, k), half(a, 0, part.previousText, b), half(b, bStart, a, part.nextText), ...parts.slice(k + 1)];
  return next.map((p, i) => (p.index === i ? p : { ...p, index: i }));
}

/** The index of the sentence of a part that holds character `at` of its text (the first when none starts before it). */
function sentenceIndex(part: Part, at: number): number {
  let index = 0;
  part.sentences.forEach((s, i) => {
    if (s.start <= at) index = i;
  });
  return index;
}

/**
 * Where block `block` (its index as extracted) begins among `parts`: the part its first sentence is in, and
 * how far into that part's text it starts (code units). Null when no part counted so far holds it.
 */
export function placeOfBlock(parts: readonly Part[], block: number): { part: number; offset: number } | null {
  for (const [k, part] of parts.entries()) {
    const s = part.sentences.find((x) => x.block === block);
    if (s) return { part: k, offset: s.start };
  }
  return null;
}

/** Seconds into a part of `seconds` seconds at which code unit `offset` of its text is said (by its share of the characters, as `sentenceAt` places them). */
export function timeAtOffset(part: Part, offset: number, seconds: number): number {
  return part.text.length > 0 && seconds > 0 ? (Math.min(offset, part.text.length) / part.text.length) * seconds : 0;
}

/**
 * The sentence being spoken `partTime` seconds into a part of `seconds` seconds (placed by its share of the
 * characters), its block, and its index among the part's sentences.
 */
export function sentenceAt(part: Part, partTime: number, seconds: number): { mark: PageMark; sentence: number } | null {
  if (!part.sentences.length) return null;
  const sentence = sentenceIndex(part, seconds > 0 ? (partTime / seconds) * part.text.length : 0);
  const s = part.sentences[sentence]!;
  return { mark: { block: s.block, text: part.text.slice(s.start, s.end) }, sentence };
}

/**
 * The mark for word `word` of a part (its index among `wordsOf(part.text)`, as the player times them): the
 * sentence it is in, with the index of its block, and the word's offsets in that sentence's text; and the
 * sentence's index among the part's.
 */
export function markOfWord(part: Part, words: readonly WordSpan[], word: number): { mark: PageMark; sentence: number } | null {
  const w = words[word];
  if (!w || !part.sentences.length) return null;
  const sentence = sentenceIndex(part, w.start);
  const s = part.sentences[sentence]!;
  const start = Math.max(0, w.start - s.start);
  const end = Math.min(s.end, w.end) - s.start;
  return { mark: { block: s.block, text: part.text.slice(s.start, s.end), word: { start, end: Math.max(start, end) } }, sentence };
}

/** The last `max` code points of `s`, starting at a word. */
function tail(s: string, max: number): string {
  const points = [...s.trim()];
  if (points.length <= max) return s.trim();
  const cut = points.slice(-max).join('');
  const space = cut.indexOf(' ');
  return space >= 0 ? cut.slice(space + 1) : cut;
}
