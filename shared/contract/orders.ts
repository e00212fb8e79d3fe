import { z } from 'zod';
import { command } from './define';
import { orderCreateSchema, orderCreatedSchema } from '../schemas/order';
import { orderListPageSchema, orderListQuerySchema } from '../schemas/orders-list';

export const orderCommands = {
  'orders.create': command('Create an order and queue it for its delivery service', orderCreateSchema, orderCreatedSchema),
  'orders.list': command('One page of the company\'s orders, newest first', orderListQuerySchema, orderListPageSchema),
};
