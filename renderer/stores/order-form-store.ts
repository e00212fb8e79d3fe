import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import {
  emptyItem, fieldAliases, initialValues, itemPath, scalarPath, visibleFieldPaths,
  type ItemField, type OrderFormValues, type ScalarField, type ScalarGroup,
} from '../order-form/form-values';
import { validateOrderForm } from '../order-form/validate-order-form';
import { serverFieldErrors, type FieldErrors } from '../order-form/zod-issues';
import { getTransport } from '../transport/current';
import { useOrdersStore } from './orders-store';
import { providerName, useProvidersStore } from './providers-store';
import { useToastStore } from './toast-store';

export type SubmitOutcome = { ok: true; orderId: string } | { ok: false; focusPath?: string };

interface OrderFormState {
  opened: boolean;
  values: OrderFormValues;
  /** Fields the user has left; their client-side errors show from then on. */
  touched: Readonly<Record<string, true>>;
  /** After a submit attempt every error shows. */
  submitAttempted: boolean;
  submitting: boolean;
  /** Field errors the core returned; each clears when its field is edited. */
  serverErrors: FieldErrors;
  /** The core's refusal, shown above the buttons. */
  failure: ErrorBody | undefined;

  open: () => void;
  close: () => void;
  setField: <G extends ScalarGroup>(group: G, field: ScalarField<G>, value: string) => void;
  setItemField: (index: number, field: ItemField, value: string) => void;
  addItem: () => void;
  removeItem: (index: number) => void;
  touch: (path: string) => void;
  submit: () => Promise<SubmitOutcome>;
}

const without = (errors: FieldErrors, path: string): FieldErrors => {
  if (!(path in errors)) return errors;
  const { [path]: _removed, ...rest } = errors;
  return rest;
};

/** Drops errors under a prefix: item indexes shift after a removal, so their server errors no longer match. */
const withoutPrefix = (errors: FieldErrors, prefix: string): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([path]) => !path.startsWith(prefix)));

/** The new-order form. Kept in a store (not component state) so it survives closing and can become a draft. */
export const useOrderFormStore = create<OrderFormState>((set, get) => ({
  opened: false,
  values: initialValues(),
  touched: {},
  submitAttempted: false,
  submitting: false,
  serverErrors: {},
  failure: undefined,

  open: () => {
    set({ opened: true });
    void useProvidersStore.getState().load();
  },
  close: () => {
    if (!get().submitting) set({ opened: false });
  },

  setField: (group, field, value) =>
    set((s) => {
      const path = scalarPath(group, field);
      return {
        values: { ...s.values, [group]: { ...s.values[group], [field]: value } },
        serverErrors: path === 'order.weight' ? without(without(s.serverErrors, path), 'places.0.weight') : without(s.serverErrors, path),
      };
    }),

  setItemField: (index, field, value) =>
    set((s) => ({
      values: { ...s.values, items: s.values.items.map((item, i) => (i === index ? { ...item, [field]: value } : item)) },
      serverErrors: without(s.serverErrors, itemPath(index, field)),
    })),

  addItem: () => set((s) => ({ values: { ...s.values, items: [...s.values.items, emptyItem()] } })),

  removeItem: (index) =>
    set((s) => {
      if (s.values.items.length <= 1) return s;
      return {
        values: { ...s.values, items: s.values.items.filter((_, i) => i !== index) },
        serverErrors: withoutPrefix(s.serverErrors, 'places.0.items.'),
        touched: Object.fromEntries(Object.entries(s.touched).filter(([path]) => !path.startsWith('places.0.items.'))),
      };
    }),

  touch: (path) => set((s) => (s.touched[path] ? s : { touched: { ...s.touched, [path]: true } })),

  submit: async () => {
    const { values, submitting } = get();
    if (submitting) return { ok: false };
    const check = validateOrderForm(values);
    if (!check.data) {
      set({ submitAttempted: true, failure: undefined });
      return { ok: false, focusPath: visibleFieldPaths(values).find((p) => p in check.errors) };
    }

    set({ submitting: true, failure: undefined, submitAttempted: true });
    const result = await getTransport().invoke('orders.create', check.data);
    if (!result.ok) {
      const serverErrors = serverFieldErrors(result.error.errors, fieldAliases);
      set({ submitting: false, failure: result.error, serverErrors });
      return { ok: false, focusPath: visibleFieldPaths(values).find((p) => p in serverErrors) };
    }

    const number = check.data.order.clientNumber;
    const service = providerName(useProvidersStore.getState().providers, check.data.order.providerKey);
    useToastStore.getState().push({
      tone: 'success',
      title: (t) => t('form.created', { number }),
      message: (t) => t('form.createdHint', { service }),
    });
    set({
      opened: false,
      submitting: false,
      values: initialValues(values),
      touched: {},
      submitAttempted: false,
      serverErrors: {},
    });
    void useOrdersStore.getState().reveal(result.value.orderId);
    return { ok: true, orderId: result.value.orderId };
  },
}));
