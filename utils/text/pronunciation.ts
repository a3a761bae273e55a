/**
 * Pronunciation rules: find → replace, applied to the text before it is split and sent, so the service
 * says a word the way the listener wants ("ИИ" → "искусственный интеллект", "nginx" → "энджинкс").
 * Matching ignores case (at a sentence's start the capital is kept); a whole-word rule matches only where no letter or digit touches the found text.
 * Rules apply one after another, in their order.
 */
export interface PronunciationRule {
  find: string;
  replace: string;
  wholeWord: boolean;
}

export const MAX_RULES = 500;
export const MAX_RULE_CHARS = 200;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patternOf(rule: PronunciationRule): RegExp {
  const find = escape(rule.find);
  return new RegExp(rule.wholeWord ? `(?<![\\p{L}\\p{N}_])${find}(?![\\p{L}\\p{N}_])` : find, 'giu');
}

/** Where `at` begins a sentence: the text's start, or after a sentence's end and a space. */
const startsSentence = (text: string, at: number) => /(^|[.!?…]["»”)]?\s+|\n\s*)$/.test(text.slice(Math.max(0, at - 4), at)) || at === 0;

/** At a sentence's start a replacement keeps the found text's capital (so the sentence still reads as one). */
function capital(found: string, replace: string): string {
  const first = found.charAt(0);
  if (first === first.toLowerCase() || first !== first.toUpperCase()) return replace;
  return replace.charAt(0).toUpperCase() + replace.slice(1);
}

/** `text` with every rule applied, in order. */
export function applyPronunciation(text: string, rules: readonly PronunciationRule[]): string {
  let out = text;
  for (const rule of rules) {
    if (!rule.find) continue;
    out = out.replace(patternOf(rule), (found: string, at: number, whole: string) => (startsSentence(whole, at) ? capital(found, rule.replace) : rule.replace));
  }
  return out;
}

/** The rules worth keeping: trimmed, bounded, none with nothing to find; null when `value` is not a list of rules. */
export function cleanRules(value: unknown): PronunciationRule[] | null {
  if (!Array.isArray(value) || value.length > MAX_RULES) return null;
  const rules: PronunciationRule[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') return null;
    const { find, replace, wholeWord } = item as Record<string, unknown>;
    if (typeof find !== 'string' || typeof replace !== 'string') return null;
    if (find.length > MAX_RULE_CHARS || replace.length > MAX_RULE_CHARS) return null;
    if (find.trim() === '') continue;
    rules.push({ find: find.trim(), replace: replace.trim(), wholeWord: wholeWord !== false });
  }
  return rules;
}

/** The rules as the JSON file the options page exports (and imports). */
export function rulesJson(rules: readonly PronunciationRule[]): string {
  return `${JSON.stringify({ trysashaPronunciation: 1, rules }, null, 2)}\n`;
}

/** Rules from an exported file (or a bare list of rules); null when the file is not one. */
export function parseRulesJson(text: string): PronunciationRule[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(data) ? data : (data as { rules?: unknown } | null)?.rules;
  return cleanRules(list);
}
