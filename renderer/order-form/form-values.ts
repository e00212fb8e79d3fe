/**
 * The order form's own state: strings exactly as typed, so a half-typed number survives re-renders
 * and a draft can be saved as it is. toCreateInput turns it into the create payload.
 */
export interface ItemValues {
  /** React key; never sent. */
  key: string;
  description: string;
  quantity: string;
  cost: string;
}

export type DeliveryTypeValue = '1' | '2';
export type PickupTypeValue = '1' | '2';

export interface OrderFormValues {
  order: {
    providerKey: string;
    tariffId: string;
    deliveryType: DeliveryTypeValue;
    pointOutId: string;
    pickupType: PickupTypeValue;
    clientNumber: string;
    weight: string;
  };
  cost: { assessedCost: string; codCost: string };
  recipient: { contactName: string; phone: string; email: string; city: string; street: string; house: string };
  sender: { contactName: string; phone: string; city: string; street: string; house: string };
  items: ItemValues[];
}

export type ScalarGroup = 'order' | 'cost' | 'recipient' | 'sender';
export type ScalarField<G extends ScalarGroup> = keyof OrderFormValues[G] & string;
export type ItemField = Exclude<keyof ItemValues, 'key'>;

/** Addresses are Russian until settings can say otherwise. */
export const defaultCountryCode = 'RU';

let itemSeq = 0;
export const emptyItem = (): ItemValues => ({ key: `item-${++itemSeq}`, description: '', quantity: '1', cost: '' });

/**
 * A fresh form. After an order is created the shop usually ships the next one the same way, so the
 * service, tariff, delivery and pickup choices and the sender carry over.
 */
export function initialValues(previous?: OrderFormValues): OrderFormValues {
  return {
    order: {
      providerKey: previous?.order.providerKey ?? '',
      tariffId: previous?.order.tariffId ?? '',
      deliveryType: previous?.order.deliveryType ?? '1',
      pointOutId: '',
      pickupType: previous?.order.pickupType ?? '1',
      clientNumber: '',
      weight: '',
    },
    cost: { assessedCost: '', codCost: '0' },
    recipient: { contactName: '', phone: '', email: '', city: '', street: '', house: '' },
    sender: previous ? { ...previous.sender } : { contactName: '', phone: '', city: '', street: '', house: '' },
    items: [emptyItem()],
  };
}

/** Dotted payload path of a scalar field, e.g. `recipient.phone`. */
export const scalarPath = <G extends ScalarGroup>(group: G, field: ScalarField<G>): string => `${group}.${field}`;
/** Dotted payload path of an item field; the form has one place. */
export const itemPath = (index: number, field: ItemField): string => `places.0.items.${index}.${field}`;

/** The single place's weight is the order's weight, so its errors belong to the weight field. */
export const fieldAliases: Readonly<Record<string, string>> = { 'places.0.weight': 'order.weight' };

/** Every path the form shows, top to bottom: the order in which errors are focused. */
export function visibleFieldPaths(values: OrderFormValues): string[] {
  const order: ScalarField<'order'>[] = ['providerKey', 'tariffId', 'deliveryType', 'pointOutId', 'pickupType', 'clientNumber', 'weight'];
  return [
    ...order.filter((f) => f !== 'pointOutId' || values.order.deliveryType === '2').map((f) => scalarPath('order', f)),
    ...(['contactName', 'phone', 'email', 'city', 'street', 'house'] as const).map((f) => scalarPath('recipient', f)),
    ...(['contactName', 'phone', 'city', 'street', 'house'] as const).map((f) => scalarPath('sender', f)),
    ...(['assessedCost', 'codCost'] as const).map((f) => scalarPath('cost', f)),
    ...values.items.flatMap((_, i) => (['description', 'quantity', 'cost'] as const).map((f) => itemPath(i, f))),
  ];
}

/** DOM id of a field's input, so an error can move focus there. */
export const fieldDomId = (path: string): string => `order-form-${path.replaceAll('.', '-')}`;

const blank = (v: string): string | undefined => {
  const trimmed = v.trim();
  return trimmed === '' ? undefined : trimmed;
};

/**
 * A number as typed in Russia: "3 500,50" → "3500.50". Only one comma becomes the decimal point;
 * anything ambiguous ("1,234.56") is left for the schema to refuse rather than guessed.
 */
export const decimal = (v: string): string | undefined => blank(v)?.replace(/[\s\u00a0\u202f]/g, '').replace(/^([^,]*),([^,]*)$/, '$1.$2');

/**
 * The create payload as the schema reads it. Blank fields are left out (not sent as ''), so the
 * schema reports them as missing rather than as malformed.
 */
export function toCreateInput(values: OrderFormValues): unknown {
  const { order, cost, recipient, sender } = values;
  return {
    order: {
      clientNumber: blank(order.clientNumber),
      providerKey: blank(order.providerKey),
      deliveryType: Number(order.deliveryType),
      pickupType: Number(order.pickupType),
      tariffId: decimal(order.tariffId),
      pointOutId: order.deliveryType === '2' ? decimal(order.pointOutId) : undefined,
      weight: decimal(order.weight),
    },
    cost: { assessedCost: decimal(cost.assessedCost), codCost: decimal(cost.codCost) },
    sender: {
      countryCode: defaultCountryCode,
      contactName: blank(sender.contactName),
      phone: blank(sender.phone),
      city: blank(sender.city),
      street: blank(sender.street),
      house: blank(sender.house),
    },
    recipient: {
      countryCode: defaultCountryCode,
      contactName: blank(recipient.contactName),
      phone: blank(recipient.phone),
      email: blank(recipient.email),
      city: blank(recipient.city),
      street: blank(recipient.street),
      house: blank(recipient.house),
    },
    places: [
      {
        weight: decimal(order.weight),
        items: values.items.map((item) => ({
          description: blank(item.description),
          quantity: decimal(item.quantity),
          cost: decimal(item.cost),
        })),
      },
    ],
  };
}
