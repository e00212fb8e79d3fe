declare module 'pino-roll' {
  import type { DestinationStream } from 'pino';

  interface PinoRollOptions {
    file: string | (() => string);
    size?: number | string;
    frequency?: number | 'daily' | 'hourly';
    extension?: string;
    symlink?: boolean;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    dateFormat?: string;
    mkdir?: boolean;
    sync?: boolean;
  }

  type RollingStream = DestinationStream & NodeJS.EventEmitter & { end(): void; flushSync(): void };

  export default function build(options: PinoRollOptions): Promise<RollingStream>;
}
