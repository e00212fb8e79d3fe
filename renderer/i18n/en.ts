import * as access from './sections/access';
import * as activity from './sections/activity';
import * as core from './sections/core';
import * as courier from './sections/courier';
import * as database from './sections/database';
import * as drafts from './sections/drafts';
import * as importWizard from './sections/import-wizard';
import * as orderDetail from './sections/order-detail';
import * as orderEntry from './sections/order-entry';
import * as print from './sections/print';
import * as ordersList from './sections/orders-list';
import * as coreMessages from './sections/core-messages';
import * as settings from './sections/settings';
import * as today from './sections/today';

/**
 * English strings, gathered from one file per part of the app (`sections/`). This object defines the
 * message keys: every other dictionary must have exactly these keys (a type error otherwise).
 * `{name}` marks a parameter of `t()`.
 */
export const en = {
  ...core.en,
  ...ordersList.en,
  ...orderEntry.en,
  ...drafts.en,
  ...settings.en,
  ...database.en,
  ...importWizard.en,
  ...orderDetail.en,
  ...activity.en,
  ...coreMessages.en,
  ...access.en,
  ...courier.en,
  ...print.en,
  ...today.en,
} as const;
