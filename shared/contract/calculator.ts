import { command } from './define';
import { shopStaff } from '../roles';
import { calculatorAnswerSchema, calculatorRequestSchema, intervalsRequestSchema, intervalsResultSchema } from '../schemas/calculator';

export const calculatorCommands = {
  'calculator.calculate': command(
    'Cost and term of a shipment with each delivery service, to the door and to a pickup point; the services that could not be asked are named',
    calculatorRequestSchema,
    calculatorAnswerSchema,
    shopStaff,
  ),
  'calculator.intervals': command('Delivery intervals of the services that use fixed or dynamic ones', intervalsRequestSchema, intervalsResultSchema, shopStaff),
};
