/**
 * npx tsx tests/fake-service/cli.ts [--port N] [--speech] [--first-byte-ms N] ...
 * Prints {"url": "...", "key": "..."} on one line, then serves until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_ACCOUNT, startFakeService, type FakeServiceOptions, type LogEntry } from './server.ts';

const USAGE = `Usage: npx tsx tests/fake-service/cli.ts [options]
  --port N                  port on 127.0.0.1 (default: a free one)
  --speech                  real speech (espeak-ng) instead of a tone
  --round-trip-ms N         a network round trip before every request is seen (default 0)
  --first-byte-ms N         delay before the first byte (default 0)
  --chunk-bytes N           streamed piece size (default 4096)
  --chunk-interval-ms N     pause between streamed pieces (default 0)
  --realtime-factor X       synthesize at X times real time (default: as fast as possible)
  --ms-per-char N           tone length per character (default 2)
  --min-ms N                shortest tone (default 300)
  --error-shape S           nested | flat | detail | text (default nested)
  --reject TEXT             answer content_rejected for texts containing TEXT (repeatable)
  --retry-after             send Retry-After: 1 with 429
  --key K --name N --balance R --price R --max-concurrency N --overdraft R --provider P
                            the account (defaults: ${DEFAULT_ACCOUNT.key}, 100.0000, 1500.0000, 2, 0.0000)
  --verbose                 one line per finished request on stderr
  --help`;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    speech: { type: 'boolean' },
    'round-trip-ms': { type: 'string' },
    'first-byte-ms': { type: 'string' },
    'chunk-bytes': { type: 'string' },
    'chunk-interval-ms': { type: 'string' },
    'realtime-factor': { type: 'string' },
    'ms-per-char': { type: 'string' },
    'min-ms': { type: 'string' },
    'error-shape': { type: 'string' },
    reject: { type: 'string', multiple: true },
    'retry-after': { type: 'boolean' },
    key: { type: 'string' },
    name: { type: 'string' },
    balance: { type: 'string' },
    price: { type: 'string' },
    'max-concurrency': { type: 'string' },
    overdraft: { type: 'string' },
    provider: { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});

function num(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got ${value}`);
  return n;
}

function describe(entry: LogEntry): string {
  const ms = entry.endedAt === null ? '?' : (entry.endedAt - entry.arrivedAt).toFixed(0);
  const extra = [entry.code, entry.fault && `fault=${entry.fault}`, entry.aborted && 'aborted'].filter(Boolean).join(' ');
  return `${entry.id} ${entry.method} ${entry.path} ${entry.status} chars=${entry.billedChars} bytes=${entry.bytesSent} ${ms}ms ${extra}`;
}

function optionsFromArgs(): FakeServiceOptions {
  return {
    port: num(values.port, 'port'),
    audio: values.speech ? 'speech' : 'tone',
    roundTripMs: num(values['round-trip-ms'], 'round-trip-ms'),
    firstByteMs: num(values['first-byte-ms'], 'first-byte-ms'),
    chunkBytes: num(values['chunk-bytes'], 'chunk-bytes'),
    chunkIntervalMs: num(values['chunk-interval-ms'], 'chunk-interval-ms'),
    realtimeFactor: num(values['realtime-factor'], 'realtime-factor'),
    msPerChar: num(values['ms-per-char'], 'ms-per-char'),
    minMs: num(values['min-ms'], 'min-ms'),
    errorShape: values['error-shape'] as FakeServiceOptions['errorShape'],
    rejectTexts: values.reject,
    retryAfterOnConcurrency: values['retry-after'] ?? false,
    accounts: [
      {
        key: values.key ?? DEFAULT_ACCOUNT.key,
        name: values.name ?? DEFAULT_ACCOUNT.name,
        balanceRub: values.balance ?? DEFAULT_ACCOUNT.balanceRub,
        pricePerMillionRub: values.price ?? DEFAULT_ACCOUNT.pricePerMillionRub,
        maxConcurrency: num(values['max-concurrency'], 'max-concurrency') ?? DEFAULT_ACCOUNT.maxConcurrency,
        overdraftRub: values.overdraft ?? DEFAULT_ACCOUNT.overdraftRub,
        provider: values.provider ?? DEFAULT_ACCOUNT.provider,
      },
    ],
    onRequestEnd: values.verbose ? (entry) => console.error(describe(entry)) : undefined,
  };
}

async function main(): Promise<void> {
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const service = await startFakeService(optionsFromArgs());
  console.log(JSON.stringify({ url: service.url, key: service.key }));
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
