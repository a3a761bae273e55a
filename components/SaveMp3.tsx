import { useState } from 'preact/hooks';
import { concatBytes, indexedDbBackend, partKey } from '@/utils/audio/cache';
import { errorText, i18n } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import { loadPlan } from '@/utils/reading/plan-store';
import type { SaveEstimate } from '@/utils/messaging/views';
import { saveFile } from '@/utils/pages/save-file';
import { Money } from './Money';

/**
 * Builds the reading's MP3 from the cache (read only: the background keeps the cache's order). Every part but
 * those the service refused (`skipped`) must be there: a file with a part missing is never made ('save-incomplete').
 */
async function buildFile(skipped: readonly number[]): Promise<{ blob: Blob; name: string } | 'save-incomplete' | null> {
  const plan = await loadPlan();
  if (!plan) return null;
  const backend = indexedDbBackend();
  const chunks: Uint8Array[] = [];
  for (const [k, part] of plan.parts.entries()) {
    const bytes = await backend.get(partKey({ text: part.text, voice: plan.voice, format: plan.format }));
    if (bytes instanceof Uint8Array) chunks.push(bytes);
    else if (!skipped.includes(k)) return 'save-incomplete';
  }
  if (chunks.length === 0) return null;
  const title = (document.querySelector('[data-testid="player"] .title')?.textContent ?? '').trim() || 'reading';
  const printable = [...title].filter((c) => c >= ' ').join('');
  const name = `${printable.replace(/[\\/:*?"<>|]+/g, ' ').trim().slice(0, 80)}.mp3`;
  return { blob: new Blob([concatBytes(chunks) as BlobPart], { type: 'audio/mpeg' }), name };
}

/**
 * "Save as MP3": the audio of the current reading. Parts not fetched yet are
 * fetched only after their cost is shown and confirmed.
 */
export function SaveMp3({ locale, enabled }: { locale: string; enabled: boolean }) {
  const [estimate, setEstimate] = useState<SaveEstimate | null>(null);
  const [busy, setBusy] = useState(false);
  /** The code of the last refusal or failure ('' when none): shown in words, kept in `data-code`. */
  const [error, setError] = useState('');

  async function save() {
    setError('');
    setBusy(true);
    try {
      // Asked again: the parts refused while they were being bought are known only now.
      const { skipped } = await sendMessage('saveEstimate');
      const file = await buildFile(skipped);
      if (file === 'save-incomplete') setError(file);
      else if (file) saveFile(file.blob, file.name);
      else setError('save-nothing');
    } finally {
      setBusy(false);
      setEstimate(null);
    }
  }

  async function start() {
    setError('');
    setEstimate(null);
    const e = await sendMessage('saveEstimate');
    // Still counted (a PDF), or waiting for its own answer: its cost is not known yet.
    if (e.refusal) setError(e.refusal);
    else if (e.missing > 0) setEstimate(e);
    // Parts paid for and still arriving are waited for (nothing is bought); then the file is made.
    else if (e.arriving > 0) await fetchThenSave(e);
    else await save();
  }

  /** Buys what `shown` counted missing, for that reading and at most that cost: the background refuses anything else. */
  async function fetchThenSave(shown: SaveEstimate) {
    setBusy(true);
    const result = await sendMessage('fetchForSave', { readingId: shown.readingId, upTo: shown.upTo, maxRub: shown.missingRub });
    setBusy(false);
    if (!result.ok) {
      setEstimate(null);
      setError(result.code);
      return;
    }
    await save();
  }

  return (
    <div class="save" data-testid="save-box" data-missing={estimate ? String(estimate.missing) : ''} data-value={estimate?.missingRub ?? ''}>
      <button type="button" data-testid="save-mp3" disabled={!enabled || busy} onClick={() => void start()}>
        {i18n.t('saveMp3')}
      </button>
      {estimate && (
        <p class="save-confirm">
          {i18n.t('saveMissing')} {estimate.missing} / {estimate.parts} · ≈ <Money value={estimate.missingRub} locale={locale} />{' '}
          <button type="button" data-testid="confirm-save" disabled={busy} onClick={() => void fetchThenSave(estimate)}>
            {i18n.t('saveConfirm')}
          </button>
          <button type="button" onClick={() => setEstimate(null)}>
            {i18n.t('cancel')}
          </button>
        </p>
      )}
      <p class="error" role="alert" data-testid="save-error" data-code={error} hidden={!error}>
        {error === 'save-nothing' ? i18n.t('saveNothing') : error && errorText(error)}
      </p>
    </div>
  );
}
