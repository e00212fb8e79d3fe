import { useEffect, useState } from 'react';
import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import type { ErrorBody } from '../../shared/errors';
import { getTransport } from '../transport/current';

export type CommandState<T> =
  | { status: 'idle' }
  | { status: 'loading'; value?: T }
  | { status: 'ready'; value: T }
  | { status: 'error'; error: ErrorBody; value?: T };

/**
 * Runs a command when its input settles: `input` undefined means "nothing to ask yet". Inputs are
 * compared as JSON, answers to an older input are dropped, and the last value stays on screen while
 * the next one loads (so the table does not flash on every keystroke).
 */
export function useDebouncedCommand<N extends CommandName>(name: N, input: CommandInput<N> | undefined, delayMs: number): CommandState<CommandOutput<N>> {
  const key = input === undefined ? '' : JSON.stringify(input);
  const [state, setState] = useState<CommandState<CommandOutput<N>>>({ status: 'idle' });
  useEffect(() => {
    if (!key) {
      setState({ status: 'idle' });
      return;
    }
    let current = true;
    setState((s) => ({ status: 'loading', value: 'value' in s ? s.value : undefined }));
    const timer = setTimeout(async () => {
      const result = await getTransport().invoke(name, JSON.parse(key) as CommandInput<N>);
      if (!current) return;
      setState((s) => (result.ok ? { status: 'ready', value: result.value } : { status: 'error', error: result.error, value: 'value' in s ? s.value : undefined }));
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [name, key, delayMs]);
  return state;
}
