/**
 * The `data-testid`s the shared contract (../shared/CONTRACT.md) lists: every backquoted name in a table
 * column headed `data-testid`. A table row with no header of its own (a row after a blank line) is read
 * with the column of the table before it.
 */
export function contractTestIds(contract: string): string[] {
  const ids = new Set<string>();
  const lines = contract.split('\n');
  let column = -1;
  lines.forEach((line, i) => {
    if (!line.trim().startsWith('|')) return;
    const cells = line.trim().replace(/^\||\|$/g, '').split('|');
    const next = lines[i + 1]?.trim() ?? '';
    if (/^\|?\s*:?-{3,}/.test(next)) {
      column = cells.findIndex((c) => c.includes('data-testid'));
      return;
    }
    if (column < 0 || /^\s*:?-{3,}/.test(cells[0] ?? '')) return;
    for (const m of (cells[column] ?? '').matchAll(/`([a-z0-9-]+)`/g)) ids.add(m[1]!);
  });
  return [...ids];
}

/** The ids of `ids` that `doc` never names in backquotes. */
export function missingIds(ids: string[], doc: string): string[] {
  return ids.filter((id) => !doc.includes(`\`${id}\``));
}
