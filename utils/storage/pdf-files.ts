/**
 * PDF files handed from the background to the PDF page (IndexedDB of the extension's origin, which
 * both share). The background fetches the file while the click's permission for the tab lasts; the
 * page, opened in that tab, takes it from here. Only the last few files are kept, each with the hash
 * of its address (an address may be megabytes long: `bounds.ts`).
 */
import { clear, createStore, del, get, keys, set } from 'idb-keyval';
import { sha256Of } from './bounds';

const store = () => createStore('trysasha-pdf', 'files');
const KEEP = 3;

interface StoredPdf {
  at: number;
  /** The SHA-256 of the file's address (`sha256Of`): it decides which file a page is handed. */
  urlHash: string;
  bytes: ArrayBuffer;
}

/** What an earlier version kept: the address whole. */
type OlderPdf = Omit<StoredPdf, 'urlHash'> & { url: string };

/** Keeps `bytes` of the PDF at `url`; returns the id the PDF page asks for it by. */
export async function putPdf(url: string, bytes: ArrayBuffer, now = Date.now()): Promise<string> {
  const s = store();
  const id = `${now.toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  await set(id, { at: now, urlHash: await sha256Of(url), bytes } satisfies StoredPdf, s);
  // Ids start with the time: the oldest sort first.
  const all = (await keys<string>(s)).sort();
  await Promise.all(all.slice(0, Math.max(0, all.length - KEEP)).map((k) => del(k, s)));
  return id;
}

/** Every PDF kept (the key was removed: nothing of what was read stays behind). */
export async function clearPdfs(): Promise<void> {
  await clear(store());
}

/** The bytes kept under `id` for `url` (null when gone, or kept for another file). */
export async function takePdf(id: string, url: string): Promise<ArrayBuffer | null> {
  const found = await get<Partial<StoredPdf & OlderPdf>>(id, store());
  if (!found?.bytes) return null;
  const kept = typeof found.urlHash === 'string' ? found.urlHash : typeof found.url === 'string' ? await sha256Of(found.url) : null;
  return kept === (await sha256Of(url)) ? found.bytes : null;
}
