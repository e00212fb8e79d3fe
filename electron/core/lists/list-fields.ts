import { pointSchema, providerServiceSchema, tariffSchema, type Point, type ProviderService, type Tariff } from '../../../shared/schemas/lists';
import type { FieldType, FilterField } from './filter';

/** The fields of the stored lists: what `fields=` may name and what `filter=` may test (and how). */

export const pointRecordFields = Object.keys(pointSchema.shape) as (keyof Point)[];
export const tariffRecordFields = Object.keys(tariffSchema.shape) as (keyof Tariff)[];
export const serviceRecordFields = Object.keys(providerServiceSchema.shape) as (keyof ProviderService)[];

const typed = <K extends string>(fields: Record<K, FieldType>): Record<K, FilterField> =>
  Object.fromEntries(Object.entries<FieldType>(fields).map(([name, type]) => [name, { type }])) as Record<K, FilterField>;

/** What `/lists/points?filter=` accepts. `city` also matches the community (a settlement or district in the city). */
export const pointFilterFields: Record<string, FilterField> = {
  ...typed({
    id: 'int', providerKey: 'key', code: 'key', name: 'text', postIndex: 'key', lat: 'real', lng: 'real', countryCode: 'key', region: 'text',
    city: 'text', community: 'text', streetType: 'text', street: 'text', house: 'text', block: 'text', office: 'text', address: 'text',
    phone: 'text', timetable: 'text', fittingRoom: 'flag', cod: 'flag', paymentCash: 'flag', paymentCard: 'flag', availableOperation: 'int',
    type: 'int', enabled: 'flag', 'limits.maxSizeA': 'real', 'limits.maxSizeB': 'real', 'limits.maxSizeC': 'real', 'limits.maxSizeSum': 'real',
    'limits.minWeight': 'int', 'limits.maxWeight': 'int',
  }),
  // Rubles on the wire, kopecks at rest.
  'limits.maxCod': { type: 'real', scale: 100 },
};

export const tariffFilterFields: Record<string, FilterField> = typed({
  id: 'int', providerKey: 'key', name: 'text', description: 'text', aliasName: 'key', weightMin: 'int', weightMax: 'int', pickupType: 'int',
  deliveryType: 'int', paymentCash: 'flag',
});

export const serviceFilterFields: Record<string, FilterField> = typed({
  providerKey: 'key', name: 'text', extraParamName: 'key', valueType: 'key', description: 'text',
});
