import { codePointsBetween, countChars, hasLooseSpace, hasSurrogate, isLowSurrogate, isSpeakable, squeezeSpaces } from './chars';
import { advance, contextAfter, contextBefore } from './part-context';
import { plainLocale, plainSentenceEnds } from './sentences';

export { countChars, squeezeSpaces };

/**
 * Splits a reading into the parts sent to the speech service, one request each.
 *
 * All blocks' sentences, whitespace-normalized, joined by " " inside a block and "\n" between
 * blocks, make one reading text; every part is a slice of it, and the parts follow each other
 * with at most one separator character left out between them (the space or newline where a cut
 * fell). So nothing is lost or read twice, and `previousText` / `nextText` are the neighbouring
 * slices of the same text.
 */

export type BlockKind = 'title' | 'heading' | 'paragraph';

export interface TextBlock {
  text: string;
  kind: BlockKind;
}

export interface PartSentence {
  /** Code-unit offsets into `Part.text`. A sentence cut between two parts appears in both, each with its piece. */
  start: number;
  end: number;
  /** Index of the source block in the input array. */
  block: number;
}

export interface Part {
  index: number;
  text: string;
  previousText: string;
  nextText: string;
  /** Code points of `text`: what the service bills. */
  chars: number;
  sentences: PartSentence[];
  /** A book's chapter begins with this part (the sleep timer's "end of this chapter" stops before it). */
  chapter?: true;
}

export interface SplitOptions {
  /** Code points of the first part, kept short so the first audio comes quickly. */
  firstPartMax?: number;
  partMax?: number;
  /** The service's limit per request; no part is ever longer. */
  hardMax?: number;
  /** Code points of `previousText` / `nextText` at most. */
  contextChars?: number;
  /** Locale of the sentence and word segmenters. */
  locale?: string;
  /** When given, sentences with no letter or digit the service reads are left out, and told here with their code points. */
  onSilent?: (chars: number) => void;
  /**
   * The text goes on from a first part already sent (the rest of an article read title first): no short
   * first part; its sentences are packed as they would have been after that part in one text.
   */
  continues?: boolean;
}

export const DEFAULT_SPLIT_OPTIONS: Readonly<Required<Omit<SplitOptions, 'onSilent' | 'continues'>>> = {
  firstPartMax: 200,
  partMax: 2_000,
  hardMax: 10_000,
  contextChars: 300,
  locale: 'ru',
};


export function splitIntoParts(blocks: readonly TextBlock[], options: SplitOptions = {}): Part[] {
  const limits = resolveOptions(options);
  const segmenters = segmentersFor(limits.locale);
  const { whole, sentences } = readingText(blocks, segmenters, options.onSilent);
  if (sentences.length === 0) return [];
  const ranges = partRanges(whole, sentences, limits, segmenters, options.continues === true);
  return buildParts(whole, sentences, ranges, limits.contextChars);
}

interface Limits {
  firstPartMax: number;
  partMax: number;
  contextChars: number;
  locale: string;
}

function resolveOptions(options: SplitOptions): Limits {
  const hardMax = positiveInteger('hardMax', options.hardMax ?? DEFAULT_SPLIT_OPTIONS.hardMax);
  const partMax = Math.min(positiveInteger('partMax', options.partMax ?? DEFAULT_SPLIT_OPTIONS.partMax), hardMax);
  const firstPartMax = Math.min(
    positiveInteger('firstPartMax', options.firstPartMax ?? DEFAULT_SPLIT_OPTIONS.firstPartMax),
    partMax,
  );
  const contextChars = options.contextChars ?? DEFAULT_SPLIT_OPTIONS.contextChars;
  if (!Number.isSafeInteger(contextChars) || contextChars < 0) throw new RangeError(`contextChars: ${contextChars}`);
  return { firstPartMax, partMax, contextChars, locale: options.locale ?? DEFAULT_SPLIT_OPTIONS.locale };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name}: ${value}`);
  return value;
}

/**
 * The segmenters of each locale asked for, made once: a sentence segmenter is slow to make
 * (V8, its ICU rules loaded each time), on the way to every reading's first request. They keep no state
 * between texts.
 */
const segmentersByLocale = new Map<string, Segmenters>();

function segmentersFor(locale: string): Segmenters {
  let segmenters = segmentersByLocale.get(locale);
  if (!segmenters) {
    segmenters = new Segmenters(locale);
    // A handful of locales in a life (settings, pages' lang attributes): a page with a made-up one does not grow this for ever.
    if (segmentersByLocale.size >= 8) segmentersByLocale.clear();
    segmentersByLocale.set(locale, segmenters);
  }
  return segmenters;
}

class Segmenters {
  readonly sentence: Intl.Segmenter;
  /** Plain prose is split into sentences without the segmenter, the same as it would (sentences.ts). */
  readonly plain: boolean;
  private readonly locale: string;
  private wordSegmenter: Intl.Segmenter | undefined;
  private graphemeSegmenter: Intl.Segmenter | undefined;

  constructor(locale: string) {
    let sentence: Intl.Segmenter;
    try {
      sentence = new Intl.Segmenter(locale, { granularity: 'sentence' });
    } catch {
      // An invalid tag (from a setting or a page's lang attribute) must not stop the reading.
      locale = DEFAULT_SPLIT_OPTIONS.locale;
      sentence = new Intl.Segmenter(locale, { granularity: 'sentence' });
    }
    this.sentence = sentence;
    this.locale = locale;
    this.plain = plainLocale(locale);
  }

  get word(): Intl.Segmenter {
    return (this.wordSegmenter ??= new Intl.Segmenter(this.locale, { granularity: 'word' }));
  }

  get grapheme(): Intl.Segmenter {
    return (this.graphemeSegmenter ??= new Intl.Segmenter(this.locale, { granularity: 'grapheme' }));
  }
}

/** A sentence (or the rest of one) in the reading text. */
interface Sentence {
  start: number;
  end: number;
  block: number;
  chars: number;
}

function readingText(blocks: readonly TextBlock[], segmenters: Segmenters, onSilent?: (chars: number) => void): { whole: string; sentences: Sentence[] } {
  const pieces: string[] = [];
  const sentences: Sentence[] = [];
  let offset = 0;
  blocks.forEach((block, index) => {
    const source = block.kind === 'paragraph' ? block.text : asOwnSentence(block.text);
    const { ends, plain } = sentenceEnds(source, segmenters);
    // Asked once of the block, not of each sentence: a block read from a page has single spaces and no
    // surrogates, and then neither has any of its sentences (the rewrite and the count are skipped). Plain
    // prose has neither surrogates nor whitespace other than spaces.
    const loose = plain ? source.includes('  ') : hasLooseSpace(source);
    const surrogates = !plain && hasSurrogate(source);
    let start = 0;
    for (const end of ends) {
      const slice = source.slice(start, end);
      start = end;
      const text = loose ? squeezeSpaces(slice) : slice.trim();
      if (text === '') continue;
      if (onSilent && !isSpeakable(text)) {
        onSilent(countChars(text));
        continue;
      }
      const previous = sentences.at(-1);
      if (previous) {
        pieces.push(previous.block === index ? ' ' : '\n');
        offset += 1;
      }
      pieces.push(text);
      sentences.push({ start: offset, end: offset + text.length, block: index, chars: surrogates ? countChars(text) : text.length });
      offset += text.length;
    }
  });
  return { whole: pieces.join(''), sentences };
}


/** A title or heading is read as a sentence of its own: it gets a full stop unless it already ends like one. */
function asOwnSentence(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '' || /[.!?…:;][)\]}»”’"'›」』]*$/.test(line)) return line;
  return `${line}.`;
}

// V8's segmenters slow down quadratically on long strings, so long texts are segmented in windows.
// Boundaries within LOOKAHEAD_MARGIN of a window's end are not trusted: the rules look ahead.
const SENTENCE_WINDOW = 4_000;
const LOOKAHEAD_MARGIN = 200;

/**
 * The end of each sentence of `text` (code units), as Intl.Segmenter finds them; `plain`: found without it
 * (sentences.ts), the text all plain prose.
 */
function sentenceEnds(text: string, segmenters: Segmenters): { ends: number[]; plain: boolean } {
  const plain = segmenters.plain ? plainSentenceEnds(text) : null;
  return plain ? { ends: plain, plain: true } : { ends: segmentedEnds(text, segmenters.sentence), plain: false };
}

function segmentedEnds(text: string, segmenter: Intl.Segmenter): number[] {
  const ends: number[] = [];
  let pos = 0;
  while (pos < text.length) {
    const end = Math.min(text.length, pos + SENTENCE_WINDOW);
    const limit = end === text.length ? end : end - LOOKAHEAD_MARGIN;
    let accepted = pos;
    // Stepped from each sentence to the next with `containing`: iterating the segments made more garbage
    // and took longer over a long text (bench/HISTORY.md).
    const window = text.slice(pos, end);
    const segments = segmenter.segment(window);
    for (let at = 0; at < window.length; ) {
      const segment = segments.containing(at)!;
      at = segment.index + segment.segment.length;
      const boundary = pos + at;
      if (boundary > limit) break;
      ends.push(boundary);
      accepted = boundary;
    }
    if (end === text.length) break;
    pos = accepted > pos ? accepted : resumePoint(text, pos, limit);
  }
  if (ends.at(-1) !== text.length && text.length > 0) ends.push(text.length);
  return ends;
}

/**
 * Where to go on segmenting a sentence that runs past a window: between two letters or digits,
 * so that no run of closing punctuation and spaces, which the sentence rules look back on, is cut.
 */
function resumePoint(text: string, pos: number, limit: number): number {
  for (let q = limit; q > Math.max(pos + 1, limit - 100); q--) {
    if (/^[\p{L}\p{N}]{2}$/u.test(text.slice(q - 1, q + 1))) return q;
  }
  return isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit;
}

interface Range {
  start: number;
  end: number;
  /** Code points of the slice: its sentences' and separators' (counted as they were packed, not again). */
  chars: number;
}

function partRanges(whole: string, sentences: readonly Sentence[], limits: Limits, segmenters: Segmenters, continues: boolean): Range[] {
  const ranges: Range[] = [];
  let current: Range | null = null;
  const flush = (): void => {
    if (current) ranges.push(current);
    current = null;
  };
  const pack = (item: Sentence): void => {
    if (item.chars > limits.partMax) {
      flush();
      let start = item.start;
      let chars = item.chars;
      while (chars > limits.partMax) {
        const cut = cutPoint(whole, start, item.end, limits.partMax, segmenters);
        ranges.push({ start, end: cut.end, chars: codePointsBetween(whole, start, cut.end) });
        chars -= codePointsBetween(whole, start, cut.next);
        start = cut.next;
      }
      current = { start, end: item.end, chars };
    } else if (current && current.chars + 1 + item.chars <= limits.partMax) {
      current.end = item.end;
      current.chars += 1 + item.chars; // one separator, " " or "\n"
    } else {
      flush();
      current = { start: item.start, end: item.end, chars: item.chars };
    }
  };
  const [first, ...rest] = sentences;
  if (!first) return ranges;
  if (continues) {
    pack(first);
  } else if (first.chars <= limits.firstPartMax) {
    ranges.push({ start: first.start, end: first.end, chars: first.chars });
  } else {
    const cut = cutPoint(whole, first.start, first.end, limits.firstPartMax, segmenters);
    ranges.push({ start: first.start, end: cut.end, chars: codePointsBetween(whole, first.start, cut.end) });
    pack({ ...first, start: cut.next, chars: first.chars - codePointsBetween(whole, first.start, cut.next) });
  }
  rest.forEach(pack);
  flush();
  return ranges;
}

interface Cut {
  /** End of the piece before the cut. */
  end: number;
  /** Start of what follows: `end`, or `end + 1` when a space was cut out. */
  next: number;
}

const WORD_LOOKBACK = 256;
const GRAPHEME_LOOKBACK = 32;

/**
 * Where to cut [start, end), which is longer than `max` code points, so the piece before has at most `max`:
 * at a space after punctuation in the second half, else at the last space, else at a word boundary,
 * else at a grapheme boundary, else at a code-point boundary (never inside a surrogate pair).
 */
function cutPoint(whole: string, start: number, end: number, max: number, segmenters: Segmenters): Cut {
  const limit = advance(whole, start, max, end);
  const half = start + Math.floor((limit - start) / 2);
  let lastSpace = -1;
  for (let i = limit; i > start; i--) {
    if (whole.charCodeAt(i) !== 0x20) continue;
    if (i > half && /[,;:—–)»”]/.test(whole.charAt(i - 1))) return { end: i, next: i + 1 };
    if (lastSpace < 0) lastSpace = i;
    if (i <= half) break;
  }
  if (lastSpace > start) return { end: lastSpace, next: lastSpace + 1 };
  const word = lastBoundary(whole, start, limit, end, WORD_LOOKBACK, segmenters.word);
  if (word !== null) return { end: word, next: word };
  const grapheme = lastBoundary(whole, start, limit, end, GRAPHEME_LOOKBACK, segmenters.grapheme);
  return grapheme !== null ? { end: grapheme, next: grapheme } : { end: limit, next: limit };
}

/** The last segment boundary b with start < b ≤ limit, looking back at most `lookback` units; null if none. */
function lastBoundary(
  whole: string,
  start: number,
  limit: number,
  end: number,
  lookback: number,
  segmenter: Intl.Segmenter,
): number | null {
  const from = Math.max(start, limit - lookback);
  const to = Math.min(end, limit + GRAPHEME_LOOKBACK);
  let found: number | null = null;
  for (const { index } of segmenter.segment(whole.slice(from, to))) {
    const boundary = from + index;
    if (boundary > limit) break;
    // `from` is a true boundary only when it is the piece's own start, which is no cut.
    if (boundary > from && !isLowSurrogate(whole.charCodeAt(boundary))) found = boundary;
  }
  return found;
}

function buildParts(whole: string, sentences: readonly Sentence[], ranges: readonly Range[], contextChars: number): Part[] {
  let first = 0;
  return ranges.map((range, index) => {
    while (first < sentences.length && sentences[first]!.end <= range.start) first++;
    const inPart: PartSentence[] = [];
    for (let k = first; k < sentences.length && sentences[k]!.start < range.end; k++) {
      const s = sentences[k]!;
      inPart.push({
        start: Math.max(s.start, range.start) - range.start,
        end: Math.min(s.end, range.end) - range.start,
        block: s.block,
      });
    }
    const text = whole.slice(range.start, range.end);
    return {
      index,
      text,
      previousText: contextBefore(whole, range.start, contextChars),
      nextText: contextAfter(whole, range.end, contextChars),
      chars: range.chars,
      sentences: inPart,
    };
  });
}
