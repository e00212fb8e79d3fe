import type { ProviderInfo } from '../../../../shared/contract/providers';

/** A tariff of a sandbox service. Weights in grams. */
export interface SandboxTariff {
  id: number;
  name: string;
  pickupType: 1 | 2;
  deliveryType: 1 | 2;
  weightMin: number;
  weightMax: number;
  paymentCash: boolean;
}

export interface SandboxService {
  info: ProviderInfo;
  /** Prefix of the tracking numbers it gives out. */
  numberPrefix: string;
  tariffs: SandboxTariff[];
}

const test = 'Тестовая служба доставки: заказы никуда не отправляются.';

/**
 * The built-in test services. Together they cover every case of the interface: update and cancel,
 * neither (delete instead), cancel only; no, fixed and dynamic intervals.
 */
export const sandboxServices: SandboxService[] = [
  {
    info: {
      key: 'sandbox-express',
      name: 'Песочница Экспресс (тест)',
      description: `${test} Изменение и отмена заказов, динамические интервалы доставки.`,
      test: true,
      capabilities: { cancel: true, update: true, intervals: 'dynamic', deliveryTypes: [1, 2], pickupTypes: [1, 2], cod: true },
    },
    numberPrefix: 'SBE',
    tariffs: [
      { id: 101, name: 'Экспресс склад-склад', pickupType: 2, deliveryType: 2, weightMin: 1, weightMax: 30_000, paymentCash: true },
      { id: 102, name: 'Экспресс склад-дверь', pickupType: 2, deliveryType: 1, weightMin: 1, weightMax: 30_000, paymentCash: true },
      { id: 103, name: 'Экспресс дверь-дверь', pickupType: 1, deliveryType: 1, weightMin: 1, weightMax: 50_000, paymentCash: false },
      { id: 104, name: 'Экспресс дверь-склад', pickupType: 1, deliveryType: 2, weightMin: 1, weightMax: 30_000, paymentCash: true },
    ],
  },
  {
    info: {
      key: 'sandbox-post',
      name: 'Песочница Почта (тест)',
      description: `${test} Без изменения и отмены: заказ удаляют и регистрируют заново. Фиксированные интервалы.`,
      test: true,
      capabilities: { cancel: false, update: false, intervals: 'fixed', deliveryTypes: [1, 2], pickupTypes: [2], cod: true },
    },
    numberPrefix: 'SBP',
    tariffs: [
      { id: 201, name: 'Посылка до отделения', pickupType: 2, deliveryType: 2, weightMin: 1, weightMax: 20_000, paymentCash: true },
      { id: 202, name: 'Посылка до двери', pickupType: 2, deliveryType: 1, weightMin: 1, weightMax: 20_000, paymentCash: false },
    ],
  },
  {
    info: {
      key: 'sandbox-lockers',
      name: 'Песочница Постаматы (тест)',
      description: `${test} Только отмена, без изменения; доставка в постаматы и пункты выдачи, без интервалов.`,
      test: true,
      capabilities: { cancel: true, update: false, intervals: 'none', deliveryTypes: [2], pickupTypes: [1, 2], cod: false },
    },
    numberPrefix: 'SBL',
    tariffs: [
      { id: 301, name: 'Постамат от двери', pickupType: 1, deliveryType: 2, weightMin: 1, weightMax: 15_000, paymentCash: false },
      { id: 302, name: 'Постамат со склада', pickupType: 2, deliveryType: 2, weightMin: 1, weightMax: 15_000, paymentCash: false },
    ],
  },
];
