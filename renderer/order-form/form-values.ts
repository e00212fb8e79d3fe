import { parseAddress } from '../../shared/address-parser';

/**
 * The order form's own state: strings exactly as typed, so a half-typed number survives re-renders
 * and a draft can be saved as it is. toCreateInput turns it into the create payload.
 */
export interface ItemValues {
  /** React key; never sent. */
  key: string;
  description: string;
  articul: string;
  quantity: string;
  /** Price of one unit, collected on delivery. */
  cost: string;
}

export interface PlaceValues {
  key: string;
  weight: string;
  length: string;
  width: string;
  height: string;
  items: ItemValues[];
}

export type DeliveryTypeValue = '1' | '2';
export type PickupTypeValue = '1' | '2';
export type AddressMode = 'parts' | 'line';

/** What the form remembers of the chosen pickup point, to show it without asking the core again. */
export interface ChosenPoint {
  id: number;
  providerKey: string;
  /** The service's own code of the point; the picker looks the point up by it to check it still fits. */
  code?: string;
  name: string;
  address: string;
  /** The point's postal index, where the service gives one; the recipient's postcode follows it. */
  postIndex?: string;
  /** `{"1": "10:00/20:00", …}`; a missing day is a day off. */
  worktime: Readonly<Record<string, string>>;
}

export interface OrderFormValues {
  order: {
    providerKey: string;
    tariffId: string;
    deliveryType: DeliveryTypeValue;
    pointOutId: string;
    pickupType: PickupTypeValue;
    /** The office the shop brings the parcel to (tariffs with pickupType 2). */
    pointInId: string;
    clientNumber: string;
    deliveryDate: string;
    deliveryTimeStart: string;
    deliveryTimeEnd: string;
  };
  /** deliveryCost: charged to the recipient; quotedDeliveryCost: the service's price of the tariff chosen in the price table. */
  cost: { assessedCost: string; codCost: string; deliveryCost: string; quotedDeliveryCost: string };
  /** `index`: the postcode (a Russian one is six digits; the shared schema says so). */
  recipient: { contactName: string; phone: string; email: string; index: string; city: string; street: string; house: string; office: string; addressString: string };
  sender: { contactName: string; phone: string; companyName: string; index: string; city: string; street: string; house: string; office: string };
  /** The recipient's address as parts (city, street…) or as one line the service parses. */
  recipientAddressMode: AddressMode;
  /** false while the cash on delivery follows the items' total; true once the user typed their own amount. */
  codManual: boolean;
  /** false while the declared (assessed) value follows the items' total, as the COD does; true once typed over. */
  assessedManual: boolean;
  /** The recipient's delivery charge is collected with the cash on delivery (added to the items' total). */
  codIncludesDelivery: boolean;
  point: ChosenPoint | null;
  /** The drop-off office as chosen in its picker (pointInId). */
  dropOffPoint: ChosenPoint | null;
  places: PlaceValues[];
  /** Additional services by extraParamName, as typed (a checkbox is a boolean). */
  extraParams: Record<string, string | boolean>;
}

export type ScalarGroup = 'order' | 'cost' | 'recipient' | 'sender';
export type ScalarField<G extends ScalarGroup> = keyof OrderFormValues[G] & string;
export type ItemField = Exclude<keyof ItemValues, 'key'>;
export type PlaceField = Exclude<keyof PlaceValues, 'key' | 'items'>;

/** Addresses are Russian until settings can say otherwise. */
export const defaultCountryCode = 'RU';

let keySeq = 0;
const nextKey = (prefix: string) => `${prefix}-${++keySeq}`;
export const emptyItem = (): ItemValues => ({ key: nextKey('item'), description: '', articul: '', quantity: '1', cost: '' });
export const emptyPlace = (): PlaceValues => ({ key: nextKey('place'), weight: '', length: '', width: '', height: '', items: [emptyItem()] });

export const emptySender = (): OrderFormValues['sender'] => ({ contactName: '', phone: '', companyName: '', index: '', city: '', street: '', house: '', office: '' });

/**
 * A fresh form. After an order is created the shop usually ships the next one the same way, so the
 * service, tariff, delivery and pickup choices, the drop-off office and the sender carry over.
 */
export function initialValues(previous?: OrderFormValues): OrderFormValues {
  return {
    order: {
      providerKey: previous?.order.providerKey ?? '',
      tariffId: previous?.order.tariffId ?? '',
      deliveryType: previous?.order.deliveryType ?? '1',
      pointOutId: '',
      pickupType: previous?.order.pickupType ?? '1',
      pointInId: previous?.order.pointInId ?? '',
      clientNumber: '',
      deliveryDate: '',
      deliveryTimeStart: '',
      deliveryTimeEnd: '',
    },
    cost: { assessedCost: '', codCost: '0', deliveryCost: '', quotedDeliveryCost: '' },
    recipient: { contactName: '', phone: '', email: '', index: '', city: '', street: '', house: '', office: '', addressString: '' },
    sender: previous ? { ...previous.sender } : emptySender(),
    recipientAddressMode: 'parts',
    codManual: false,
    assessedManual: false,
    codIncludesDelivery: previous?.codIncludesDelivery ?? false,
    point: null,
    dropOffPoint: previous?.dropOffPoint ?? null,
    places: [emptyPlace()],
    extraParams: {},
  };
}

/**
 * The recipient after a pickup point is chosen: the postcode follows the point's postal index where it has one,
 * unless the user typed their own (a postcode that is neither empty nor the previous point's is kept).
 */
export function recipientWithPointIndex(values: OrderFormValues, point: ChosenPoint | null): OrderFormValues['recipient'] {
  const typed = values.recipient.index.trim();
  const followed = typed === '' || typed === values.point?.postIndex;
  if (!followed || !point?.postIndex || point.postIndex === typed) return values.recipient;
  return { ...values.recipient, index: point.postIndex };
}

/** Dotted payload path of a scalar field, e.g. `recipient.phone`. */
export const scalarPath = <G extends ScalarGroup>(group: G, field: ScalarField<G>): string => `${group}.${field}`;
/** Dotted payload path of a place field, e.g. `places.1.weight`. */
export const placePath = (place: number, field: PlaceField): string => `places.${place}.${field}`;
/** Dotted payload path of an item field, e.g. `places.0.items.2.cost`. */
export const itemPath = (place: number, index: number, field: ItemField): string => `places.${place}.items.${index}.${field}`;
/** Path of an additional service's input. */
export const extraParamPath = (name: string): string => `extraParams.${name}`;

/** The order's weight is the sum of the places' weights, so its errors belong to the first place's weight. */
export const fieldAliases: Readonly<Record<string, string>> = { 'order.weight': 'places.0.weight' };

const recipientPaths = (values: OrderFormValues): string[] => {
  const address = values.recipientAddressMode === 'line' ? (['index', 'addressString'] as const) : (['index', 'city', 'street', 'house', 'office'] as const);
  return [...(['contactName', 'phone', 'email'] as const), ...address].map((f) => scalarPath('recipient', f));
};

/** Every path the form shows, top to bottom: the order in which errors are focused. */
export function visibleFieldPaths(values: OrderFormValues, extraParamNames: readonly string[] = []): string[] {
  const toPoint = values.order.deliveryType === '2';
  const delivery: ScalarField<'order'>[] = toPoint
    ? ['providerKey', 'tariffId', 'deliveryType', 'pickupType', 'pointOutId']
    : ['providerKey', 'tariffId', 'deliveryType', 'pickupType', 'deliveryDate', 'deliveryTimeStart', 'deliveryTimeEnd'];
  if (values.order.pickupType === '2') delivery.push('pointInId');
  return [
    scalarPath('order', 'clientNumber'),
    ...recipientPaths(values),
    ...values.places.flatMap((place, p) => [
      ...(['weight', 'length', 'width', 'height'] as const).map((f) => placePath(p, f)),
      ...place.items.flatMap((_, i) => (['description', 'articul', 'quantity', 'cost'] as const).map((f) => itemPath(p, i, f))),
    ]),
    ...(['assessedCost', 'deliveryCost', 'codCost'] as const).map((f) => scalarPath('cost', f)),
    ...delivery.map((f) => scalarPath('order', f)),
    ...extraParamNames.map(extraParamPath),
    ...(['contactName', 'phone', 'companyName', 'index', 'city', 'street', 'house', 'office'] as const).map((f) => scalarPath('sender', f)),
  ];
}

/** DOM id of a field's input, so an error can move focus there. */
export const fieldDomId = (path: string): string => `order-form-${path.replaceAll('.', '-')}`;

const blank = (v: string | undefined): string | undefined => {
  const trimmed = v?.trim() ?? '';
  return trimmed === '' ? undefined : trimmed;
};

/**
 * A number as typed in Russia: "3 500,50" → "3500.50". Only one comma becomes the decimal point;
 * anything ambiguous ("1,234.56") is left for the schema to refuse rather than guessed.
 */
export const decimal = (v: string | undefined): string | undefined =>
  blank(v)?.replace(/[\s\u00a0\u202f]/g, '').replace(/^([^,]*),([^,]*)$/, '$1.$2');

/** A typed number, or undefined when blank or not a plain decimal. */
export function numberOf(v: string | undefined): number | undefined {
  const text = decimal(v);
  return text !== undefined && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/**
 * Cash on delivery as the items add up: Σ price × quantity over every place, in kopecks so that
 * 0.1 + 0.2 stays 0.30. Rows whose price or quantity is not a number yet count as nothing.
 */
export function itemsTotalKopecks(places: readonly PlaceValues[]): number {
  let total = 0;
  for (const place of places) {
    for (const item of place.items) {
      const price = numberOf(item.cost);
      const quantity = numberOf(item.quantity);
      if (price === undefined || quantity === undefined || price < 0 || quantity < 0) continue;
      total += Math.round(price * 100) * quantity;
    }
  }
  return Math.round(total);
}

/** Kopecks as the form shows a typed amount: "1500", "1500.5" → "1500.50". */
export const kopecksText = (kopecks: number): string => (kopecks % 100 === 0 ? String(kopecks / 100) : (kopecks / 100).toFixed(2));

/** What the cash on delivery follows: the items' total, plus the recipient's delivery charge when it is collected with it. */
export function followedCodKopecks(values: Pick<OrderFormValues, 'places' | 'cost' | 'codIncludesDelivery'>): number {
  const delivery = values.codIncludesDelivery ? Math.round((numberOf(values.cost.deliveryCost) ?? 0) * 100) : 0;
  return itemsTotalKopecks(values.places) + Math.max(0, delivery);
}

/**
 * The values with the cash on delivery following the items (and the delivery charge) and the declared value
 * following the items, each unless the user typed their own. Nothing priced yet leaves the declared value blank.
 */
export function withDerivedCosts(values: OrderFormValues): OrderFormValues {
  const items = itemsTotalKopecks(values.places);
  const codCost = values.codManual ? values.cost.codCost : kopecksText(followedCodKopecks(values));
  const assessedCost = values.assessedManual ? values.cost.assessedCost : items > 0 ? kopecksText(items) : '';
  return codCost === values.cost.codCost && assessedCost === values.cost.assessedCost ? values : { ...values, cost: { ...values.cost, codCost, assessedCost } };
}

/** Total weight of the places in grams; undefined until every place has a weight. */
export function totalWeight(places: readonly PlaceValues[]): number | undefined {
  let sum = 0;
  for (const place of places) {
    const w = numberOf(place.weight);
    if (w === undefined) return undefined;
    sum += w;
  }
  return sum;
}

/** The order's weight as the payload carries it: the sum of the places, or the first place's text while it is not a number. */
const orderWeight = (places: readonly PlaceValues[]): string | undefined => {
  const total = totalWeight(places);
  return total !== undefined ? String(total) : places.length === 1 ? decimal(places[0].weight) : undefined;
};

/**
 * The postcode as the payload carries it. `postIndex` is the aggregator clients' other name for it and the
 * form's box is the one postcode: it is named here (as nothing), so editing an order never brings back a
 * postcode the user cleared (unseen-fields keeps only what the form does not name).
 */
const postcode = (index: string) => ({ index: blank(index), postIndex: undefined });

function recipientAddress(values: OrderFormValues) {
  const r = values.recipient;
  if (values.recipientAddressMode === 'line') return { ...postcode(r.index), addressString: blank(r.addressString) };
  return { ...postcode(r.index), city: blank(r.city), street: blank(r.street), house: blank(r.house), office: blank(r.office) };
}

/** Additional services as the payload carries them; an unticked box and an empty box are not sent. */
export function extraParamsInput(values: OrderFormValues, types: Readonly<Record<string, string>> = {}): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values.extraParams)) {
    if (value === false || value === '') continue;
    if (value === true) out[name] = true;
    else if (types[name] === 'int' || types[name] === 'float') out[name] = numberOf(value) ?? value.trim();
    else if (blank(value) !== undefined) out[name] = value.trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The create payload as the schema reads it. Blank fields are left out (not sent as ''), so the
 * schema reports them as missing rather than as malformed. `extraTypes` (extraParamName → valueType)
 * makes numeric additional services numbers.
 */
export function toCreateInput(values: OrderFormValues, extraTypes?: Readonly<Record<string, string>>): Record<string, unknown> {
  const { order, cost, recipient, sender } = values;
  const toDoor = order.deliveryType === '1';
  return {
    order: {
      clientNumber: blank(order.clientNumber),
      providerKey: blank(order.providerKey),
      deliveryType: Number(order.deliveryType),
      pickupType: Number(order.pickupType),
      tariffId: decimal(order.tariffId),
      pointOutId: toDoor ? undefined : decimal(order.pointOutId),
      pointInId: order.pickupType === '2' ? decimal(order.pointInId) : undefined,
      weight: orderWeight(values.places),
      deliveryDate: toDoor ? blank(order.deliveryDate) : undefined,
      deliveryTimeStart: toDoor ? blank(order.deliveryTimeStart) : undefined,
      deliveryTimeEnd: toDoor ? blank(order.deliveryTimeEnd) : undefined,
    },
    cost: {
      assessedCost: decimal(cost.assessedCost),
      codCost: decimal(cost.codCost),
      deliveryCost: decimal(cost.deliveryCost),
      quotedDeliveryCost: decimal(cost.quotedDeliveryCost),
    },
    sender: {
      countryCode: defaultCountryCode,
      contactName: blank(sender.contactName),
      phone: blank(sender.phone),
      companyName: blank(sender.companyName),
      ...postcode(sender.index),
      city: blank(sender.city),
      street: blank(sender.street),
      house: blank(sender.house),
      office: blank(sender.office),
    },
    recipient: {
      countryCode: defaultCountryCode,
      contactName: blank(recipient.contactName),
      phone: blank(recipient.phone),
      email: blank(recipient.email),
      ...recipientAddress(values),
    },
    places: values.places.map((place) => ({
      weight: decimal(place.weight),
      length: decimal(place.length),
      width: decimal(place.width),
      height: decimal(place.height),
      items: place.items.map((item) => ({
        description: blank(item.description),
        articul: blank(item.articul),
        quantity: decimal(item.quantity),
        cost: decimal(item.cost),
      })),
    })),
    extraParams: extraParamsInput(values, extraTypes),
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Form values from a create payload (an order to edit and re-send, or a draft made elsewhere).
 * Whatever the payload lacks stays empty; nothing in it is trusted to have the right type.
 */
export function valuesFromPayload(payload: unknown): OrderFormValues {
  const p = rec(payload);
  const order = rec(p.order);
  const cost = rec(p.cost);
  const recipient = rec(p.recipient);
  const sender = rec(p.sender);
  const base = initialValues();
  const places = list(p.places).map((raw): PlaceValues => {
    const place = rec(raw);
    const items = list(place.items).map((rawItem): ItemValues => {
      const item = rec(rawItem);
      return { key: nextKey('item'), description: str(item.description), articul: str(item.articul), quantity: str(item.quantity) || '1', cost: str(item.cost) };
    });
    return { key: nextKey('place'), weight: str(place.weight), length: str(place.length), width: str(place.width), height: str(place.height), items: items.length ? items : [emptyItem()] };
  });
  const extraParams: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(rec(p.extraParams))) extraParams[name] = typeof value === 'boolean' ? value : str(value);
  const values: OrderFormValues = {
    ...base,
    order: {
      providerKey: str(order.providerKey),
      tariffId: str(order.tariffId),
      deliveryType: str(order.deliveryType) === '2' ? '2' : '1',
      pointOutId: str(order.pointOutId),
      pickupType: str(order.pickupType) === '2' ? '2' : '1',
      pointInId: str(order.pointInId),
      clientNumber: str(order.clientNumber),
      deliveryDate: str(order.deliveryDate),
      deliveryTimeStart: str(order.deliveryTimeStart),
      deliveryTimeEnd: str(order.deliveryTimeEnd),
    },
    cost: {
      assessedCost: str(cost.assessedCost),
      codCost: str(cost.codCost) || '0',
      deliveryCost: str(cost.deliveryCost),
      quotedDeliveryCost: str(cost.quotedDeliveryCost),
    },
    recipient: {
      contactName: str(recipient.contactName),
      phone: str(recipient.phone),
      email: str(recipient.email),
      index: str(recipient.index) || str(recipient.postIndex),
      city: str(recipient.city),
      street: str(recipient.street),
      house: str(recipient.house),
      office: str(recipient.office),
      addressString: str(recipient.addressString),
    },
    sender: {
      contactName: str(sender.contactName),
      phone: str(sender.phone),
      companyName: str(sender.companyName),
      index: str(sender.index) || str(sender.postIndex),
      city: str(sender.city),
      street: str(sender.street),
      house: str(sender.house),
      office: str(sender.office),
    },
    recipientAddressMode: str(recipient.addressString) && !str(recipient.city) ? 'line' : 'parts',
    places: places.length ? places : [emptyPlace()],
    extraParams,
  };
  // A payload's COD is the amount the shop decided on; it is followed by the items (with the delivery charge or
  // without) only when it already equals that total.
  const cod = Math.round((numberOf(values.cost.codCost) ?? 0) * 100);
  const withDelivery = { ...values, codIncludesDelivery: true };
  const includesDelivery = (numberOf(values.cost.deliveryCost) ?? 0) > 0 && cod === followedCodKopecks(withDelivery);
  const items = itemsTotalKopecks(values.places);
  const assessed = numberOf(values.cost.assessedCost);
  return {
    ...values,
    codIncludesDelivery: includesDelivery,
    codManual: !includesDelivery && cod !== items,
    // Followed only when it already equals the items' total (or is missing while nothing is priced).
    assessedManual: assessed === undefined ? items > 0 : Math.round(assessed * 100) !== items,
  };
}

/**
 * The sender block of a saved profile in the form's shape. A profile keeps its address as one line
 * ("ул. Тверская, д. 7, оф. 12"); the form has boxes for its parts, so the line is split into them
 * where the profile has no street of its own (a block goes with the house: "7 корп. 2").
 */
export function senderFromProfile(sender: Record<string, unknown>): OrderFormValues['sender'] {
  const values = valuesFromPayload({ sender }).sender;
  const line = str(sender.addressString).trim();
  if (!line || values.street) return values;
  const parts = parseAddress(line);
  const house = parts.house && parts.block ? `${parts.house} корп. ${parts.block}` : (parts.house ?? '');
  return {
    ...values,
    index: values.index || parts.index || '',
    city: values.city || parts.city || '',
    street: parts.street ?? '',
    house: values.house || house,
    office: values.office || parts.office || '',
  };
}
