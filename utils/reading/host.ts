/**
 * What a reading's requests and deliveries report to: the bill of every request (the ledger, the
 * usage history, the popup's figures) and the turns a reading takes (a refused part, a halved
 * part, a stopping error), each saved so a restarted background knows them.
 */
import { ignore } from '../log';
import { mayPay, type Refusal } from '../money/gate';
import { formatRubPlain, type RubUnits } from '../money/money';
import type { Reservation } from '../money/spending-book';
import { countChars } from '../text/parts';
import type { SpeechReceipt } from '../speech/client';
import { NotNow } from './download';
import { keyOf, ReadingError } from './plan';
import type { ReaderDeps } from './deps';
import { errorViewOf, type ReadingRun } from './run';
import type { DeliveryHost } from './delivery';
import type { ReadingView } from './state';
import type { ViewChange } from './view';
import type { NetworkWait } from './network-wait';

export interface ViewAccess {
  /** Whether the run is still the reader's current one (a replaced reading's bills update no view). */
  current(): boolean;
  view(): ReadingView;
  show(change: ViewChange): Promise<void>;
  /** The reading's text grew past what the listener agreed to: it asks again before more is bought. */
  askAgain(): void;
  /** The wait for the service when it cannot be reached. */
  network: NetworkWait;
}

/** What the gate's refusal does to the request: wait for the listener (`NotNow`), or stop with a code. */
function refused(refusal: Refusal): Error {
  switch (refusal) {
    case 'not-current':
    case 'not-agreed':
    case 'over-envelope':
      return new NotNow(refusal);
    case 'over-cap':
    case 'totals-unwritable':
      return new ReadingError('budget-limit');
    case 'not-granted':
      return new ReadingError('save-changed');
  }
}

/** A request let through by the gate: what it reserved, and under whose agreement. */
interface Admitted {
  reservation: Reservation;
  cost: RubUnits;
  under: 'play' | 'save';
}

export function runHost(run: ReadingRun, deps: ReaderDeps, reader: ViewAccess): DeliveryHost {
  const admissions = new WeakMap<SpeechReceipt, Admitted>();
  const saveProgress = () => deps.store.saveProgress(run.progress()).catch(ignore('saving the reading'));
  return {
    fetch: {
      slots: deps.slots,
      // Every request asks the spending gate first; what it lets through is reserved in the spending totals
      // and settled on the receipt (or given back when nothing was billed).
      open: async (body, signal, about) => {
        const wallet = deps.wallet;
        await wallet.ready;
        const purse = run.purse;
        const chars = countChars(body.text);
        const partKey = keyOf(run.plan!, about.part);
        const decision = mayPay(
          { readingId: run.id, part: about.part.index, partKey, chars, resumed: about.resumed, forSave: about.forSave },
          purse.snapshot(run.ledger, run.parts.length),
          { caps: purse.caps, spent: wallet.spent(), writable: wallet.writable },
        );
        if (!decision.ok) {
          if (decision.refusal === 'over-envelope') reader.askAgain();
          throw refused(decision.refusal);
        }
        const reservation = wallet.reserve(decision.cost);
        const admitted: Admitted = { reservation, cost: decision.cost, under: decision.under };
        purse.admit(decision.cost, decision.under, { key: partKey, chars: about.part.chars, resumed: about.resumed });
        const giveBack = () => {
          purse.giveBack(decision.cost, decision.under);
          void wallet.release(reservation);
        };
        // With a cap set, nothing is sent unless the totals holding this request are kept (fail closed).
        if (purse.caps && !(await reservation.written)) {
          giveBack();
          throw new ReadingError('budget-limit');
        }
        try {
          const stream = await deps.open(body, signal);
          admissions.set(stream.receipt, admitted);
          return stream;
        } catch (err) {
          giveBack();
          throw err;
        }
      },
      sleep: (ms, signal) => deps.sleep(ms, signal),
      unreachable: (signal) => reader.network.unreachable(signal),
      reached: () => reader.network.reached(),
      // Every billed request is recorded, even one answered after its reading was replaced.
      billed: async (receipt, sentChars) => {
        const charge = run.ledger.add(receipt, sentChars);
        const admitted = admissions.get(receipt);
        if (admitted) {
          run.purse.settle(admitted.cost, charge.cost, admitted.under);
          void deps.wallet.settle(admitted.reservation, charge.cost);
        }
        deps.recordUsage({ time: deps.now(), title: run.title, chars: charge.chars, costRub: formatRubPlain(charge.cost), requestId: receipt.requestId });
        if (!reader.current()) return;
        const balanceRub = charge.balance !== null ? formatRubPlain(charge.balance) : null;
        await reader.show({ type: 'billed', cost: run.ledger.cost, chars: run.ledger.chars, balanceRub });
      },
    },
    player: deps.player,
    cache: deps.cache,
    playing: () => reader.view().part,
    refused: async () => {
      await Promise.all([reader.show({ type: 'refused', count: run.skipped.size }), saveProgress()]);
    },
    planChanged: async () => {
      await deps.store.savePlan(run.plan);
      await reader.show({ type: 'parts', parts: run.parts.length });
    },
    stopping: (error) => {
      run.failLater(errorViewOf(error));
      void saveProgress();
    },
    paceMeasured: () => void saveProgress(),
    now: () => deps.now(),
    sleep: (ms, signal) => deps.sleep(ms, signal),
  };
}
