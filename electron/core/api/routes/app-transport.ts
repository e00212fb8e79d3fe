import type { ServerResponse } from 'node:http';
import { eventRoles } from '../../../../shared/contract/events';
import type { App } from '../../app';
import { commandBodyFile, commandBodyLimit } from '../body-limits';
import type { Caller } from '../../auth/caller';
import { authorizeAccess, refusalStatus } from '../../commands';
import { AppError } from '../../errors';
import { subscribeCompany } from '../../events';
import type { Route } from '../route';

const heartbeatMs = 25_000;

/**
 * The browser-mode transport: the same command table Electron serves over IPC, as
 * `POST /app/commands/<name>` answering a Result, and push events as a Server-Sent Events stream.
 * Callers come from browser sessions; the command table checks each command's roles.
 */
export function appTransportRoutes(app: App): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/app/commands/:name',
      session: true,
      // Each command's own (shared/contract), checked as the body streams in: a small command's 2 MiB body is refused at 1 MiB.
      bodyLimit: (params) => commandBodyLimit(params.name),
      // The wizard's workbook comes as bytes decoded in the body-parsing thread, as the upload's does.
      bodyFile: (params) => commandBodyFile(params.name),
      handler: async (req) => {
        const result = await app.dispatch(req.params.name, req.caller, req.body);
        // A refusal travels as the interface's error body with its own status (401, 403, 429).
        const status = result.ok ? undefined : refusalStatus[result.error.code];
        if (!result.ok && status) throw new AppError(status, result.error);
        return result;
      },
    },
    {
      method: 'GET',
      pattern: '/app/events',
      session: true,
      handler: async (req) => {
        authorizeAccess(eventRoles, req.caller, 'The event stream');
        const caller = req.caller as Caller;
        return {
          stream(res: ServerResponse) {
            res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
            res.write(': connected\n\n');
            // Writing to an ended response emits an error nobody listens to, which would kill the server:
            // every write checks the stream is still open, and closing unsubscribes before it ends.
            const send = (chunk: string) => {
              if (!res.writableEnded && !res.destroyed) res.write(chunk);
            };
            const heartbeat = setInterval(() => send(': ping\n\n'), heartbeatMs);
            const stop = () => {
              clearInterval(heartbeat);
              unsubscribe();
            };
            const unsubscribe = subscribeCompany(app.events, caller.companyId, (event) => {
              send(`data: ${JSON.stringify(event)}\n\n`);
              // An ended session's stream closes; its reconnect is refused and the window asks to sign in.
              if (event.type === 'session.ended' && event.sessionId === caller.sessionId) {
                stop();
                res.end();
              }
            });
            res.on('close', stop);
          },
        };
      },
    },
  ];
}
