import { create } from 'zustand';
import type { CommandInput } from '../../shared/contract';
import type { ErrorBody } from '../../shared/errors';
import type { Result } from '../../shared/result';
import { valuesOfDraft } from '../order-form/draft-data';
import {
  emptyItem, emptyPlace, fieldAliases, initialValues, itemPath, placePath, recipientWithPointIndex, scalarPath, senderFromProfile, visibleFieldPaths, withDerivedCosts,
  type ChosenPoint, type AddressMode, type ItemField, type OrderFormValues, type PlaceField, type ScalarField, type ScalarGroup,
} from '../order-form/form-values';
import { validateOrderForm, type ExtraParamTypes } from '../order-form/validate-order-form';
import { serverFieldErrors, type FieldErrors } from '../order-form/zod-issues';
import { getTransport } from '../transport/current';
import { useNavigationStore } from './navigation-store';
import { useOrdersStore } from './orders-store';
import { providerName, useProvidersStore } from './providers-store';
import { nextClientNumber } from '../order-form/next-number';
import { useSenderProfilesStore } from '../order-form/sender-profiles-store';
import { toastRefusal, useToastStore } from './toast-store';
import { errorTitle } from '../i18n/error-messages';

export type SubmitOutcome = { ok: true; orderId: string } | { ok: false; focusPath?: string };

/** A tariff chosen in the price table: it fixes the service, the tariff and both handover types. */
export interface TariffChoice {
  providerKey: string;
  tariffId: number;
  deliveryType: 1 | 2;
  pickupType: 1 | 2;
  /** The service's price for it, when chosen in the price table (kept with the order). */
  price?: number;
}

/** Hooks the draft autosave installs (draft-autosave.ts); the store itself never talks to drafts. */
export interface DraftHooks {
  /** Saves the current form now if it has unsaved changes. */
  flush: () => Promise<void>;
  /** Forgets the draft of a submitted form (waits for a save in flight, then deletes it). */
  discard: (id: string) => Promise<void>;
}

interface OrderFormState {
  opened: boolean;
  values: OrderFormValues;
  /** Something was typed since the form was fresh: only then is it worth a draft. */
  dirty: boolean;
  /** Counts edits; the autosave compares it with the version it saved last. */
  version: number;
  /** The draft this form is saved as (made on the first edit). */
  draftId: string | null;
  /** The form holds a copy of another order ("Копировать заказ"): closed, it is not what "Новый заказ" reopens. */
  copied: boolean;
  /** extraParamName → valueType of the chosen service's additional services. */
  extraTypes: ExtraParamTypes;
  /** Fields the user has left; their client-side errors show from then on. */
  touched: Readonly<Record<string, true>>;
  /** After a submit attempt every error shows. */
  submitAttempted: boolean;
  submitting: boolean;
  /** Field errors the core returned; each clears when its field is edited. */
  serverErrors: FieldErrors;
  /** The core's refusal, shown above the buttons. */
  failure: ErrorBody | undefined;
  draftHooks: DraftHooks | undefined;

  /**
   * Shows the form: the new order the user was typing (its values kept since it was closed), or a blank one when it
   * held a copied or edited order; the copy, once edited, is a draft to continue from the drafts page.
   */
  open: () => void;
  close: () => void;
  /** Puts the current form aside as a draft and starts an empty one. */
  startNew: () => Promise<void>;
  /** Continues a saved draft in the form; `failure` shows why its last submit was refused. */
  openDraft: (id: string, failure?: ErrorBody) => Promise<boolean>;
  /** The draft became an order elsewhere (the drafts page): a form still on it starts afresh. */
  forgetDraft: (id: string) => void;
  /** Opens the form on given values: a copy of an order ("Копировать заказ"), a new order of its own. */
  openWith: (values: OrderFormValues) => void;
  /** The order this form changes (submit sends orders.update), or null for a new order. */
  editingOrderId: string | null;
  /** Completes the edited payload before it is sent (puts back what the form has no box for). */
  completeEdit: ((payload: Record<string, unknown>) => Record<string, unknown>) | null;
  /** Opens the form on an existing order's values; submitting changes that order and sends it again where allowed. */
  openForEdit: (orderId: string, values: OrderFormValues, complete?: (payload: Record<string, unknown>) => Record<string, unknown>) => void;
  setField: <G extends ScalarGroup>(group: G, field: ScalarField<G>, value: string) => void;
  setPlaceField: (place: number, field: PlaceField, value: string) => void;
  setItemField: (place: number, index: number, field: ItemField, value: string) => void;
  addPlace: () => void;
  removePlace: (place: number) => void;
  addItem: (place: number) => void;
  removeItem: (place: number, index: number) => void;
  /** The user's own cash-on-delivery amount; `follow` returns it to the items' total. */
  setCod: (value: string) => void;
  followItemsTotal: () => void;
  /** The user's own declared value; `followItemsForAssessed` returns it to the items' total. */
  setAssessed: (value: string) => void;
  followItemsForAssessed: () => void;
  /** Whether the recipient's delivery charge is collected with the cash on delivery. */
  setCodIncludesDelivery: (included: boolean) => void;
  setRecipientAddressMode: (mode: AddressMode) => void;
  setExtraParam: (name: string, value: string | boolean) => void;
  setExtraTypes: (types: ExtraParamTypes) => void;
  /** Another service: its tariff, point, interval and additional services are chosen anew. */
  chooseService: (providerKey: string) => void;
  chooseTariff: (choice: TariffChoice) => void;
  choosePoint: (point: ChosenPoint | null) => void;
  /** The drop-off office (pointInId); a chosen one is remembered as the shop's usual office of the service. */
  chooseDropOff: (point: ChosenPoint | null) => void;
  /** Offers the shop's usual office in a form that has none for this service yet (not an edit). */
  prefillDropOff: (point: ChosenPoint) => void;
  chooseInterval: (interval: { date: string | null; from: string; to: string } | null) => void;
  /** Fills the sender block; `asEdit` false for the automatic prefill of a fresh form. */
  applySender: (sender: Record<string, unknown>, asEdit?: boolean) => void;
  /** The number the form offered itself (the one after the shop's latest order), while it is still the field's value. */
  offeredNumber: string | null;
  /** The offered number is the shop's first (no orders yet): the hint says where the count starts. */
  offeredFirst: boolean;
  touch: (path: string) => void;
  submit: () => Promise<SubmitOutcome>;
  installDraftHooks: (hooks: DraftHooks | undefined) => void;
}

const withoutPaths = (errors: FieldErrors, paths: readonly string[]): FieldErrors => {
  if (!paths.some((p) => p in errors)) return errors;
  const rest = { ...errors };
  for (const p of paths) delete rest[p];
  return rest;
};

/** Drops entries under a prefix: indexes shift after a removal, so errors kept there would name the wrong row. */
const withoutPrefix = <T>(map: Readonly<Record<string, T>>, prefix: string): Record<string, T> =>
  Object.fromEntries(Object.entries(map).filter(([path]) => !path.startsWith(prefix)));

/** orders.update answers only ok; the form goes on as after a create, with the order's id. */
async function sendChanges(orderId: string, data: CommandInput<'orders.create'>): Promise<Result<{ orderId: string }>> {
  const result = await getTransport().invoke('orders.update', { orderId, ...data });
  return result.ok ? { ok: true, value: { orderId } } : result;
}

/** Each time the form opens: a service connected since (in the settings, another window, the API) is offered at once. */
const refreshServices = () => void useProvidersStore.getState().load(true);

const freshForm = (values: OrderFormValues) => ({
  values,
  editingOrderId: null,
  completeEdit: null,
  dirty: false,
  draftId: null,
  copied: false,
  touched: {},
  submitAttempted: false,
  serverErrors: {},
  failure: undefined,
  offeredNumber: null,
  offeredFirst: false,
});

/** Keeps the office as the shop's usual one for its service; a refusal is said, the form keeps the choice. */
async function rememberDropOff(point: ChosenPoint) {
  const result = await getTransport().invoke('dropOff.remember', { providerKey: point.providerKey, pointId: point.id });
  if (!result.ok) toastRefusal(result.error, { title: (t) => t('entry.dropOff.rememberFailed'), message: (t) => errorTitle(result.error, t) });
}

/** The new-order form. Kept in a store (not component state) so it survives closing and is saved as a draft. */
export const useOrderFormStore = create<OrderFormState>((set, get) => {
  /** Applies one edit: derived amounts follow, the form becomes worth a draft, errors of the edited fields clear. */
  const edit = (change: (v: OrderFormValues) => OrderFormValues, clears: readonly string[] = [], extra?: (s: OrderFormState) => Partial<OrderFormState>) =>
    set((s) => ({
      values: withDerivedCosts(change(s.values)),
      dirty: true,
      version: s.version + 1,
      serverErrors: withoutPaths(s.serverErrors, clears),
      ...extra?.(s),
    }));

  /** A fresh form takes the default sender profile; asked anew each time, as settings may have changed the profiles. */
  /**
   * A new order is offered the number after the shop's latest, unless the user has started on the form. A
   * brand-new shop (no orders, no drafts) is offered its first; one with drafts only has begun numbering its own way.
   */
  const offerNextNumber = async () => {
    const latest = await getTransport().invoke('orders.list', { limit: 20, offset: 0, withTotal: false });
    const first = latest.ok && latest.value.rows.length === 0;
    const drafts = first ? await getTransport().invoke('drafts.list', { limit: 1, offset: 0 }) : undefined;
    if (drafts && (!drafts.ok || drafts.value.rows.length > 0)) return;
    const next = latest.ok ? nextClientNumber(latest.value.rows.map((r) => r.clientNumber)) : undefined;
    const { values, dirty, editingOrderId, draftId } = get();
    if (!next || dirty || editingOrderId || draftId || values.order.clientNumber !== '') return;
    set((s) => ({ values: { ...s.values, order: { ...s.values.order, clientNumber: next } }, offeredNumber: next, offeredFirst: first }));
  };

  const prefillSender = async () => {
    await useSenderProfilesStore.getState().load(true);
    const profile = useSenderProfilesStore.getState().defaultProfile();
    const { values, dirty } = get();
    if (!profile || dirty || Object.values(values.sender).some((v) => v.trim() !== '')) return;
    get().applySender(profile.sender, false);
  };

  /** Saves the form in hand (if it is worth a draft) and opens an empty one; `keepChoices` keeps its service and drop-off. */
  const startBlank = async (keepChoices: boolean) => {
    if (get().submitting) return;
    await get().draftHooks?.flush();
    set((s) => ({ ...freshForm(initialValues(keepChoices ? s.values : undefined)), version: s.version + 1, opened: true }));
    refreshServices();
    void offerNextNumber();
    void prefillSender();
  };

  return {
    opened: false,
    values: initialValues(),
    dirty: false,
    version: 0,
    draftId: null,
    copied: false,
    extraTypes: {},
    touched: {},
    submitAttempted: false,
    submitting: false,
    serverErrors: {},
    failure: undefined,
    draftHooks: undefined,
    offeredNumber: null,
    offeredFirst: false,

    open: () => {
      if (get().copied || get().editingOrderId !== null) {
        void startBlank(false);
        return;
      }
      set({ opened: true });
      refreshServices();
      void offerNextNumber();
      void prefillSender();
    },
    close: () => {
      if (get().submitting) return;
      set({ opened: false });
      void get().draftHooks?.flush();
    },

    startNew: () => startBlank(true),

    openDraft: async (id, failure) => {
      if (get().submitting) return false;
      if (get().draftId !== id) await get().draftHooks?.flush();
      const result = await getTransport().invoke('drafts.get', { id });
      if (!result.ok) {
        useToastStore.getState().push({ tone: 'error', title: (t) => t('drafts.openFailed'), message: (t) => t('drafts.openFailedHint') });
        return false;
      }
      refreshServices();
      set((s) => ({
        ...freshForm(valuesOfDraft(result.value.data)),
        draftId: id,
        version: s.version + 1,
        opened: true,
        failure,
        serverErrors: failure ? serverFieldErrors(failure.errors, fieldAliases) : {},
      }));
      return true;
    },

    forgetDraft: (id) => {
      if (get().draftId === id && !get().submitting) set((s) => ({ ...freshForm(initialValues(s.values)), version: s.version + 1 }));
    },

    openWith: (values) => {
      set((s) => ({ ...freshForm(values), copied: true, version: s.version + 1, opened: true }));
      refreshServices();
      void offerNextNumber();
    },

    editingOrderId: null,
    completeEdit: null,
    openForEdit: (orderId, values, complete) => {
      set((s) => ({ ...freshForm(values), editingOrderId: orderId, completeEdit: complete ?? null, version: s.version + 1, opened: true }));
      refreshServices();
    },

    setField: (group, field, value) => edit((v) => ({ ...v, [group]: { ...v[group], [field]: value } }), [scalarPath(group, field)]),

    setPlaceField: (place, field, value) =>
      edit(
        (v) => ({ ...v, places: v.places.map((p, i) => (i === place ? { ...p, [field]: value } : p)) }),
        field === 'weight' ? [placePath(place, field), 'order.weight'] : [placePath(place, field)],
      ),

    setItemField: (place, index, field, value) =>
      edit(
        (v) => ({
          ...v,
          places: v.places.map((p, pi) => (pi === place ? { ...p, items: p.items.map((item, ii) => (ii === index ? { ...item, [field]: value } : item)) } : p)),
        }),
        [itemPath(place, index, field)],
      ),

    addPlace: () => edit((v) => ({ ...v, places: [...v.places, emptyPlace()] })),

    removePlace: (place) => {
      if (get().values.places.length <= 1) return;
      edit(
        (v) => ({ ...v, places: v.places.filter((_, i) => i !== place) }),
        [],
        (s) => ({ serverErrors: withoutPrefix(s.serverErrors, 'places.'), touched: withoutPrefix(s.touched, 'places.') }),
      );
    },

    addItem: (place) => edit((v) => ({ ...v, places: v.places.map((p, i) => (i === place ? { ...p, items: [...p.items, emptyItem()] } : p)) })),

    removeItem: (place, index) => {
      if ((get().values.places[place]?.items.length ?? 0) <= 1) return;
      const prefix = `places.${place}.items.`;
      edit(
        (v) => ({ ...v, places: v.places.map((p, i) => (i === place ? { ...p, items: p.items.filter((_, ii) => ii !== index) } : p)) }),
        [],
        (s) => ({ serverErrors: withoutPrefix(s.serverErrors, prefix), touched: withoutPrefix(s.touched, prefix) }),
      );
    },

    setCod: (value) => edit((v) => ({ ...v, codManual: true, cost: { ...v.cost, codCost: value } }), ['cost.codCost']),
    followItemsTotal: () => edit((v) => ({ ...v, codManual: false }), ['cost.codCost']),
    setAssessed: (value) => edit((v) => ({ ...v, assessedManual: true, cost: { ...v.cost, assessedCost: value } }), ['cost.assessedCost']),
    followItemsForAssessed: () => edit((v) => ({ ...v, assessedManual: false }), ['cost.assessedCost']),
    setCodIncludesDelivery: (included) => edit((v) => ({ ...v, codIncludesDelivery: included, codManual: false }), ['cost.codCost']),

    setRecipientAddressMode: (mode) => edit((v) => ({ ...v, recipientAddressMode: mode }), ['recipient.city', 'recipient.addressString']),

    setExtraParam: (name, value) => edit((v) => ({ ...v, extraParams: { ...v.extraParams, [name]: value } }), [`extraParams.${name}`]),

    setExtraTypes: (types) => set({ extraTypes: types }),

    chooseService: (providerKey) =>
      edit(
        (v) =>
          v.order.providerKey === providerKey
            ? v
            : {
                ...v,
                order: { ...v.order, providerKey, tariffId: '', pointOutId: '', pointInId: '', deliveryDate: '', deliveryTimeStart: '', deliveryTimeEnd: '' },
                cost: { ...v.cost, quotedDeliveryCost: '' },
                point: null,
                dropOffPoint: null,
                extraParams: {},
              },
        ['order.providerKey'],
      ),

    chooseTariff: ({ providerKey, tariffId, deliveryType, pickupType, price }) =>
      edit(
        (v) => {
          const serviceChanged = v.order.providerKey !== providerKey;
          const toPoint = deliveryType === 2;
          return {
            ...v,
            order: {
              ...v.order,
              providerKey,
              tariffId: String(tariffId),
              deliveryType: toPoint ? '2' : '1',
              pickupType: pickupType === 2 ? '2' : '1',
              // A point or an interval of another service means nothing to this one.
              pointOutId: serviceChanged || !toPoint ? '' : v.order.pointOutId,
              pointInId: serviceChanged ? '' : v.order.pointInId,
              deliveryDate: serviceChanged ? '' : v.order.deliveryDate,
              deliveryTimeStart: serviceChanged ? '' : v.order.deliveryTimeStart,
              deliveryTimeEnd: serviceChanged ? '' : v.order.deliveryTimeEnd,
            },
            // A tariff chosen by hand has no known price.
            cost: { ...v.cost, quotedDeliveryCost: price === undefined ? '' : String(price) },
            point: serviceChanged || !toPoint ? null : v.point,
            dropOffPoint: serviceChanged ? null : v.dropOffPoint,
            extraParams: serviceChanged ? {} : v.extraParams,
          };
        },
        ['order.providerKey', 'order.tariffId', 'order.deliveryType', 'order.pickupType'],
      ),

    choosePoint: (point) =>
      edit((v) => ({ ...v, point, order: { ...v.order, pointOutId: point ? String(point.id) : '' }, recipient: recipientWithPointIndex(v, point) }), ['order.pointOutId', 'recipient.index']),

    chooseDropOff: (point) => {
      edit((v) => ({ ...v, dropOffPoint: point, order: { ...v.order, pointInId: point ? String(point.id) : '' } }), ['order.pointInId']);
      if (point) void rememberDropOff(point);
    },

    prefillDropOff: (point) =>
      set((s) =>
        s.values.order.providerKey === point.providerKey && !s.values.order.pointInId
          ? { values: { ...s.values, dropOffPoint: point, order: { ...s.values.order, pointInId: String(point.id) } } }
          : s,
      ),

    chooseInterval: (interval) =>
      edit(
        (v) => ({
          ...v,
          order: {
            ...v.order,
            deliveryDate: interval?.date ?? (interval ? '' : v.order.deliveryDate),
            deliveryTimeStart: interval?.from ?? '',
            deliveryTimeEnd: interval?.to ?? '',
          },
        }),
        ['order.deliveryDate', 'order.deliveryTimeStart', 'order.deliveryTimeEnd'],
      ),

    applySender: (sender, asEdit = true) => {
      const next = senderFromProfile(sender);
      if (asEdit) edit((v) => ({ ...v, sender: next }), Object.keys(next).map((f) => `sender.${f}`));
      else set((s) => ({ values: { ...s.values, sender: next } }));
    },

    touch: (path) => set((s) => (s.touched[path] ? s : { touched: { ...s.touched, [path]: true } })),

    submit: async () => {
      const { values, submitting, extraTypes, draftId } = get();
      if (submitting) return { ok: false };
      const check = validateOrderForm(values, extraTypes);
      const focusOrder = visibleFieldPaths(values, Object.keys(extraTypes));
      if (!check.data) {
        set({ submitAttempted: true, failure: undefined });
        return { ok: false, focusPath: focusOrder.find((p) => p in check.errors) };
      }

      set({ submitting: true, failure: undefined, submitAttempted: true });
      const { editingOrderId: editing, completeEdit } = get();
      const result = editing
        ? await sendChanges(editing, (completeEdit ? completeEdit(check.data) : check.data) as CommandInput<'orders.create'>)
        : await getTransport().invoke('orders.create', check.data);
      if (!result.ok) {
        const serverErrors = serverFieldErrors(result.error.errors, fieldAliases);
        set({ submitting: false, failure: result.error, serverErrors });
        return { ok: false, focusPath: focusOrder.find((p) => p in serverErrors) };
      }

      const number = check.data.order.clientNumber;
      const service = providerName(useProvidersStore.getState().providers, check.data.order.providerKey);
      useToastStore.getState().push({
        tone: 'success',
        title: (t) => (editing ? t('detail.edit.sent', { number }) : t('form.created', { number })),
        message: (t) => (editing ? t('detail.edit.sentHint', { service }) : t('form.createdHint', { service })),
      });
      set((s) => ({ ...freshForm(initialValues(values)), opened: false, submitting: false, version: s.version + 1 }));
      if (draftId) void get().draftHooks?.discard(draftId);
      if (!editing) {
        // Created from the "Today" screen: the new order is shown where it lives, in the list.
        if (useNavigationStore.getState().page === 'today') useNavigationStore.getState().go('orders');
        void useOrdersStore.getState().reveal(result.value.orderId);
      }
      return { ok: true, orderId: result.value.orderId };
    },

    installDraftHooks: (hooks) => set({ draftHooks: hooks }),
  };
});
