import type { ServerResponse } from 'node:http';
import type { App } from '../../app';
import { COMMAND_BODY_LIMIT } from '../body-limits';
import type { Route } from '../route';

const heartbeatMs = 25_000;

/**
 * The browser-mode transport: the same command table Electron serves over IPC, as
 * `POST /app/commands/<name>` answering a Result, and push events as a Server-Sent Events stream.
 */
export function appTransportRoutes(app: App): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/app/commands/:name',
      bodyLimit: COMMAND_BODY_LIMIT,
      handler: (req) => app.dispatch(req.params.name, req.ctx, req.body),
    },
    {
      method: 'GET',
      pattern: '/app/events',
      handler: async (req) => ({
        stream(res: ServerResponse) {
          res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
          res.write(': connected\n\n');
          const unsubscribe = app.events.subscribe((event) => {
            if (event.companyId !== undefined && event.companyId !== req.ctx.companyId) return;
            const { companyId: _omit, ...visible } = event;
            res.write(`data: ${JSON.stringify(visible)}\n\n`);
          });
          const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
          res.on('close', () => {
            clearInterval(heartbeat);
            unsubscribe();
          });
        },
      }),
    },
  ];
}
