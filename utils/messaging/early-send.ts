/**
 * One message to the background, sent the way `@webext-core/messaging` sends it (`{ id, type, data, timestamp }`,
 * answered `{ res }` or `{ err }`), for `popup-start.js`: the library's whole messenger (its listeners, its
 * logger, its error revival) was most of that small script, which the popup's page loads before its bundle and
 * only ever sends one message. The background's listener is the library's: `early-send.test.ts` sends through
 * it, so a change of its form fails there.
 */
import type { GetDataType, GetReturnType } from '@webext-core/messaging';
import type { ProtocolMap } from './protocol';

export interface Runtime {
  sendMessage(message: unknown): Promise<unknown>;
}

export async function sendEarly<K extends keyof ProtocolMap>(runtime: Runtime, type: K, data: GetDataType<ProtocolMap[K]>): Promise<GetReturnType<ProtocolMap[K]>> {
  const answer = (await runtime.sendMessage({ id: Math.floor(Math.random() * 1e4), type, data, timestamp: Date.now() })) as { res?: unknown; err?: { message?: unknown } | null } | undefined;
  if (!answer) throw new Error('No response');
  if (answer.err != null) throw new Error(typeof answer.err.message === 'string' ? answer.err.message : 'The background refused the message');
  return answer.res as GetReturnType<ProtocolMap[K]>;
}
