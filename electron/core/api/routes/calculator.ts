import { calculatorRequestSchema, intervalsRequestSchema } from '../../../../shared/schemas/calculator';
import type { App } from '../../app';
import { parseCalculatorInput } from '../../calculator/calculator-service';
import type { Route } from '../route';

/** The calculator of the interface: cost and term, and delivery intervals. Validation errors are 040003. */
export function calculatorRoutes(app: App): Route[] {
  const { calculator, intervals } = app.services;
  return [
    {
      method: 'POST',
      pattern: '/calculator',
      handler: (req) => calculator.calculate(parseCalculatorInput(calculatorRequestSchema, req.body ?? {})),
    },
    {
      method: 'POST',
      pattern: '/calculator/intervals',
      handler: (req) => intervals.intervals(parseCalculatorInput(intervalsRequestSchema, req.body ?? {})),
    },
  ];
}
