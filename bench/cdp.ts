import type { BrowserContext, CDPSession } from 'playwright-core';

/**
 * Evaluates an expression inside an extension context Playwright does not show
 * as a page (the offscreen document), through the browser's DevTools protocol.
 */
export class TargetEvaluator {
  private nextId = 1;
  private pending = new Map<number, (value: unknown) => void>();
  private sessions = new Map<string, string>();

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
      const reply = JSON.parse(message) as { id?: number; result?: unknown; error?: unknown };
      if (reply.id === undefined) return;
      this.pending.get(reply.id)?.(reply.error ? { error: reply.error } : reply.result);
      this.pending.delete(reply.id);
    });
  }

  static async create(context: BrowserContext): Promise<TargetEvaluator> {
    return new TargetEvaluator(await context.browser()!.newBrowserCDPSession());
  }

  /** The target whose URL ends with `suffix`, attached once; null when there is none. */
  private async session(suffix: string): Promise<string | null> {
    const { targetInfos } = await this.cdp.send('Target.getTargets');
    const target = targetInfos.find((t) => t.url.endsWith(suffix));
    if (!target) return null;
    const known = this.sessions.get(target.targetId);
    if (known) return known;
    const { sessionId } = await this.cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    this.sessions.set(target.targetId, sessionId);
    return sessionId;
  }

  /** Whether a target whose URL ends with `suffix` is open. */
  async has(suffix: string): Promise<boolean> {
    const { targetInfos } = await this.cdp.send('Target.getTargets');
    return targetInfos.some((t) => t.url.endsWith(suffix));
  }

  async send(suffix: string, method: string, params: object = {}): Promise<unknown> {
    const sessionId = await this.session(suffix);
    if (!sessionId) return undefined;
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve) => this.pending.set(id, resolve));
    await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return result;
  }

  async evaluate<T>(suffix: string, expression: string): Promise<T | undefined> {
    const reply = (await this.send(suffix, 'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result?: { value?: unknown }; error?: unknown } | undefined;
    return (reply?.error ? { error: reply.error } : reply?.result?.value) as T | undefined;
  }
}
