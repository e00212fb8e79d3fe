import type { FieldError } from '../../../shared/errors';
import type { ProviderService, Tariff } from '../../../shared/schemas/lists';
import type { UploadSettings } from '../../../shared/schemas/upload';
import { validationError } from '../errors';
import { columnNumber } from './columns';
import { extraParamPrefix, ignoredKeys, keySpec, parties, uploadKeys, type KeySpec } from './keys';
import type { NamedService } from './service-names';
import { compileFormat, type CompiledFormat } from './php-date';

/**
 * The upload settings checked once, before the file is read: every columnMap / defaultData key known,
 * every column a column, every required field given by a column or a default, the formats usable,
 * extraParams naming the delivery service's additional services. Bad settings are one 040002 naming
 * each field (`columnMap.order.weight`), and the file is never read.
 */

export type Fallback = { kind: 'text'; value: string } | { kind: 'sum'; column: number; arg: string };

export interface FieldPlan {
  key: string;
  spec: KeySpec;
  /** 1-based columns; several for a name in parts (nameFormat true). Empty: the default only. */
  columns: number[];
  fallback?: Fallback;
}

export interface CompiledSettings {
  providerKey: string;
  dateFormat: CompiledFormat;
  timeFormat: CompiledFormat;
  nameFormat: boolean;
  itemsNewRow: boolean;
  rowStart: number;
  rowEnd?: number;
  fields: Map<string, FieldPlan>;
  clientNumberColumn: number;
  /** Every mapped column, to tell an empty row. */
  mappedColumns: number[];
  /** Every column a row is read for (mapped, or summed by a default): the reader keeps no other cell. */
  readColumns: number[];
  itemColumns: number[];
  /** Additional services by extraParamName, when the delivery service's list is known. */
  services?: Map<string, ProviderService>;
  /** The delivery service's tariffs, when known: a tariff named in a cell, the delivery and pickup types a tariff fixes. */
  tariffs?: Tariff[];
  /** The delivery services a row's own service column may name, by key or by name. */
  deliveryServices?: readonly NamedService[];
  /** The settings as given, kept with the import. */
  source: UploadSettings;
}

const sumPattern = /^\s*sumByOrderRows\(\s*([^()]*?)\s*\)\s*$/i;

/** The additional services of the delivery service: a list, or undefined when the app has no reference data for it. */
export type ServicesLookup = (providerKey: string) => Promise<ProviderService[] | undefined>;
/** The tariffs of the delivery service: a list, or undefined when the app has none for it. */
export type TariffsLookup = (providerKey: string) => Promise<Tariff[] | undefined>;

export interface CompileOptions {
  lookupServices: ServicesLookup;
  lookupTariffs?: TariffsLookup;
  /** The delivery services of the app (a row's service column names one of them). */
  deliveryServices?: () => readonly NamedService[];
  /**
   * Required fields of the upload table that need no column or default here, because the row mapper can
   * fill them (the desktop wizard: sizes and item weights optional as in the order form, the declared value
   * from the items, the delivery and pickup types from the tariff). The interface's upload demands them all.
   */
  optional?: ReadonlySet<string>;
}

/** Checks and compiles the settings; throws a 040002 AppError naming every problem. */
export async function compileSettings(settings: UploadSettings, compileOptions: CompileOptions): Promise<CompiledSettings> {
  const { lookupServices, lookupTariffs, deliveryServices, optional } = compileOptions;
  const errors: FieldError[] = [];
  const cs = settings.columnSettings;
  const fail = (field: string, message: string) => errors.push({ field, message });
  const erred = (key: string) => errors.some((e) => e.field === `columnMap.${key}` || e.field === `defaultData.${key}`);

  const format = (field: string, value: string, kind: 'date' | 'time') => {
    try {
      const f = compileFormat(value);
      if (kind === 'date' && !f.hasDate) fail(field, `${value} has no day, month and year (use tokens such as d.m.Y or Y-m-d)`);
      if (kind === 'time' && !f.hasTime) {
        const missing = [f.fields.some((x) => x === 'hour' || x === 'hour12') ? '' : 'hours (H)', f.fields.includes('minute') ? '' : 'minutes (i; M is a month)'].filter(Boolean);
        fail(field, `${value} has no ${missing.join(' and ')}: use tokens such as H:i or H:i:s`);
      }
      return f;
    } catch (error) {
      fail(field, (error as Error).message);
      return compileFormat(kind === 'date' ? 'd.m.Y' : 'H:i');
    }
  };
  const dateFormat = format('columnSettings.dateFormat', cs.dateFormat ?? 'd.m.Y', 'date');
  const timeFormat = format('columnSettings.timeFormat', cs.timeFormat, 'time');
  const rowStart = cs.rowStart ?? 2;
  if (cs.rowEnd !== undefined && cs.rowEnd < rowStart) fail('columnSettings.rowEnd', `must not be before rowStart (${rowStart})`);

  const fields = new Map<string, FieldPlan>();
  const plan = (key: string, spec: KeySpec) => {
    let p = fields.get(key);
    if (!p) fields.set(key, (p = { key, spec: optional?.has(key) ? { ...spec, required: false } : spec, columns: [] }));
    return p;
  };

  for (const [key, raw] of Object.entries(settings.columnMap)) {
    const field = `columnMap.${key}`;
    if (ignoredKeys.has(key)) continue;
    const spec = keySpec(key);
    if (!spec) {
      fail(field, key.startsWith(extraParamPrefix) ? 'is not a valid additional service name' : 'is not a field of the upload table');
      continue;
    }
    const value = raw.trim();
    if (value === '') continue; // an empty mapping is no mapping
    const isName = key === 'sender.contactName' || key === 'recipient.contactName';
    const parts = value.split(',').map((s) => s.trim());
    if (parts.length > 1 && !(isName && cs.nameFormat)) {
      fail(field, isName ? 'names one column when nameFormat is false; set nameFormat to true for a name in parts' : 'must be one column letter such as A or AB');
      continue;
    }
    const columns = parts.map(columnNumber);
    if (columns.some(Number.isNaN)) {
      fail(field, `must be a column letter such as A or AB${isName ? ', or letters separated by commas for a name in parts' : ''}, not "${value}"`);
      continue;
    }
    plan(key, spec).columns = columns;
  }

  for (const [key, raw] of Object.entries(settings.defaultData ?? {})) {
    const field = `defaultData.${key}`;
    if (ignoredKeys.has(key)) continue;
    const spec = keySpec(key);
    if (!spec) {
      fail(field, 'is not a field of the upload table');
      continue;
    }
    const sum = sumPattern.exec(raw);
    if (sum) {
      if (spec.level !== 'order' || spec.kind !== 'number') {
        fail(field, 'sumByOrderRows() gives a number for the whole order: use it for order, cost or place numbers');
        continue;
      }
      const arg = sum[1];
      const mapped = settings.columnMap[arg];
      const column = columnNumber(arg) || (mapped !== undefined ? columnNumber(mapped.trim()) : Number.NaN);
      if (Number.isNaN(column)) {
        fail(field, `sumByOrderRows(${arg}): name a column letter such as M, or a mapped field such as item.cost`);
        continue;
      }
      plan(key, spec).fallback = { kind: 'sum', column, arg };
      continue;
    }
    if (raw.trim() === '') continue;
    plan(key, spec).fallback = { kind: 'text', value: raw.trim() };
  }

  // order.providerKey falls back to the upload's providerKey
  if (!fields.get('order.providerKey')?.fallback) plan('order.providerKey', uploadKeys['order.providerKey']).fallback = { kind: 'text', value: settings.providerKey };

  const given = (key: string) => fields.has(key);
  const clientNumber = fields.get('order.clientNumber');
  if ((!clientNumber || clientNumber.columns.length === 0) && !erred('order.clientNumber')) {
    fail('columnMap.order.clientNumber', 'is required: the column of the order numbers tells the orders apart');
  }
  for (const [key, spec] of Object.entries(uploadKeys)) {
    if (spec.required === true && !given(key) && key !== 'order.clientNumber' && !erred(key) && !optional?.has(key)) {
      fail(`columnMap.${key}`, 'is required: map a column or give a value in defaultData');
    }
  }
  for (const party of parties) {
    if (given(`${party}.addressString`)) continue;
    const missing = Object.entries(uploadKeys).filter(
      ([key, spec]) => key.startsWith(`${party}.`) && spec.required === 'address' && !given(key) && !erred(key) && !optional?.has(key),
    );
    for (const [key] of missing) {
      fail(`columnMap.${key}`, `is required unless ${party}.addressString is given: map a column or give a value in defaultData`);
    }
  }

  // extraParams columns: additional services of the delivery service, no more than it has
  let services: Map<string, ProviderService> | undefined;
  const extra = [...fields.keys()].filter((k) => k.startsWith(extraParamPrefix));
  if (extra.length) {
    const list = await lookupServices(settings.providerKey);
    if (list) {
      services = new Map(list.map((s) => [s.extraParamName.toLowerCase(), s]));
      for (const key of extra) {
        const name = key.slice(extraParamPrefix.length);
        const service = services.get(name.toLowerCase());
        if (!service) {
          const known = list.map((s) => s.extraParamName).join(', ');
          fail(
            `${fields.get(key)!.columns.length ? 'columnMap' : 'defaultData'}.${key}`,
            known ? `${settings.providerKey} has no additional service ${name} (it has: ${known})` : `${settings.providerKey} has no additional services`,
          );
        } else if (service.extraParamName !== name) {
          // the service's own spelling goes to the order
          const p = fields.get(key)!;
          fields.delete(key);
          fields.set(`${extraParamPrefix}${service.extraParamName}`, { ...p, key: `${extraParamPrefix}${service.extraParamName}` });
        }
      }
    }
  }

  const tariffs = lookupTariffs ? await lookupTariffs(settings.providerKey) : undefined;

  if (errors.length) throw validationError(errors, `The upload settings are not usable: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);

  const columnsOf = (level?: 'item') =>
    [...new Set([...fields.values()].filter((p) => level === undefined || p.spec.level === level).flatMap((p) => p.columns))].sort((a, b) => a - b);
  return {
    providerKey: settings.providerKey,
    dateFormat,
    timeFormat,
    nameFormat: cs.nameFormat,
    itemsNewRow: cs.itemsNewRow,
    rowStart,
    rowEnd: cs.rowEnd,
    fields,
    clientNumberColumn: clientNumber!.columns[0],
    mappedColumns: columnsOf(),
    readColumns: [...new Set([...columnsOf(), ...[...fields.values()].flatMap((p) => (p.fallback?.kind === 'sum' ? [p.fallback.column] : []))])],
    itemColumns: columnsOf('item'),
    services,
    tariffs,
    deliveryServices: deliveryServices?.().map(({ key, name }) => ({ key, name })),
    source: settings,
  };
}

