import type { ConnectionKindInfo, ConnectionSettingValue } from '../../../../shared/contract/connections';
import type { FieldError } from '../../../../shared/errors';
import { commonConnectionFields, isAggregator, type CarrierConnection, type CarrierKind, type ConnectionField } from '../carrier-kind';

/** A kind's settings as its connection form lists them: its own, then those every connection has. */
export const fieldsOf = (kind: CarrierKind): readonly ConnectionField[] => [...kind.fields, ...commonConnectionFields];

/** What connections.kinds tells the settings form. */
export const kindInfo = (kind: CarrierKind): ConnectionKindInfo => ({
  key: kind.key,
  name: kind.name,
  names: { ru: kind.name, en: kind.englishName },
  testMode: kind.testMode,
  publicTestAccount: 'testAccount' in kind && !!kind.testAccount,
  baseUrl: kind.baseUrl,
  aggregator: isAggregator(kind),
  fields: fieldsOf(kind).map((f) => ({ ...f })),
});

const secretFields = (kind: CarrierKind) => fieldsOf(kind).filter((f) => f.secret);
const neededSecrets = (kind: CarrierKind) => secretFields(kind).filter((f) => f.required !== 'never');

/** The kind's secret fields out of what was typed: trimmed, empty ones left out, unknown names ignored. */
export function pickSecrets(kind: CarrierKind, typed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of secretFields(kind)) {
    const value = typed[f.name]?.trim();
    if (value) out[f.name] = value;
  }
  return out;
}

/** The kind's other settings out of what was sent (checked by connectionProblems). */
export function pickSettings(kind: CarrierKind, sent: Record<string, ConnectionSettingValue | null>): Record<string, ConnectionSettingValue> {
  const out: Record<string, ConnectionSettingValue> = {};
  for (const f of fieldsOf(kind)) {
    const value = sent[f.name];
    if (value !== undefined && value !== null && value !== '') out[f.name] = value;
  }
  return out;
}

/** The stored settings with the sent ones applied: a value replaces, null (or empty) takes the setting back to its default. */
export function mergeSettings(kind: CarrierKind, stored: Record<string, ConnectionSettingValue>, sent: Record<string, ConnectionSettingValue | null>): Record<string, ConnectionSettingValue> {
  const cleared = new Set(Object.entries(sent).filter(([, v]) => v === null || v === '').map(([name]) => name));
  const kept = Object.fromEntries(Object.entries(stored).filter(([name]) => !cleared.has(name)));
  return { ...kept, ...pickSettings(kind, sent) };
}

/** The secrets a connection's carrier signs in with: its own, or the service's public test account in test mode; null when it has none. */
export function effectiveSecrets(kind: CarrierKind, connection: CarrierConnection): Record<string, string> | null {
  if (neededSecrets(kind).every((f) => connection.secrets[f.name])) return connection.secrets;
  if (connection.testMode && 'testAccount' in kind && kind.testAccount && Object.keys(connection.secrets).length === 0) return { ...kind.testAccount };
  return null;
}

export interface ConnectionDraft {
  testMode: boolean;
  baseUrl: string | null;
  /** The secrets the connection will keep. */
  secrets: Record<string, string>;
  settings: Record<string, ConnectionSettingValue>;
  /** The secrets as sent: an object replaces, null forgets, undefined keeps. */
  credentials: Record<string, string> | null | undefined;
  /** As sent; null takes a setting back to its default. */
  rawSettings: Record<string, ConnectionSettingValue | null> | undefined;
  /** The stored secrets stay although this computer cannot read them (not checked). */
  secretsKept?: boolean;
}

function settingProblem(field: ConnectionField, value: ConnectionSettingValue): string | null {
  if (field.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
    if (field.min !== undefined && value < field.min) return `must be at least ${field.min}`;
    if (field.max !== undefined && value > field.max) return `must be at most ${field.max}`;
    return null;
  }
  return typeof value === 'string' ? null : 'must be text';
}

/** The kind's rules of a connection: its address, its secrets (all of them once any is typed), its settings. */
export function connectionProblems(kind: CarrierKind, draft: ConnectionDraft): FieldError[] {
  const errors: FieldError[] = [];
  const required = `is required for ${kind.noun}`;
  if (draft.testMode && !kind.testMode) errors.push({ field: 'testMode', message: `${kind.noun} has no test mode` });
  if (kind.baseUrl === 'required' && !draft.baseUrl) errors.push({ field: 'baseUrl', message: required });
  if (!draft.secretsKept) {
    const typed = draft.credentials !== undefined && draft.credentials !== null;
    for (const f of neededSecrets(kind)) {
      if (draft.secrets[f.name]) continue;
      if (typed || f.required === 'always') errors.push({ field: `credentials.${f.name}`, message: required });
    }
    const byTestMode = neededSecrets(kind).filter((f) => f.required === 'outsideTestMode');
    if (!typed && !draft.testMode && byTestMode.length && byTestMode.every((f) => !draft.secrets[f.name])) {
      errors.push({ field: 'credentials', message: 'are required outside test mode' });
    }
  }
  const fields = fieldsOf(kind);
  for (const [name, value] of Object.entries(draft.rawSettings ?? {})) {
    const field = fields.find((f) => f.name === name && !f.secret);
    const problem = !field ? `is not a setting of ${kind.noun}` : value === null ? null : settingProblem(field, value);
    if (problem) errors.push({ field: `settings.${name}`, message: problem });
  }
  for (const f of fields) if (!f.secret && f.required === 'always' && draft.settings[f.name] === undefined) errors.push({ field: `settings.${f.name}`, message: required });
  return errors;
}
