import { useState } from 'preact/hooks';
import { concatBytes, indexedDbBackend, partKey } from '@/utils/audio/cache';
import { errorText, i18n } from '@/utils/pages/i18n';
import { sendMessage } from '@/utils/messaging/protocol';
import { loadPlan } from '@/utils/reading/plan-store';
import type { SaveEstimate } from '@/utils/messaging/views';
import { saveFile } from '@/utils/pages/save-file';
import { Money } from './Money';

/**
 * Builds the reading's MP3 (or its parts `from` to `upTo`: a book's chapter) from the cache (read only: the
 * background keeps the cache's order). Every part but those the service refused (`skipped`) must be there: a
 * file with a part missing is never made ('save-incomplete').
 */
async function buildFile(skipped: readonly number[], range: { from: number; upTo: number } | null): Promise<{ blob: Blob; name: string } | 'save-incomplete' | null> {
  const plan = await loadPlan();
  if (!plan) return null;
  const backend = indexedDbBackend();
  const chunks: Uint8Array[] = [];
  const parts = range ? plan.parts.slice(range.from, range.upTo) : plan.parts;
  const first = range?.from ?? 0;
  for (const [i, part] of parts.entries()) {
    const bytes = await backend.get(partKey({ text: part.text, voice: plan.voice, format: plan.format }));
    if (bytes instanceof Uint8Array) chunks.push(bytes);
    else if (!skipped.includes(first + i)) return 'save-incomplete';
  }
  if (chunks.length === 0) return null;
  const title = (document.querySelector('[data-testid="player"] .title')?.textContent ?? '').trim() || 'reading';
  // A chapter's file is named after the book and the chapter's first sentence (its heading).
  const opening = range && parts[0] ? parts[0].text.slice(parts[0].sentences[0]?.start ?? 0, parts[0].sentences[0]?.end ?? 60).replace(/[.!?…]+$/u, '').trim() : '';
  const printable = [...(opening ? `${title} — ${opening.slice(0, 60)}` : title)].filter((c) => c >= ' ').join('');
  const name = `${printable.replace(/[\\/:*?"<>|]+/g, ' ').trim().slice(0, 120)}.mp3`;
  return { blob: new Blob([concatBytes(chunks) as BlobPart], { type: 'audio/mpeg' }), name };
}

/**
 * "Save as MP3": the audio of the current reading. Parts not fetched yet are
 * fetched only after their cost is shown and confirmed.
 */
export function SaveMp3({ locale, enabled, chapters = false }: { locale: string; enabled: boolean; chapters?: boolean }) {
  /** The cost shown, and whether it is of the chapter being read (a book's) rather than the whole reading. */
  const [estimate, setEstimate] = useState<{ shown: SaveEstimate; chapter: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  /** The code of the last refusal or failure ('' when none): shown in words, kept in `data-code`. */
  const [error, setError] = useState('');

  async function save(shown: SaveEstimate, chapter: boolean) {
    setError('');
    setBusy(true);
    try {
      // Asked again: the parts refused while they were being bought are known only now.
      const { skipped } = await sendMessage('saveEstimate', { chapter });
      const file = await buildFile(skipped, chapter ? { from: shown.from, upTo: shown.upTo } : null);
      if (file === 'save-incomplete') setError(file);
      else if (file) saveFile(file.blob, file.name);
      else setError('save-nothing');
    } finally {
      setBusy(false);
      setEstimate(null);
    }
  }

  async function start(chapter: boolean) {
    setError('');
    setEstimate(null);
    const e = await sendMessage('saveEstimate', { chapter });
    // Still counted (a PDF, a chapter whose end is not counted yet), or waiting for its own answer: its cost is not known yet.
    if (e.refusal) setError(e.refusal);
    else if (e.missing > 0) setEstimate({ shown: e, chapter });
    // Parts paid for and still arriving are waited for (nothing is bought); then the file is made.
    else if (e.arriving > 0) await fetchThenSave(e, chapter);
    else await save(e, chapter);
  }

  /** Buys what `shown` counted missing, for that reading and at most that cost: the background refuses anything else. */
  async function fetchThenSave(shown: SaveEstimate, chapter: boolean) {
    setBusy(true);
    const result = await sendMessage('fetchForSave', { readingId: shown.readingId, upTo: shown.upTo, maxRub: shown.missingRub, ...(chapter ? { from: shown.from } : {}) });
    setBusy(false);
    if (!result.ok) {
      setEstimate(null);
      setError(result.code);
      return;
    }
    await save(shown, chapter);
  }

  return (
    <div class="save" data-testid="save-box" data-missing={estimate ? String(estimate.shown.missing) : ''} data-value={estimate?.shown.missingRub ?? ''}>
      <button type="button" data-testid="save-mp3" disabled={!enabled || busy} onClick={() => void start(false)}>
        {i18n.t('saveMp3')}
      </button>
      {chapters && (
        <button type="button" data-testid="save-chapter" disabled={!enabled || busy} onClick={() => void start(true)}>
          {i18n.t('saveChapterMp3')}
        </button>
      )}
      {estimate && (
        <p class="save-confirm">
          {i18n.t('saveMissing')} {estimate.shown.missing} / {estimate.chapter ? estimate.shown.upTo - estimate.shown.from : estimate.shown.parts} · ≈ <Money value={estimate.shown.missingRub} locale={locale} />{' '}
          <button type="button" data-testid="confirm-save" disabled={busy} onClick={() => void fetchThenSave(estimate.shown, estimate.chapter)}>
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
