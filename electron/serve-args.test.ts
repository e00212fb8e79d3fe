import { defaultPort, parseServeArgs } from './serve-args';
import { describeDatabase } from './core/settings/database-choice';

describe('serve command line', () => {
  it('defaults to port 4318 and the app-data folder', () => {
    const options = parseServeArgs([], { XDG_CONFIG_HOME: '/home/shop/.config' });
    expect(options.port).toBe(defaultPort);
    expect(options.tokens).toEqual([]);
    if (process.platform === 'linux') expect(options.dataDir).toBe('/home/shop/.config/ShipDesk');
  });

  it('takes a port, a data folder and several tokens', () => {
    expect(parseServeArgs(['--port', '0', '--data-dir', '/tmp/shop', '--token', 'first-token', '--token', 'second-token'])).toEqual({
      port: 0,
      dataDir: '/tmp/shop',
      tokens: ['first-token', 'second-token'],
      webRoot: undefined,
    });
  });

  it('takes a PostgreSQL server to keep the data on', () => {
    expect(parseServeArgs(['--database', 'postgres://shop:secret@db.local:5432/shipdesk']).database).toBe('postgres://shop:secret@db.local:5432/shipdesk');
    expect(parseServeArgs([]).database).toBeUndefined();
  });

  it('takes the outbox\'s lease and first wait after a failure, in seconds', () => {
    const { outbox } = parseServeArgs(['--lease-seconds', '2', '--retry-seconds', '0.2']);
    expect(outbox?.leaseMs).toBe(2_000);
    // The first wait is 0.1–0.2 s (the upper half, jittered), the third 0.4–0.8 s.
    for (const [attempts, least, most] of [[1, 100, 200], [3, 400, 800]]) {
      const wait = outbox!.backoff!(attempts);
      expect(wait).toBeGreaterThanOrEqual(least);
      expect(wait).toBeLessThanOrEqual(most);
    }
    expect(parseServeArgs([]).outbox).toBeUndefined();
  });

  it.each([
    [['--lease-seconds', '0.5'], /--lease-seconds must be a number of seconds from 1 to 86400, not 0.5/],
    [['--retry-seconds', 'soon'], /--retry-seconds must be a number of seconds/],
    [['--database', '/tmp/shop.db'], /--database must be a PostgreSQL URL/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--token', 'short'], /--token must be 8 to 200/],
    [['--token', 'has a space in it'], /--token must be 8 to 200/],
    [['--colour', 'red'], /Unknown option/],
  ])('refuses %j', (args, message) => {
    expect(() => parseServeArgs(args)).toThrow(message);
  });

  it('the start line names the database opened, a PostgreSQL server without its password', () => {
    expect(describeDatabase({ file: '/data/shipdesk.db' })).toBe('/data/shipdesk.db');
    expect(describeDatabase({ postgres: 'postgres://shop:s3cret%40x@db.local:5433/shipdesk' })).toBe('PostgreSQL postgres://shop@db.local:5433/shipdesk');
  });
});
