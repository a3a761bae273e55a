/**
 * PDF files handed from the background to the PDF page (IndexedDB of the extension's origin, which
 * both share). The background fetches the file while the click's permission for the tab lasts; the
 * page, opened in that tab, takes it from here. Only the last few files are kept.
 */
import { clear, createStore, del, get, keys, set } from 'idb-keyval';

const store = () => createStore('trysasha-pdf', 'files');
const KEEP = 3;

interface StoredPdf {
  at: number;
  url: string;
  bytes: ArrayBuffer;
}

/** Keeps `bytes` of the PDF at `url`; returns the id the PDF page asks for it by. */
export async function putPdf(url: string, bytes: ArrayBuffer, now = Date.now()): Promise<string> {
  const s = store();
  const id = `${now.toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  await set(id, { at: now, url, bytes } satisfies StoredPdf, s);
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
  const found = await get<StoredPdf>(id, store());
  return found && found.url === url ? found.bytes : null;
}
