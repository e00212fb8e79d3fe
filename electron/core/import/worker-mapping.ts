import type { FieldError } from '../../../shared/errors';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { SheetRow } from './cells';
import { createOrderMapper, type OrderCandidate, type RowFieldError } from './row-mapper';
import type { CompiledSettings } from './settings';

/**
 * Rows → orders in the reading worker: the sheet's rows are grouped, mapped and checked against the
 * schema of POST /orders where they are read, so the main thread receives orders (or their errors), never
 * raw rows, and none of the garbage mapping makes lands on its heap. What only the main thread can check
 * (the delivery service's rules and reference data) comes back here to be told at its cell: each order's
 * `locate` (which needs its rows) is kept until the main thread has taken the batch it came in (its ack).
 */

/** An order as the worker built it: valid against the schema (payload) or not (errors). */
export interface MappedOrder {
  /** Position in the file: the results keep this order. */
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  payload?: OrderCreate;
  errors: RowFieldError[];
}

/** Errors of the main thread's checks on one order, to be told at their cells. */
export interface LocateAsk {
  seq: number;
  /** The order's first row: where an error goes when its order is no longer known (never in practice). */
  row: number;
  errors: FieldError[];
}

type Locate = NonNullable<OrderCandidate['locate']>;

export function createWorkerMapping(settings: CompiledSettings) {
  const mapper = createOrderMapper(settings);
  /** The locators of each batch sent and not yet acknowledged, oldest first. */
  const inFlight: Map<number, Locate>[] = [];

  const send = (candidates: OrderCandidate[]): MappedOrder[] => {
    const locators = new Map<number, Locate>();
    inFlight.push(locators);
    return candidates.map((c) => {
      if (c.locate) locators.set(c.seq, c.locate);
      const order: MappedOrder = { seq: c.seq, row: c.row, lastRow: c.rows[c.rows.length - 1], clientNumber: c.clientNumber, errors: c.errors };
      if (c.payload) order.payload = c.payload;
      return order;
    });
  };
  const locatorOf = (seq: number) => {
    for (const batch of inFlight) {
      const found = batch.get(seq);
      if (found) return found;
    }
    return undefined;
  };

  return {
    /** The orders a batch of rows completes (one batch of the flow control). */
    take(rows: SheetRow[]): MappedOrder[] {
      const built: OrderCandidate[] = [];
      for (const row of rows) for (const c of mapper.push(row)) built.push(c);
      return send(built);
    },
    /** The last order, once the sheet has ended (a batch of its own). */
    finish: (): MappedOrder[] => send(mapper.finish()),
    /** The main thread has taken the oldest batch: its locators go. */
    acked() {
      inFlight.shift();
    },
    /** Each ask's errors told at their cells, in the order asked. */
    locate(asks: LocateAsk[]): RowFieldError[][] {
      return asks.map((ask) => {
        const locate = locatorOf(ask.seq);
        return ask.errors.map((e) => (locate ? locate(e.field, e) : { ...e, row: ask.row }));
      });
    },
  };
}

export type WorkerMapping = ReturnType<typeof createWorkerMapping>;
