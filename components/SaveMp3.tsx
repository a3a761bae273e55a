import { useState } from 'preact/hooks';
import { concatBytes, indexedDbBackend, partKey } from '@/utils/audio/cache';
import type { Strings } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import type { SaveEstimate } from '@/utils/reading/session';
import { readingPlanStorage } from '@/utils/reading/state';
import { saveFile } from '@/utils/pages/save-file';
import { Money } from './Money';

/** Builds the reading's MP3 from the cache (read only: the background keeps the cache's order). */
async function buildFile(): Promise<{ blob: Blob; name: string } | null> {
  const plan = await readingPlanStorage.getValue();
  if (!plan) return null;
  const backend = indexedDbBackend();
  const chunks: Uint8Array[] = [];
  for (const part of plan.parts) {
    const bytes = await backend.get(partKey({ text: part.text, voice: plan.voice, format: plan.format }));
    if (bytes instanceof Uint8Array) chunks.push(bytes);
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
export function SaveMp3({ t, locale, enabled }: { t: Strings; locale: string; enabled: boolean }) {
  const [estimate, setEstimate] = useState<SaveEstimate | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function save() {
    setError('');
    setBusy(true);
    try {
      const file = await buildFile();
      if (file) saveFile(file.blob, file.name);
      else setError(t.saveNothing);
    } finally {
      setBusy(false);
      setEstimate(null);
    }
  }

  async function start() {
    setError('');
    const e = await sendMessage('saveEstimate');
    if (e.missing === 0) await save();
    else setEstimate(e);
  }

  async function confirm() {
    setBusy(true);
    const result = await sendMessage('fetchForSave');
    setBusy(false);
    if (!result.ok) {
      setEstimate(null);
      setError(result.message);
      return;
    }
    await save();
  }

  return (
    <div class="save" data-testid="save-box" data-missing={estimate ? String(estimate.missing) : ''} data-value={estimate?.missingRub ?? ''}>
      <button type="button" data-testid="save-mp3" disabled={!enabled || busy} onClick={() => void start()}>
        {t.saveMp3}
      </button>
      {estimate && (
        <p class="save-confirm">
          {t.saveMissing} {estimate.missing} / {estimate.parts} · <Money value={estimate.missingRub} locale={locale} />{' '}
          <button type="button" data-testid="confirm-save" disabled={busy} onClick={() => void confirm()}>
            {t.saveConfirm}
          </button>
          <button type="button" onClick={() => setEstimate(null)}>
            {t.cancel}
          </button>
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
