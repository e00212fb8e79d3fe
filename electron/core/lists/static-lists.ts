import type { ProviderInfo } from '../../../shared/contract/providers';
import type { ProviderRecord, StatusRecord, TypeRecord } from '../../../shared/schemas/lists';
import { finalStatusKeys, statusKeys, statusNames, type StatusKey } from '../../../shared/status-keys';
import type { FilterField } from './filter';

/** The lists that are not tables: providers (from the registry), statuses and the small numbered lists. */

const statusDescriptions: Record<StatusKey, string> = {
  uploading: 'Заказ сохранён и ждёт передачи в службу доставки.',
  uploaded: 'Информация о заказе загружена в систему службы доставки.',
  uploadingError: 'Передать заказ в службу доставки не удалось; заказ можно исправить (PUT) или удалить (DELETE).',
  onPointIn: 'Служба доставки приняла заказ на склад или в пункт приёма.',
  onWay: 'Заказ едет в город получателя.',
  onPointOut: 'Заказ прибыл в город получателя.',
  readyForRecipient: 'Заказ ждёт получателя в пункте выдачи или постамате.',
  delivering: 'Курьер везёт заказ получателю.',
  delivered: 'Заказ вручён получателю.',
  deliveryCanceled: 'Заказ отменён.',
  returnedFromDelivery: 'Получатель не принял заказ, он возвращён на склад службы доставки.',
  partialReturn: 'Получатель выкупил часть вложений; остальное возвращено отправителю.',
  returnReady: 'Возврат готов к выдаче отправителю.',
  returning: 'Заказ едет обратно к отправителю.',
  returned: 'Заказ возвращён отправителю.',
  problem: 'Служба доставки сообщила о проблеме с заказом.',
  lost: 'Служба доставки сообщила об утере заказа.',
  unknown: 'Служба доставки передала статус, которому нет соответствия.',
  notApplicable: 'Статус не применим к этому заказу.',
};

/** `/lists/statuses`: every status key with its Russian name, a description and whether it is final. */
export const statusRecords: StatusRecord[] = statusKeys.map((key) => ({
  key,
  name: statusNames[key].ru,
  description: statusDescriptions[key],
  final: finalStatusKeys.has(key),
}));

export const statusFilterFields: Record<string, FilterField> = {
  key: { type: 'key' },
  name: { type: 'text' },
  description: { type: 'text' },
  final: { type: 'flag' },
};
export const statusRecordFields = ['key', 'name', 'description', 'final'] as const;

/** `/lists/providers`: the registry's delivery services (sandbox and connected ones). */
export const providerRecord = (p: ProviderInfo): ProviderRecord => ({
  key: p.key,
  name: p.name,
  description: p.description,
  test: p.test,
  capabilities: p.capabilities,
});

export const providerFilterFields: Record<string, FilterField> = {
  key: { type: 'key' },
  name: { type: 'text' },
  description: { type: 'text' },
  test: { type: 'flag' },
};
export const providerRecordFields = ['key', 'name', 'description', 'test', 'capabilities'] as const;

export const pickupTypes: TypeRecord[] = [
  { id: 1, name: 'От двери', description: 'Курьер службы доставки забирает заказ у отправителя.' },
  { id: 2, name: 'На склад службы', description: 'Отправитель сам привозит заказ на склад или в пункт приёма службы доставки.' },
];

export const deliveryTypes: TypeRecord[] = [
  { id: 1, name: 'До двери', description: 'Курьер доставляет заказ по адресу получателя.' },
  { id: 2, name: 'До пункта выдачи', description: 'Получатель забирает заказ в пункте выдачи, постамате или почтовом отделении (order.pointOutId).' },
];

export const paymentMethods: TypeRecord[] = [
  { id: 1, name: 'Наличные', description: 'Получатель оплачивает наложенный платёж наличными.' },
  { id: 2, name: 'Банковская карта', description: 'Получатель оплачивает наложенный платёж картой.' },
  { id: 3, name: 'Наличные или карта', description: 'Получатель выбирает способ оплаты при получении.' },
  { id: 4, name: 'Без оплаты при получении', description: 'Заказ оплачен заранее; codCost = 0.' },
];

export const pointTypes: TypeRecord[] = [
  { id: 1, name: 'Пункт выдачи', description: 'Пункт выдачи заказов с сотрудником.' },
  { id: 2, name: 'Постамат', description: 'Автоматический постамат; размеры ограничены ячейкой (limits.maxSizeA/B/C).' },
  { id: 3, name: 'Почтовое отделение', description: 'Отделение почтовой связи.' },
  { id: 4, name: 'Терминал', description: 'Склад-терминал службы доставки.' },
];

/** The values of a point's `availableOperation`. */
export const operationTypes: TypeRecord[] = [
  { id: 1, name: 'Приём', description: 'Пункт принимает отправления от магазина (pointInId).' },
  { id: 2, name: 'Выдача', description: 'Пункт выдаёт заказы получателям (pointOutId).' },
  { id: 3, name: 'Приём и выдача', description: 'Пункт и принимает, и выдаёт.' },
];

export const typeFilterFields: Record<string, FilterField> = { id: { type: 'int' }, name: { type: 'text' }, description: { type: 'text' } };
export const typeRecordFields = ['id', 'name', 'description'] as const;
