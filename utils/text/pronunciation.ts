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
/**
 * The rules may make a text at most this many times as long (code units). A rule's replacement may be much
 * longer than what it finds ("ИИ" → "искусственный интеллект" is 11.5 times; a sign read as a phrase, "≤" →
 * "меньше или равно", 16), but rules that replace each other's words multiply: two rules of a letter into
 * 200 of them made 4,000,000 characters of 100, and a third threw a RangeError in the background. The
 * options page refuses a set that could grow a text more (`rulesGrowth`); `applyPronunciation` never does.
 */
export const MAX_RULES_GROWTH = 32;

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

/**
 * `text` with every rule applied, in order; never more than MAX_RULES_GROWTH times as long as `text`: a rule
 * that would make it longer is skipped whole (a stored set is not trusted to be one the options page let
 * through: past MAX_RULES rules, or MAX_RULE_CHARS characters, are not applied either). Its growth is counted
 * match by match, so an overgrown result is never built.
 */
export function applyPronunciation(text: string, rules: readonly PronunciationRule[]): string {
  const limit = MAX_RULES_GROWTH * text.length;
  let out = text;
  for (const rule of rules.slice(0, MAX_RULES)) {
    if (!rule.find || rule.find.length > MAX_RULE_CHARS || rule.replace.length > MAX_RULE_CHARS) continue;
    let length = out.length;
    let over = false;
    const next = out.replace(patternOf(rule), (found: string, at: number, whole: string) => {
      if (over) return found;
      const replace = startsSentence(whole, at) ? capital(found, rule.replace) : rule.replace;
      length += replace.length - found.length;
      over = length > limit;
      return over ? found : replace;
    });
    if (!over) out = next;
  }
  return out;
}

/** How many times as long a match of `rule` may become (never less than 1: a shorter replacement shrinks the text). */
function ruleGrowth(rule: PronunciationRule): number {
  // At a sentence's start the replacement's first letter is a capital, which may be longer ("ß" → "SS").
  const replaced = Math.max(rule.replace.length, capital('A', rule.replace).length);
  return Math.max(1, replaced / rule.find.length);
}

/** Simple case folding, as a case-insensitive match compares characters (a character folding to more is kept). */
const fold = (s: string) =>
  Array.from(s, (c) => {
    const upper = c.toUpperCase();
    const lower = (upper.length === c.length ? upper : c).toLowerCase();
    return lower.length === c.length ? lower : c;
  }).join('');

/**
 * Whether a match of `find` could take in a character `replace` put into the text: `find` holds all of it, it
 * holds `find`, or they overlap at an end (the match starting inside it, or reaching into it).
 */
function mayTakeIn(find: string, replace: string): boolean {
  if (!find || !replace) return false;
  if (find.includes(replace) || replace.includes(find)) return true;
  // A match starting inside `replace`: an end of it is how `find` starts.
  for (let at = replace.indexOf(find[0]!, 1); at > 0; at = replace.indexOf(find[0]!, at + 1)) if (find.startsWith(replace.slice(at))) return true;
  // A match reaching into `replace`: how it starts is an end of `find`.
  for (let at = find.indexOf(replace[0]!, 1); at > 0; at = find.indexOf(replace[0]!, at + 1)) if (replace.startsWith(find.slice(at))) return true;
  return false;
}

/**
 * An upper bound of how many times as long `rules` may make a text. Each rule makes what it matches at most
 * replace/find times as long. A character of the text is matched first by one rule, and after that only by
 * rules whose find can take in what an earlier rule put in: the bound is the largest of a rule's growth times
 * the growth of every later rule that can. Rules that cannot feed each other stay at the largest one's growth;
 * a chain multiplies. (A rule's words rewritten twice, in their middle, by later rules are not followed here:
 * `applyPronunciation` holds its own limit whatever the set.)
 */
export function rulesGrowth(rules: readonly PronunciationRule[]): number {
  const active = rules.filter((r) => r.find !== '');
  const put = new Set<string>();
  const feeds = active.map((rule) => {
    const find = fold(rule.find);
    const fed = [...put].some((replace) => mayTakeIn(find, replace));
    put.add(fold(rule.replace)).add(fold(capital('A', rule.replace)));
    return fed;
  });
  let worst = 1;
  let after = 1;
  for (let k = active.length - 1; k >= 0; k--) {
    const growth = ruleGrowth(active[k]!);
    worst = Math.max(worst, growth * after);
    if (feeds[k]) after *= growth;
  }
  return worst;
}

/** Whether a set of rules is refused for what it could make of a text (`rulesGrowth` past MAX_RULES_GROWTH). */
export const growsTooMuch = (rules: readonly PronunciationRule[]): boolean => rulesGrowth(rules) > MAX_RULES_GROWTH;

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
