/** Status keys of the interface (wire conventions), in the order an order usually passes them. */
export const statusKeys = [
  'uploading', 'uploaded', 'uploadingError', 'onPointIn', 'onWay', 'onPointOut', 'readyForRecipient', 'delivering',
  'delivered', 'deliveryCanceled', 'returnedFromDelivery', 'partialReturn', 'returnReady', 'returning', 'returned',
  'problem', 'lost', 'unknown', 'notApplicable',
] as const;
export type StatusKey = (typeof statusKeys)[number];

export const finalStatusKeys: ReadonlySet<StatusKey> = new Set(['delivered', 'returned', 'partialReturn', 'deliveryCanceled', 'lost']);

/** Status names as the interface reports them (Russian, like the aggregator it describes) and in English for the UI. */
export const statusNames: Record<StatusKey, { ru: string; en: string }> = {
  uploading: { ru: 'Передаётся в службу доставки', en: 'Sending to the delivery service' },
  uploaded: { ru: 'Загружен в систему службы доставки', en: 'Registered with the delivery service' },
  uploadingError: { ru: 'Ошибка передачи в службу доставки', en: 'Transfer to the delivery service failed' },
  onPointIn: { ru: 'Принят на склад службы доставки', en: 'Accepted at the delivery service' },
  onWay: { ru: 'В пути', en: 'In transit' },
  onPointOut: { ru: 'Прибыл в город получателя', en: 'Arrived in the recipient city' },
  readyForRecipient: { ru: 'Готов к выдаче', en: 'Ready for pickup' },
  delivering: { ru: 'Передан курьеру', en: 'Out for delivery' },
  delivered: { ru: 'Вручён', en: 'Delivered' },
  deliveryCanceled: { ru: 'Отменён', en: 'Canceled' },
  returnedFromDelivery: { ru: 'Возвращён с доставки', en: 'Returned from delivery' },
  partialReturn: { ru: 'Частичный возврат', en: 'Partially returned' },
  returnReady: { ru: 'Возврат готов к выдаче', en: 'Return ready' },
  returning: { ru: 'Возвращается отправителю', en: 'Returning to sender' },
  returned: { ru: 'Возвращён отправителю', en: 'Returned to sender' },
  problem: { ru: 'Проблема с доставкой', en: 'Delivery problem' },
  lost: { ru: 'Утерян', en: 'Lost' },
  unknown: { ru: 'Статус неизвестен', en: 'Unknown status' },
  notApplicable: { ru: 'Не применимо', en: 'Not applicable' },
};
