import type { OrderView } from '../../../shared/schemas/order-detail';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Fields of orders.get that are the order's state at the service, not its create payload. */
const detailOnly = ['orderId', 'providerNumber', 'additionalProviderNumber', 'returnProviderNumber', 'barcode', 'trackingUrl', 'statusKey', 'created'];

/** The order's create payload as orders.get gives it, without the numbers, status and actions beside it. */
export function createPayloadOf(view: OrderView): Obj {
  const { statusDescription: _s, actions: _a, order, places, ...rest } = view;
  const orderPart: Obj = { ...order };
  for (const key of detailOnly) delete orderPart[key];
  return {
    ...rest,
    order: orderPart,
    places: places.map((p) => ({ ...p, items: p.items.map(({ quantityDelivered: _q, ...item }) => item) })),
  };
}

/** Copies into `edited` the keys of `original` that `seen` lacks (the form has no box for them), unless `edited` has its own. */
function carry(original: unknown, seen: unknown, edited: Obj): Obj {
  if (!isObj(original)) return edited;
  const out = { ...edited };
  for (const [key, value] of Object.entries(original)) {
    if (isObj(seen) && key in seen) continue;
    if (out[key] === undefined) out[key] = value;
  }
  return out;
}

/**
 * The edited payload with what the order form does not show put back: the form covers the common
 * fields, and an order that came from the API or an import may carry more (a delivery charge, the
 * items' assessed values and weights, a comment). `seen` is the original as the form would send it
 * untouched: a key of the original missing there is one the form cannot show, so the user cannot have
 * meant to drop it. Places and items are matched by position (items only while the description is the same).
 */
export function withUnseenFields(original: Obj, seen: Obj, edited: Obj): Obj {
  const out = carry(original, seen, edited);
  for (const section of ['order', 'cost', 'sender', 'recipient']) {
    if (isObj(edited[section])) out[section] = carry(original[section], seen[section], edited[section]);
  }
  const originalPlaces = list(original.places);
  const seenPlaces = list(seen.places);
  out.places = list(edited.places).map((place, i) => {
    const before = originalPlaces[i];
    if (!before) return place;
    const { items: _beforeItems, ...beforeRest } = before;
    const { items: _seenItems, ...seenRest } = seenPlaces[i] ?? {};
    const merged = carry(beforeRest, seenRest, place);
    const beforeItems = list(before.items);
    const seenItems = list(seenPlaces[i]?.items);
    merged.items = list(place.items).map((item, j) =>
      beforeItems[j] && beforeItems[j].description === item.description ? carry(beforeItems[j], seenItems[j] ?? {}, item) : item,
    );
    return merged;
  });
  return out;
}
