import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';
import {
  cityRecordSchema, citySearchSchema, pointSchema, pointSearchPageSchema, pointSearchSchema, providerServiceSchema, serviceSearchSchema,
  tariffSchema, tariffSearchSchema,
} from '../schemas/lists';

/** Reference lists for the order screen: the pickup-point picker, tariffs and additional services. */
export const listCommands = {
  'lists.points': command(
    'Pickup points for the picker: search text, service, city (or a settlement in it), COD, fitting room, type, what the parcel needs; paged',
    pointSearchSchema,
    pointSearchPageSchema,
    shopStaff,
  ),
  'lists.point': command(
    'One point of a delivery service by id (null when the service has no such point)',
    z.object({ providerKey: z.string().trim().min(1).max(50), id: z.number().int().positive() }),
    pointSchema.nullable(),
    shopStaff,
  ),
  'lists.cities': command('Cities that have pickup points, most points first; search matches the start of the name', citySearchSchema, z.array(cityRecordSchema), shopStaff),
  'lists.tariffs': command('Tariffs, optionally of one service, for a pickup/delivery type and weight', tariffSearchSchema, z.array(tariffSchema), shopStaff),
  'lists.services': command('Additional services (extraParams) of a delivery service, or of all', serviceSearchSchema, z.array(providerServiceSchema), shopStaff),
};
