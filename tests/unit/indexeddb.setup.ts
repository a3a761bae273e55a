/**
 * IndexedDB for the unit tests that reach the settings (Node has none): `fake-indexeddb`, empty for every test,
 * as the extension origin's own database is for a new profile. Imported by those test files only: loaded for all
 * 96, it took the unit run from 59 to 92 s.
 */
import { beforeEach } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  globalThis.IDBKeyRange = IDBKeyRange;
});
