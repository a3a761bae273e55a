import { saveFile } from '@/utils/pages/save-file';
import { i18n } from '@/utils/pages/i18n';
import { MAX_RULE_CHARS, MAX_RULES, parseRulesJson, rulesJson, type PronunciationRule } from '@/utils/text/pronunciation';

/** The options page's editor of pronunciation rules: rows of find → replace, whole word; export and import as JSON. */
export function PronunciationRules({
  rules,
  onChange,
  onBadFile,
}: {
  rules: PronunciationRule[];
  onChange(rules: PronunciationRule[]): void;
  onBadFile(): void;
}) {
  const change = (k: number, patch: Partial<PronunciationRule>) => onChange(rules.map((r, i) => (i === k ? { ...r, ...patch } : r)));

  const field = (k: number, name: 'find' | 'replace', label: string) => (
    <input
      data-testid={`pron-${name}`}
      aria-label={label}
      placeholder={label}
      maxLength={MAX_RULE_CHARS}
      value={rules[k]![name]}
      onInput={(e) => change(k, { [name]: e.currentTarget.value })}
    />
  );

  async function importFile(e: Event) {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const parsed = file.size < 1_000_000 ? parseRulesJson(await file.text()) : null;
    if (parsed) onChange(parsed);
    else onBadFile();
  }

  return (
    <fieldset class="rules" data-testid="pron-rules" data-count={String(rules.length)}>
      <legend>{i18n.t('pronunciation')}</legend>
      <p class="hint">{i18n.t('pronunciationHint')}</p>
      {rules.map((r, k) => (
        <div class="rule" data-testid="pron-rule" key={k}>
          {field(k, 'find', i18n.t('pronFind'))}
          <span aria-hidden="true">→</span>
          {field(k, 'replace', i18n.t('pronReplace'))}
          <label class="check">
            <input type="checkbox" data-testid="pron-whole" checked={r.wholeWord} onChange={(e) => change(k, { wholeWord: e.currentTarget.checked })} />{' '}
            {i18n.t('pronWhole')}
          </label>
          <button type="button" data-testid="pron-remove" aria-label={i18n.t('pronRemove')} onClick={() => onChange(rules.filter((_, i) => i !== k))}>
            ×
          </button>
        </div>
      ))}
      <div class="actions">
        <button type="button" data-testid="pron-add" disabled={rules.length >= MAX_RULES} onClick={() => onChange([...rules, { find: '', replace: '', wholeWord: true }])}>
          {i18n.t('pronAdd')}
        </button>
        <button
          type="button"
          data-testid="pron-export"
          disabled={rules.length === 0}
          onClick={() => saveFile(new Blob([rulesJson(rules)], { type: 'application/json' }), 'trysasha-pronunciation.json')}
        >
          {i18n.t('pronExport')}
        </button>
        <label class="file">
          {i18n.t('pronImport')}
          <input type="file" accept="application/json,.json" data-testid="pron-import" onChange={(e) => void importFile(e)} />
        </label>
      </div>
    </fieldset>
  );
}
