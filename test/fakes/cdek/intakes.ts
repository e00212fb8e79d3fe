import { randomUUID } from 'node:crypto';

/** A courier request as the fake keeps it. */
export interface FakeIntake {
  uuid: string;
  number: number | null;
  body: Record<string, unknown>;
  state: 'ACCEPTED' | 'SUCCESSFUL' | 'INVALID';
  errors: { code: string; message: string }[];
  statuses: { code: string; name: string; date_time: string }[];
  createdAt: number;
  /** When CDEK's check numbered it (fake clock, ms), or null. */
  checkedAt: number | null;
  timelineApplied: number;
}

/** How an intake moves on the fake's clock: its check, then the statuses CDEK gives it, each this long after the check. */
export interface IntakePace {
  checkAfterMs?: number;
  timeline?: { afterMs: number; code: IntakeStatusCode }[];
}

/** CDEK's published intake statuses with their Russian names. */
const statusNames = {
  ACCEPTED: 'Принята',
  CREATED: 'Создана',
  READY_FOR_APPOINTMENT: 'Готова к назначению',
  APPOINTED_COURIER: 'Назначен курьер',
  DONE: 'Выполнена',
  PROBLEM_DETECTED: 'Возникла проблема',
  PROCESSING_REQUIRED: 'Требуется обработка',
  REMOVED: 'Удалена',
  INVALID: 'Некорректная заявка',
} as const;
export type IntakeStatusCode = keyof typeof statusNames;

interface Answer {
  status: number;
  body: unknown;
}

const minutes = (t: unknown) => (typeof t === 'string' && /^\d{2}:\d{2}$/.test(t) ? Number(t.slice(0, 2)) * 60 + Number(t.slice(3)) : NaN);

/**
 * CDEK's courier requests (/v2/intakes) for the fake: POST registers one (202, checked on a read once
 * `pace.checkAfterMs` has passed on the fake's clock, then moved along `pace.timeline`), GET reads it with its
 * number once checked, DELETE removes it. The check follows CDEK's published rules:
 * a date from today on, a window of at least three hours, the sender with a phone, and an address (unless
 * the request names an order, whose sender and address CDEK already has).
 */
export function createIntakeDesk(deps: { now: () => number; cdekDate: (ms: number) => string; pace?: IntakePace }) {
  const intakes = new Map<string, FakeIntake>();
  let nextNumber = 9_000_000;

  const request = (type: string, state: string, errors: FakeIntake['errors'] = []) => ({
    request_uuid: randomUUID(),
    type,
    state,
    date_time: deps.cdekDate(deps.now()),
    errors,
    warnings: [],
  });
  const notFound = (type: string): Answer => ({ status: 404, body: { requests: [request(type, 'INVALID', [{ code: 'v2_entity_not_found', message: 'Intake not found' }])] } });
  const status = (code: IntakeStatusCode, at = deps.now()) => ({ code, name: statusNames[code], date_time: deps.cdekDate(at) });

  function check(body: Record<string, unknown>): FakeIntake['errors'] {
    const errors: FakeIntake['errors'] = [];
    const today = new Date(deps.now()).toISOString().slice(0, 10);
    const date = body.intake_date;
    if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) errors.push({ code: 'v2_field_is_empty', message: 'intake_date is empty' });
    else if (date < today) errors.push({ code: 'v2_intake_date_in_past', message: `intake_date ${date} is in the past` });
    const from = minutes(body.intake_time_from);
    const to = minutes(body.intake_time_to);
    if (Number.isNaN(from) || Number.isNaN(to)) errors.push({ code: 'v2_field_is_empty', message: 'intake_time_from and intake_time_to are required' });
    else if (to - from < 180) errors.push({ code: 'v2_intake_time_interval', message: 'the interval must be at least 3 hours' });
    const named = typeof body.cdek_number === 'string' || typeof body.order_uuid === 'string';
    if (!named) {
      const sender = body.sender as { name?: string; phones?: { number?: string }[] } | undefined;
      if (!sender?.name || !sender.phones?.[0]?.number) errors.push({ code: 'v2_field_is_empty', message: 'sender.name and sender.phones are required' });
      const location = body.from_location as { address?: string } | undefined;
      if (!location?.address) errors.push({ code: 'v2_field_is_empty', message: 'from_location.address is required' });
      if (typeof body.weight !== 'number' || body.weight <= 0) errors.push({ code: 'v2_field_is_empty', message: 'weight is required' });
    }
    return errors;
  }

  /**
   * What the fake's clock has done to the request by the time it is read: CDEK's check (once checkAfterMs has
   * passed), then its timeline's statuses that are due, until the request is removed.
   */
  function advance(intake: FakeIntake) {
    if (intake.state === 'ACCEPTED' && deps.now() >= intake.createdAt + (deps.pace?.checkAfterMs ?? 0)) {
      intake.errors = check(intake.body);
      if (intake.errors.length) {
        intake.state = 'INVALID';
        intake.statuses.push(status('INVALID'));
      } else {
        intake.state = 'SUCCESSFUL';
        intake.number = nextNumber++;
        intake.checkedAt = deps.now();
        intake.statuses.push(status('CREATED'));
      }
    }
    const timeline = deps.pace?.timeline ?? [];
    while (intake.checkedAt !== null && intake.timelineApplied < timeline.length && intake.statuses.at(-1)?.code !== 'REMOVED') {
      const step = timeline[intake.timelineApplied];
      const at = intake.checkedAt + step.afterMs;
      if (at > deps.now()) break;
      intake.statuses.push(status(step.code, at));
      intake.timelineApplied++;
    }
  }

  const entity = (i: FakeIntake) => ({
    uuid: i.uuid,
    ...(i.number !== null ? { intake_number: i.number } : {}),
    ...i.body,
    statuses: [...i.statuses].reverse(),
  });

  return {
    intakes,
    /** Answers a /intakes call, or null when the path is not one of its routes. */
    route(method: string, path: string, body: Record<string, unknown>): Answer | null {
      if (method === 'POST' && path === '/intakes') {
        if (typeof body.intake_date !== 'string') return { status: 400, body: { requests: [request('CREATE', 'INVALID', [{ code: 'v2_field_is_empty', message: 'intake_date is empty' }])] } };
        const intake: FakeIntake = {
          uuid: randomUUID(), number: null, body, state: 'ACCEPTED', errors: [], statuses: [status('ACCEPTED')], createdAt: deps.now(), checkedAt: null, timelineApplied: 0,
        };
        intakes.set(intake.uuid, intake);
        return { status: 202, body: { entity: { uuid: intake.uuid }, requests: [request('CREATE', 'ACCEPTED')] } };
      }
      const m = /^\/intakes\/([0-9a-f-]{36})$/.exec(path);
      if (!m) return null;
      const intake = intakes.get(m[1]);
      if (method === 'GET') {
        if (!intake) return notFound('GET');
        advance(intake);
        return { status: 200, body: { entity: entity(intake), requests: [request('CREATE', intake.state, intake.errors)] } };
      }
      if (method === 'DELETE') {
        if (!intake || intake.statuses.at(-1)?.code === 'REMOVED') return notFound('DELETE');
        intake.statuses.push(status('REMOVED'));
        return { status: 202, body: { entity: { uuid: intake.uuid }, requests: [request('DELETE', 'SUCCESSFUL')] } };
      }
      return null;
    },
  };
}
