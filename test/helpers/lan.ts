import { request } from 'node:https';
import { createServer, connect } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** Linux sends all of 127/8 to the loopback device: in tests this address stands for the shop's network. */
export const lanTestAddress = '127.0.0.2';

/** A port nothing listens on at this address now. */
export function freePort(address = lanTestAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, address, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Whether anything accepts a TCP connection at address:port (false: refused, as a closed door should). */
export function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface LanAnswer {
  status: number;
  json: any;
  text: string;
  /** SHA-256 of the certificate the server presented, as the settings page shows it. */
  fingerprint256: string;
}

/**
 * An HTTPS call as the second PC makes it: to address:port, naming `host` in the Host header. The self-signed
 * certificate is not checked against a CA (there is none): the caller compares its fingerprint instead.
 */
export function lanCall(address: string, port: number, path: string, options: { host?: string; method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<LanAnswer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: address,
        port,
        path,
        method: options.method ?? (body ? 'POST' : 'GET'),
        rejectUnauthorized: false,
        agent: false,
        headers: { Host: options.host ?? `${address}:${port}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text, fingerprint256 });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
