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
    /** SonicBoom's: bytes gathered before a write (0: each write at once). */
    minLength?: number;
  }

  type RollingStream = DestinationStream & NodeJS.EventEmitter & {
    end(): void;
    flushSync(): void;
    /** SonicBoom's: calls back when what was written so far is on disk (only when minLength > 0). */
    flush(cb: (err?: Error) => void): void;
    readonly destroyed: boolean;
  };

  export default function build(options: PinoRollOptions): Promise<RollingStream>;
}
