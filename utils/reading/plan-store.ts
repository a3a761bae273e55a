import { createStore, del, get, set } from 'idb-keyval';
import type { ReadingPlan } from './plan';

/*
 * The plan of the current reading lives in the extension's IndexedDB: a whole book on one page is
 * megabytes of parts, past what storage.session holds. The background writes it when it changes
 * (start, a halved part); the popup reads it for the parts list and Save as MP3.
 */
const store = () => createStore('trysasha-reading', 'plan');
const KEY = 'current';

export async function loadPlan(): Promise<ReadingPlan | null> {
  return (await get<ReadingPlan>(KEY, store())) ?? null;
}

export async function savePlan(plan: ReadingPlan | null): Promise<void> {
  if (plan) await set(KEY, plan, store());
  else await del(KEY, store());
}
