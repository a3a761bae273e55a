/** A page title is kept (read, shown and stored) to this many characters: a page may set one of any length. */
export const TITLE_MAX = 300;

/** `title` cut to `max` characters, with an ellipsis (never half a surrogate pair). */
export function boundTitle(title: string, max = TITLE_MAX): string {
  if (title.length <= max) return title;
  return `${title.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}
