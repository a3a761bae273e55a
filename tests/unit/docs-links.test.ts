import { describe, expect, it } from 'vitest';
import { anchorsOf, type Files, relativeLinksOf, resolveLink, slugOf } from '../docs/markdown';
import { contractTestIds, missingIds } from '../docs/contract';

describe('slugOf: a heading’s anchor as GitHub makes it', () => {
  it.each([
    ['The two commands', 'the-two-commands'],
    ['Faults and what the user sees', 'faults-and-what-the-user-sees'],
    ['Books: `book.html`', 'books-bookhtml'],
    ['Options page: `options.html`', 'options-page-optionshtml'],
    ['What is read — and what is left out', 'what-is-read--and-what-is-left-out'],
    ['A [linked](x.md) **bold** heading', 'a-linked-bold-heading'],
    ['Деньги и лимиты', 'деньги-и-лимиты'],
    ['`data-testid`s by page', 'data-testids-by-page'],
    ['snake_case stays', 'snake_case-stays'],
  ])('%s → %s', (heading, slug) => expect(slugOf(heading)).toBe(slug));
});

describe('anchorsOf: the headings of a file, repeated ones numbered, none from code', () => {
  it('numbers a repeat, skips fenced code, takes hand-written anchors', () => {
    const md = ['# Title', '## Usage', '```sh', '# not a heading', '```', '## Usage', '<a id="kept-here"></a>'].join('\n');
    expect([...anchorsOf(md)]).toEqual(['title', 'usage', 'usage-1', 'kept-here']);
  });
});

describe('relativeLinksOf: links into the repository, not addresses, not code', () => {
  it.each<[string, string[]]>([
    ['[a](docs/a.md) and [b](https://example.com) and [c](mailto:x@y.z)', ['docs/a.md']],
    ['![shot](docs/screenshots/x.png "light")', ['docs/screenshots/x.png']],
    ['`[not](a-link.md)` but [yes](#here)', ['#here']],
    ['[ref]: ../CHANGELOG.md', ['../CHANGELOG.md']],
    ['[folder](tests/fake-service/)', ['tests/fake-service/']],
    ['[`bench/HISTORY.md`](bench/HISTORY.md)', ['bench/HISTORY.md']],
  ])('%s', (md, targets) => expect(relativeLinksOf(md).map((l) => l.target)).toEqual(targets));

  it('skips fenced code and keeps line numbers', () => {
    expect(relativeLinksOf('```\n[x](nowhere.md)\n```\n[y](README.md)')).toEqual([{ target: 'README.md', line: 4 }]);
  });
});

/** A made-up repository: README.md, docs/ with two files, a folder with no file named. */
const FILES: Record<string, string> = {
  'README.md': '# Reader\n## Install\n## Install\n',
  'docs/testing.md': '# Testing\n## The test surface\n',
  'docs/money.md': '# Money\n',
  'bench/HISTORY.md': '# History\n',
  'docs/screenshots/a.png': '',
};
const files: Files = {
  kind: (path) => (path in FILES ? 'file' : Object.keys(FILES).some((f) => f.startsWith(`${path}/`)) ? 'dir' : null),
  read: (path) => FILES[path] ?? '',
};

describe('resolveLink: where a link leads, from the file it is written in', () => {
  it.each<[string, string, string, string | null]>([
    ['a file beside it', 'docs/money.md', 'testing.md', null],
    ['up a folder', 'docs/money.md', '../bench/HISTORY.md', null],
    ['from the root', 'README.md', 'docs/screenshots/a.png', null],
    ['a folder', 'README.md', 'docs/screenshots/', null],
    ['a heading there', 'README.md', 'docs/testing.md#the-test-surface', null],
    ['a heading here', 'README.md', '#install', null],
    ['a repeated heading', 'README.md', '#install-1', null],
    ['an escaped space', 'docs/money.md', 'testing.md%23', 'testing.md%23: no such file or folder (docs/testing.md#)'],
    ['no such file', 'README.md', 'docs/nothing.md', 'docs/nothing.md: no such file or folder (docs/nothing.md)'],
    ['a file from the wrong folder', 'docs/money.md', 'docs/testing.md', 'docs/testing.md: no such file or folder (docs/docs/testing.md)'],
    ['no such heading', 'docs/money.md', 'testing.md#the-surface', 'testing.md#the-surface: no heading "#the-surface" in docs/testing.md'],
    ['no such heading here', 'README.md', '#usage', '#usage: no heading "#usage" in README.md'],
    ['a heading on a picture', 'README.md', 'docs/screenshots/a.png#x', 'docs/screenshots/a.png#x: an anchor on something that is not a Markdown file'],
    ['out of the repository', 'README.md', '../shared/CONTRACT.md', '../shared/CONTRACT.md: outside the repository (GitHub cannot follow it)'],
    ['out of it from docs/', 'docs/testing.md', '../../shared/CONTRACT.md', '../../shared/CONTRACT.md: outside the repository (GitHub cannot follow it)'],
  ])('%s: %s → %s', (_name, from, target, why) => expect(resolveLink(from, target, files)).toBe(why));
});

describe('contractTestIds: the ids in the contract’s data-testid columns', () => {
  const contract = [
    '| element | `data-testid` | notes |',
    '|---|---|---|',
    '| key | `api-key` | a `password` field |',
    '',
    '| caps | `daily-cap`, `monthly-cap` | rubles |',
    '',
    '| element | attributes |',
    '|---|---|',
    '| player | `data-state` |',
    '- Context menu item id `read-selection`.',
  ].join('\n');
  it('reads the column, a row after a blank line too, and nothing else', () => {
    expect(contractTestIds(contract)).toEqual(['api-key', 'daily-cap', 'monthly-cap']);
  });
  it('says which ids a doc does not name', () => {
    expect(missingIds(['api-key', 'daily-cap'], 'The key field, `api-key`; daily-cap unquoted')).toEqual(['daily-cap']);
  });
});
