import {
  calculatorRequestSchema, calculatorResultSchema, intervalsRequestSchema, intervalsResultSchema,
} from '../../../../shared/schemas/calculator';
import { parseCalculatorInput } from '../../calculator/calculator-service';
import { bodyRows, calculatorRow, unauthorizedRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

/** The calculator of the interface: cost and term, and delivery intervals. Validation errors are 040003. */
export const calculatorRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/calculator',
    body: calculatorRequestSchema,
    answer: calculatorResultSchema,
    parse: parseCalculatorInput,
    doc: {
      id: 'calculate',
      tag: 'Calculator',
      summary: 'Cost and term of delivery',
      summaryRu: 'Расчёт стоимости и сроков',
      description: [
        'Prices every matching tariff of every delivery service, to the door (`deliveryToDoor`) and to a point (`deliveryToPoint`, with the ids of the service\'s open points in the destination city that can take the parcel), cheapest first.',
        '- `from` / `to`: a city, an address line or lat and lng; `countryCode` RU when absent. `places` (or the older single-parcel form with `weight`, `length`, `width`, `height` at the top) in grams and centimetres.',
        '- `providerKeys`, `tariffIds`, `pickupTypes`, `deliveryTypes` narrow the answer; `pointInId` / `pointOutId` keep only their service\'s tariffs through that point.',
        '- `deliveryCost` includes the insurance (`assessedCost`) and cash-on-delivery (`codCost`) fees, exact to the kopeck (`feesIncluded`, `insuranceFee`, `cashServiceFee` show them, ours); `deliveryCostOriginal` equals it. A service without cash on delivery drops out when `codCost` > 0.',
        '- A single value where a list is expected counts as a list of one; an empty XML element is "not given".',
        'Validation errors of this call are **040003** (not 040002), with `errors[]` naming the fields.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: {
        name: 'CalculatorRequest',
        description: 'What to price.',
        example: { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1200, length: 30, width: 20, height: 10 }], codCost: 2990.5, assessedCost: 2500 },
      },
      answer: { name: 'CalculatorResult', description: 'The priced tariffs.' },
      errors: [
        unauthorizedRow,
        calculatorRow('The body breaks the schema, names an unknown delivery service, a pickupDate before today, or a point that does not exist, is closed or cannot do its part.'),
        ...bodyRows,
      ],
    },
    handler: (req, app) => app.services.calculator.calculate(req.body),
  }),
  defineRoute({
    method: 'POST',
    pattern: '/calculator/intervals',
    body: intervalsRequestSchema,
    answer: intervalsResultSchema,
    parse: parseCalculatorInput,
    doc: {
      id: 'calculateIntervals',
      tag: 'Calculator',
      summary: 'Delivery intervals',
      summaryRu: 'Интервалы доставки',
      description: [
        'The door-delivery tariffs of the services that use fixed or dynamic intervals (services without intervals answer nothing: any interval may be given at creation).',
        '- Fixed intervals come with `date: null` (in XML an empty element) and hold on any delivery day; dynamic ones come with concrete dates, a week of slots from the earliest delivery day.',
        '- `pickupDate` (YYYY-MM-DD or a timestamp, by the date written in it): today when absent, never in the past; a pickup asked for today after 14:00 leaves tomorrow. `deliveryDate`: the dynamic service answers only that day; fixed ones ignore it; before the pickup date is 040003.',
        '- Every field is optional; `providerKeys`, `tariffIds`, `pickupTypes` narrow the answer. Validation errors are 040003.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'IntervalsRequest', description: 'Where and when.', example: { to: { city: 'Москва' }, pickupDate: '2026-03-02' } },
      answer: { name: 'IntervalsResult', description: 'The intervals per service and tariff.' },
      errors: [unauthorizedRow, calculatorRow('The body breaks the schema, names an unknown delivery service, a pickupDate before today, or a deliveryDate before the pickup date.'), ...bodyRows],
    },
    handler: (req, app) => app.services.intervals.intervals(req.body),
  }),
];
