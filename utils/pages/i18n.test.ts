import { fileURLToPath } from 'node:url';
import { generateChromeMessages, parseMessagesFile, type ParsedMessage } from '@wxt-dev/i18n/build';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { KNOWN_ERROR_CODES } from '../speech/errors';
import { errorKey, errorText, i18n, uiLocale } from './i18n';

const LANGS = ['en', 'ru'] as const;
type Lang = (typeof LANGS)[number];
const file = (lang: Lang) => fileURLToPath(new URL(`../../locales/${lang}.yml`, import.meta.url));

const parsed = {} as Record<Lang, ParsedMessage[]>;
/** Message key ("error.no_key") → text, per language. */
const texts = {} as Record<Lang, Map<string, string>>;
/** What the build writes to `_locales/<lang>/messages.json`. */
const chrome = {} as Record<Lang, Record<string, { message: string }>>;

beforeAll(async () => {
  for (const lang of LANGS) {
    // The predefined `@@…` messages the parser adds are the browser's, not ours.
    parsed[lang] = (await parseMessagesFile(file(lang))).filter((m) => !m.key[0]?.startsWith('@@'));
    texts[lang] = new Map(parsed[lang].map((m) => [m.key.join('.'), m.type === 'simple' ? m.message : '']));
    chrome[lang] = generateChromeMessages(parsed[lang]);
  }
});

/** `browser.i18n` as a browser whose interface language is `uiLanguage` would answer (no placeholders used here). */
function browserIn(uiLanguage: string) {
  const lang: Lang = uiLanguage.toLowerCase().startsWith('ru') ? 'ru' : 'en';
  const byName = new Map(Object.entries(chrome[lang]).map(([name, m]) => [name.toLowerCase(), m.message]));
  vi.spyOn(fakeBrowser.i18n, 'getUILanguage').mockReturnValue(uiLanguage);
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation((name: string) => byName.get(name.toLowerCase()) ?? '');
  return lang;
}

describe('locales/*.yml', () => {
  it('has the same keys in English and Russian, every one a simple sentence', () => {
    expect([...texts.ru.keys()].sort()).toEqual([...texts.en.keys()].sort());
    for (const lang of LANGS) {
      for (const m of parsed[lang]) {
        expect(m.type, m.key.join('.')).toBe('simple');
        expect(texts[lang].get(m.key.join('.'))!.trim(), m.key.join('.')).not.toBe('');
      }
    }
  });

  it('uses the same named substitutions in both languages', () => {
    const subs = (lang: Lang) => Object.fromEntries(parsed[lang].map((m) => [m.key.join('.'), [...m.namedSubstitutions].sort()]));
    expect(subs('ru')).toEqual(subs('en'));
  });

  it('keeps the names the manifest and the background ask for', () => {
    const names = ['extName', 'extDescription', 'actionTitle', 'menuReadSelection', 'menuReadFromHere'];
    for (const name of [...names, 'cmdRead', 'cmdToggle', 'cmdStop', 'cmdNext', 'cmdPrevious']) {
      for (const lang of LANGS) expect(chrome[lang][name]?.message, `${lang} ${name}`).toBeTruthy();
    }
    expect(chrome.ru.menuReadSelection?.message).toBe('Прочитать выделенное вслух');
    expect(chrome.ru.extName?.message).toBe('trySasha — чтение вслух');
  });

  it('gives chrome message names that are valid and distinct ignoring case', () => {
    for (const lang of LANGS) {
      const names = Object.keys(chrome[lang]);
      expect(names.length).toBe(parsed[lang].length);
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_]+$/);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    }
  });

  it.each([...KNOWN_ERROR_CODES])('has a sentence of its own for %s in both languages', (code) => {
    const ru = texts.ru.get(errorKey(code));
    const en = texts.en.get(errorKey(code));
    expect(ru).toMatch(/[А-Яа-яЁё]/);
    expect(ru).toMatch(/[.!]$/);
    expect(en).toMatch(/^[A-Z][^А-Яа-яЁё]*[.!]$/);
  });

  it('has an error entry for known codes only, and a different sentence for each', () => {
    for (const lang of LANGS) {
      const errorKeys = [...texts[lang].keys()].filter((k) => k.startsWith('error.'));
      expect(errorKeys.sort()).toEqual(KNOWN_ERROR_CODES.map(errorKey).sort());
      const sentences = [...KNOWN_ERROR_CODES.map((c) => texts[lang].get(errorKey(c))), texts[lang].get('errorFallback')];
      expect(new Set(sentences).size).toBe(sentences.length);
    }
  });

  it('never holds anything that looks like a key or a credential', () => {
    for (const lang of LANGS) for (const [key, text] of texts[lang]) expect(text, key).not.toMatch(/vk_live_|Bearer/);
  });
});

describe('errorKey', () => {
  it.each([
    ['insufficient_balance', 'error.insufficient_balance'],
    ['no-key', 'error.no_key'],
    ['restricted-page', 'error.restricted_page'],
    ['permission-denied', 'error.permission_denied'],
    ['bad-threshold', 'error.bad_threshold'],
    ['http-404', 'error.http_404'],
  ])('%s → %s', (code, key) => {
    expect(errorKey(code)).toBe(key);
  });
});

describe.each([
  ['ru', 'ru'],
  ['ru-RU', 'ru'],
  ['en-US', 'en'],
  ['en-GB', 'en'],
  ['de', 'en'],
] as const)('in a browser whose interface is %s', (uiLanguage, lang) => {
  beforeAll(() => {
    browserIn(uiLanguage);
  });

  it('formats money and numbers in the same language as the words', () => {
    expect(uiLocale()).toBe(lang === 'ru' ? 'ru-RU' : 'en-US');
  });

  it('reads the pages’ words through i18n.t', () => {
    expect(i18n.t('save')).toBe(texts[lang].get('save'));
    expect(i18n.t('state.finished')).toBe(lang === 'ru' ? 'Дочитано' : 'Finished');
    expect(i18n.t('partOf', { part: 2, parts: 5 })).toBe(lang === 'ru' ? 'Часть 2 из 5' : 'Part 2 of 5');
  });

  it.each([...KNOWN_ERROR_CODES])('says %s in its own words, whatever the detail', (code) => {
    const own = texts[lang].get(errorKey(code));
    expect(errorText(code)).toBe(own);
    expect(errorText(code, 'The service said something else')).toBe(own);
  });

  it.each(['no-such-code', 'http-404', 'toString', '__proto__', ''])('falls back for the unknown code %j', (code) => {
    const fallback = texts[lang].get('errorFallback');
    expect(errorText(code)).toBe(fallback);
    expect(errorText(code, '   ')).toBe(fallback);
    expect(errorText(code, ' Voice "x" is not available ')).toBe('Voice "x" is not available');
    expect(errorText(code, 'bad key vk_live_abc')).toBe(fallback);
    expect(errorText(code, 'Authorization: Bearer abc')).toBe(fallback);
  });
});
