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
import type { Dictionary } from './types';

/** Russian strings; typed as a complete Dictionary so a missing key fails the type check. */
export const ru: Dictionary = {
  ...core.ru,
  ...ordersList.ru,
  ...orderEntry.ru,
  ...drafts.ru,
  ...settings.ru,
  ...database.ru,
  ...importWizard.ru,
  ...orderDetail.ru,
  ...activity.ru,
  ...coreMessages.ru,
  ...access.ru,
  ...courier.ru,
  ...print.ru,
  ...today.ru,
};
