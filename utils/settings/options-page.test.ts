import '../../tests/unit/indexeddb.setup';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DEFAULT_SETTINGS, settingsStorage } from '../storage/settings';
import { MAX_RULE_CHARS, type PronunciationRule } from '../text/pronunciation';
import { saveAndCheck } from './options-page';

const rule = (find: string, replace: string, wholeWord = true): PronunciationRule => ({ find, replace, wholeWord });
const input = (pronunciations: PronunciationRule[]) => ({ key: '', baseUrl: DEFAULT_SETTINGS.baseUrl, voice: '', format: 'mp3' as const, confirmThresholdRub: '10', pronunciations });

beforeEach(() => fakeBrowser.reset());

describe('saveAndCheck: the pronunciation rules', () => {
  it.each([
    // Past the rules' check, the next one answers (no access to the service's origin here).
    ['ordinary rules pass', [rule('ИИ', 'искусственный интеллект'), rule('nginx', 'энджинкс', false)], 'permission-denied'],
    ['the review’s two rules are refused for their growth', [rule('a', 'a'.repeat(MAX_RULE_CHARS), false), rule('a', 'a'.repeat(MAX_RULE_CHARS), false)], 'rules-growth'],
    ['one rule 33 times as long as what it finds', [rule('ab', 'x'.repeat(66))], 'rules-growth'],
    ['a list too long is not a list of rules', Array.from({ length: 501 }, () => rule('a', 'b')), 'bad-rules'],
  ])('%s', async (_name, rules, code) => {
    const hasPermission = vi.fn(async () => false);
    const result = await saveAndCheck(input(rules), { check: vi.fn(), hasPermission });
    expect(result).toMatchObject({ ok: false, code });
    // Nothing was saved.
    expect(await settingsStorage.getValue()).toEqual(DEFAULT_SETTINGS);
  });
});
