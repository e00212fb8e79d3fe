import type { z } from 'zod';
import { apiLoginCommands } from './api-login';
import { authCommands } from './auth';
import { bulkCommands } from './bulk';
import { calculatorCommands } from './calculator';
import { connectionCommands } from './connections';
import { courierCommands } from './courier';
import { dashboardCommands } from './dashboard';
import { databaseCommands } from './database';
import { draftCommands } from './drafts';
import { importCommands } from './import';
import { labelCommands } from './labels';
import { lanCommands } from './lan';
import { dispatchCommands } from './dispatch';
import { listCommands } from './lists';
import { orderCommands } from './orders';
import { providerCommands } from './providers';
import { settingsCommands } from './settings';
import { statusRefreshCommands } from './status-refresh';
import { statusCommands } from './statuses';
import { webhookCommands } from './webhooks';

/** Every command of the app: served over Electron IPC, the browser-mode HTTP transport and in tests. */
export const contract = {
  ...orderCommands,
  ...providerCommands,
  ...statusCommands,
  ...statusRefreshCommands,
  ...calculatorCommands,
  ...listCommands,
  ...connectionCommands,
  ...importCommands,
  ...draftCommands,
  ...settingsCommands,
  ...databaseCommands,
  ...bulkCommands,
  ...labelCommands,
  ...lanCommands,
  ...dispatchCommands,
  ...courierCommands,
  ...dashboardCommands,
  ...apiLoginCommands,
  ...webhookCommands,
  ...authCommands,
};

export type Contract = typeof contract;
export type CommandName = keyof Contract;
export type CommandInput<N extends CommandName> = z.input<Contract[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Contract[N]['output']>;

/** Who may call the command (see shared/roles.ts). */
export const accessOf = (name: CommandName) => contract[name].roles;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(contract, name);
