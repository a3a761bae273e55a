/**
 * The reading text's neighbouring context sent with each part (`previousText` / `nextText`), and the
 * code-point steps it and the cuts between parts are measured with. Pure string helpers, apart from the
 * splitting itself (parts.ts).
 */
import { isHighSurrogate, isLowSurrogate } from './chars';

/** Up to `n` code points before `at`, starting at a word start. */
export function contextBefore(whole: string, at: number, n: number): string {
  let end = at;
  while (end > 0 && isSeparator(whole.charCodeAt(end - 1))) end--;
  if (end === 0 || n === 0) return '';
  let start = retreat(whole, end, n);
  if (start > 0 && !isSeparator(whole.charCodeAt(start - 1))) {
    while (start < end && !isSeparator(whole.charCodeAt(start))) start++;
    while (start < end && isSeparator(whole.charCodeAt(start))) start++;
  }
  return whole.slice(start, end);
}

/** Up to `n` code points after `at`, ending at a word end. */
export function contextAfter(whole: string, at: number, n: number): string {
  let start = at;
  while (start < whole.length && isSeparator(whole.charCodeAt(start))) start++;
  if (start === whole.length || n === 0) return '';
  let end = advance(whole, start, n, whole.length);
  if (end < whole.length && !isSeparator(whole.charCodeAt(end))) {
    while (end > start && !isSeparator(whole.charCodeAt(end - 1))) end--;
    while (end > start && isSeparator(whole.charCodeAt(end - 1))) end--;
  }
  return whole.slice(start, end);
}

/** In the reading text, whitespace is only ever " " or "\n". */
function isSeparator(code: number): boolean {
  return code === 0x20 || code === 0x0a;
}

/** Code-unit index `n` code points after `from`, at most `end`. */
export function advance(s: string, from: number, n: number, end: number): number {
  let i = from;
  for (let k = 0; k < n && i < end; k++) {
    i += isHighSurrogate(s.charCodeAt(i)) && isLowSurrogate(s.charCodeAt(i + 1)) && i + 1 < end ? 2 : 1;
  }
  return i;
}

/** Code-unit index `n` code points before `from`, at least 0. */
function retreat(s: string, from: number, n: number): number {
  let i = from;
  for (let k = 0; k < n && i > 0; k++) {
    i -= i >= 2 && isLowSurrogate(s.charCodeAt(i - 1)) && isHighSurrogate(s.charCodeAt(i - 2)) ? 2 : 1;
  }
  return i;
}
