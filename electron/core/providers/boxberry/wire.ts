import { z } from 'zod';

/**
 * Boxberry's json.php answers as far as ShipDesk reads them (shared/reference/carriers-ru.md, gwinn/boxberry-sdk's
 * models). Every answer is parsed here at the edge; unknown fields are dropped.
 */

const textish = z.union([z.string(), z.number().transform(String)]);

export const boxberryCreatedSchema = z.object({ track: textish, label: z.string().optional() });

export const boxberryParcelInfoSchema = z.object({ order_id: textish.optional(), track_number: textish.optional(), track: textish.optional() });
/** ParcelInfo answers an array of parcels (or one object holding `result`). */
export const boxberryParcelInfoListSchema = z.union([
  z.array(boxberryParcelInfoSchema),
  z.object({ result: z.array(boxberryParcelInfoSchema) }).transform((o) => o.result),
]);

export const boxberryStatusSchema = z.object({ Date: z.string(), Name: z.string(), Comment: z.string().nullish() });
export type BoxberryStatus = z.output<typeof boxberryStatusSchema>;
export const boxberryStatusesSchema = z.array(boxberryStatusSchema);

export const boxberryLabelSchema = z.object({ label: z.string().min(1) });
export const boxberryActSchema = z.object({ id: textish.optional(), label: z.string().min(1) });

export const boxberryPointSchema = z.object({
  Code: textish,
  Name: z.string().nullish(),
  Address: z.string().nullish(),
  Phone: z.string().nullish(),
  WorkShedule: z.string().nullish(),
  TripDescription: z.string().nullish(),
  GPS: z.string().nullish(),
  CityCode: textish.nullish(),
  CityName: z.string().nullish(),
  Area: z.string().nullish(),
  ZipCode: textish.nullish(),
  OnlyPrepaidOrders: z.string().nullish(),
  Acquiring: z.string().nullish(),
  DigitalSignature: z.string().nullish(),
  VolumeLimit: textish.nullish(),
  LoadLimit: textish.nullish(),
  Postamat: z.union([z.string(), z.boolean()]).nullish(),
  ReceptionLaP: z.string().nullish(),
  DeliveryLaP: z.string().nullish(),
});
export type BoxberryPoint = z.output<typeof boxberryPointSchema>;

export const boxberryCitySchema = z.object({ Code: textish, Name: z.string() });
export const boxberryCitiesSchema = z.array(boxberryCitySchema);

export const boxberryCostsSchema = z.object({ price: z.union([z.number(), z.string()]), price_base: z.union([z.number(), z.string()]).optional(), price_service: z.union([z.number(), z.string()]).optional(), delivery_period: z.union([z.number(), z.string()]).optional() });

/** CreateIntake's answer: Boxberry's message about the intake (its number inside, when it gives one). */
export const boxberryIntakeSchema = z.object({ message: z.string().min(1) });
