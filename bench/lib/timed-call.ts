import { request } from 'node:http';

/** One HTTP call on a fresh connection, resolved with its wall time in ms and status (its answer read and dropped). */
export function timedCall(base: string, token: string, method: string, path: string, body?: Buffer, contentType = 'application/xml'): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method,
      agent: false,
      headers: { Authorization: token, Accept: 'application/json', ...(body ? { 'Content-Type': contentType, 'Content-Length': body.length } : {}) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
