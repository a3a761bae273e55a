/**
 * IndexedDB for the unit tests (Node has none): `fake-indexeddb`, empty for every test, as the extension
 * origin's own database is for a new profile. The key, the settings and the spending totals live there.
 */
import { beforeEach } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  globalThis.IDBKeyRange = IDBKeyRange;
});
