import { command } from './define';
import { shopStaff } from '../roles';
import { orderCreateSchema, orderCreatedSchema } from '../schemas/order';
import {
  orderCanceledSchema, orderDeletedSchema, orderRefSchema, orderUpdateCommandSchema, orderUpdatedSchema, orderViewSchema,
} from '../schemas/order-detail';
import { orderListPageSchema, orderListQuerySchema } from '../schemas/orders-list';

export const orderCommands = {
  'orders.create': command('Create an order and queue it for its delivery service', orderCreateSchema, orderCreatedSchema, shopStaff),
  'orders.list': command('One page of the company\'s orders, newest first', orderListQuerySchema, orderListPageSchema, shopStaff),
  'orders.get': command(
    'One order: its data, numbers at the delivery service, status, and which changes it allows now (actions)',
    orderRefSchema,
    orderViewSchema,
    shopStaff,
  ),
  'orders.update': command(
    'Replace an order\'s data (same payload as create); a failed or registered order is sent again where its service allows',
    orderUpdateCommandSchema,
    orderUpdatedSchema,
    shopStaff,
  ),
  'orders.cancel': command('Cancel an order (deliveryCanceled); its clientNumber is free again', orderRefSchema, orderCanceledSchema, shopStaff),
  'orders.delete': command('Delete an order where its state and service allow; its clientNumber is free again', orderRefSchema, orderDeletedSchema, shopStaff),
};
