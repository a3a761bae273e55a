/**
 * A product's spec sheet inside an article (issue 61): a list of "Label: value" rows — "Processor: AMD Ryzen 5",
 * "Battery life: 7.5+ hours" — or any list under a line that names it ("Specification:", "Suptronics X1013
 * specifications:", «Характеристики:»). Read aloud it is a minute of numbers a listener did not come for; it is
 * left out, and counted so. A list of prose items, or of labels with sentences after them, is the article. Pure.
 */

/** A line that names the list after it a spec sheet. */
const SPEC_INTRO = /^(?:[\p{L}\p{N}][\p{L}\p{N} .+&/-]{0,60}\s)?(?:(?:key|full|tech|technical|main)\s)?(?:specs?|specifications?|spec sheet|tech specs|характеристики|технические характеристики)\s*:?$/iu;

/** A row "Label: value" or "Label – value": a label of at most four words, a value of few words. */
const ROW = /^([\p{L}][\p{L}\p{N}\s/&().'-]{0,40}?)\s*(?::|\s[–—-]\s)\s*(\S.*)$/u;

/** Rows longer than this are prose, whatever their shape. */
const MAX_ROW_CHARS = 90;

export function isSpecIntro(text: string): boolean {
  return text.length <= 80 && SPEC_INTRO.test(text.trim());
}

/** A row of a spec sheet: short, "Label: value", the label of at most four words, the value not a sentence. */
function isRow(item: string): boolean {
  const text = item.trim();
  if (text.length > MAX_ROW_CHARS) return false;
  const row = ROW.exec(text);
  if (!row) return false;
  const label = row[1]!.trim();
  const value = row[2]!.trim();
  return label.split(/\s+/).length <= 4 && !/[.!?]\s+\p{Lu}/u.test(value);
}

/**
 * The items of a list are a spec sheet by their own shape: four or more, at least three in four of them rows, and
 * at least half of those with a number (sizes, speeds, capacities).
 */
export function isSpecList(items: readonly string[]): boolean {
  const filled = items.map((i) => i.trim()).filter(Boolean);
  if (filled.length < 4) return false;
  const rows = filled.filter(isRow);
  if (rows.length * 4 < filled.length * 3) return false;
  return rows.filter((r) => /\d/.test(r)).length * 2 >= rows.length;
}
