import { once } from 'node:events';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Just enough ZIP for xlsx files: read the central directory (to check a file before any
 * decompression: sizes, ratios, encryption), inflate an entry (whole when small, piece by piece when
 * not), and write an archive with some entries new and every other entry copied byte for byte (the
 * errors file, written as it is made).
 */

export class ZipFormatError extends Error {}

export interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  versionMadeBy: number;
  versionNeeded: number;
  internalAttributes: number;
  externalAttributes: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;

function findEndOfCentralDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}

/** The entries of the archive's central directory; throws ZipFormatError when the archive is damaged. */
export function readZipDirectory(buf: Buffer): ZipEntry[] {
  if (buf.length < 22) throw new ZipFormatError('the file is too short to be an xlsx workbook');
  const eocd = findEndOfCentralDirectory(buf);
  if (eocd < 0) throw new ZipFormatError('the file is damaged or incomplete (its table of contents is missing)');
  const count = buf.readUInt16LE(eocd + 10);
  const size = buf.readUInt32LE(eocd + 12);
  const offset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    throw new ZipFormatError('the file uses ZIP64, which a workbook of a supported size never needs');
  }
  if (offset + size > eocd) throw new ZipFormatError('the file is damaged or incomplete (its table of contents points outside it)');
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError('the file is damaged (bad table of contents)');
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const entry: ZipEntry = {
      versionMadeBy: buf.readUInt16LE(p + 4),
      versionNeeded: buf.readUInt16LE(p + 6),
      flags: buf.readUInt16LE(p + 8),
      method: buf.readUInt16LE(p + 10),
      time: buf.readUInt16LE(p + 12),
      date: buf.readUInt16LE(p + 14),
      crc: buf.readUInt32LE(p + 16),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      internalAttributes: buf.readUInt16LE(p + 36),
      externalAttributes: buf.readUInt32LE(p + 38),
      localHeaderOffset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLength),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localHeaderOffset === 0xffffffff) {
      throw new ZipFormatError('the file uses ZIP64, which a workbook of a supported size never needs');
    }
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where the entry's compressed bytes start (after its local header). */
function dataOffset(buf: Buffer, entry: ZipEntry): number {
  const p = entry.localHeaderOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOCAL) throw new ZipFormatError(`the file is damaged (entry ${entry.name})`);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + entry.compressedSize > buf.length) throw new ZipFormatError(`the file is damaged or incomplete (entry ${entry.name})`);
  return start;
}

/** The raw (still compressed) bytes of an entry. */
export function rawEntryData(buf: Buffer, entry: ZipEntry): Buffer {
  const start = dataOffset(buf, entry);
  return buf.subarray(start, start + entry.compressedSize);
}

/** The uncompressed bytes of an entry, never more than `limit` (a lying size cannot inflate past it). */
export function entryData(buf: Buffer, entry: ZipEntry, limit: number): Buffer {
  if (entry.flags & 1) throw new ZipFormatError(`entry ${entry.name} is encrypted`);
  if (entry.size > limit) throw new ZipFormatError(`entry ${entry.name} is too large (${entry.size} bytes)`);
  const raw = rawEntryData(buf, entry);
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new ZipFormatError(`entry ${entry.name} uses an unsupported compression method ${entry.method}`);
  try {
    return inflateRawSync(raw, { maxOutputLength: Math.max(1, Math.min(limit, entry.size)) });
  } catch (error) {
    throw new ZipFormatError(`entry ${entry.name} cannot be decompressed (${(error as Error).message})`);
  }
}

/** Where a zip writer puts its bytes, in order: a list in memory, or a file. */
export type ZipSink = (bytes: Buffer) => void;

/** The fields a new entry takes from an existing one (or defaults), its contents aside. */
type EntryTemplate = Partial<ZipEntry> & { name: string };

const dosNow = () => {
  const now = new Date();
  return {
    time: (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1),
    date: ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate(),
  };
};

/** Pieces of the compressed bytes fed to zlib at a time: its output arrives as it is made, never all at once. */
const inflatePiece = 64 * 1024;

/** The uncompressed bytes of an entry, piece by piece (stored or deflated). */
export async function* inflatedChunks(raw: Buffer, method: number): AsyncGenerator<Buffer> {
  if (method === 0) {
    for (let at = 0; at < raw.length; at += 4 * inflatePiece) yield raw.subarray(at, at + 4 * inflatePiece);
    return;
  }
  if (method !== 8) throw new ZipFormatError(`unsupported compression method ${method}`);
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  const source = Readable.from(
    (function* () {
      for (let at = 0; at < raw.length; at += inflatePiece) yield raw.subarray(at, at + inflatePiece);
    })(),
  );
  source.pipe(inflate);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) yield chunk;
  } finally {
    source.unpipe(inflate);
    inflate.destroy();
  }
}

/**
 * Writes an archive entry by entry into `sink`: entries copied byte for byte (compressed data included),
 * new ones deflated from a buffer, or deflated as their contents stream in (sizes and CRC in a data
 * descriptor after the data, so nothing is held back). `finish` writes the table of contents.
 */
export function createZipWriter(sink: ZipSink) {
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  const put = (bytes: Buffer) => {
    sink(bytes);
    offset += bytes.length;
  };

  /** The local header, then (once sizes are known) the central directory's record of the entry. */
  const localHeader = (entry: ZipEntry, name: Buffer, flags: number, sizes: { crc: number; compressed: number; size: number }) => {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(entry.versionNeeded, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(entry.time, 10);
    local.writeUInt16LE(entry.date, 12);
    local.writeUInt32LE(sizes.crc >>> 0, 14);
    local.writeUInt32LE(sizes.compressed, 18);
    local.writeUInt32LE(sizes.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    return Buffer.concat([local, name]);
  };
  const centralRecord = (entry: ZipEntry, name: Buffer, flags: number, at: number, sizes: { crc: number; compressed: number; size: number }) => {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL, 0);
    header.writeUInt16LE(entry.versionMadeBy, 4);
    header.writeUInt16LE(entry.versionNeeded, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt16LE(entry.time, 12);
    header.writeUInt16LE(entry.date, 14);
    header.writeUInt32LE(sizes.crc >>> 0, 16);
    header.writeUInt32LE(sizes.compressed, 20);
    header.writeUInt32LE(sizes.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(0, 30);
    header.writeUInt16LE(0, 32);
    header.writeUInt16LE(0, 34);
    header.writeUInt16LE(entry.internalAttributes, 36);
    header.writeUInt32LE(entry.externalAttributes >>> 0, 38);
    header.writeUInt32LE(at, 42);
    central.push(header, name);
    count++;
  };
  const deflatedEntry = (template: EntryTemplate): ZipEntry => ({
    versionMadeBy: 20,
    versionNeeded: 20,
    flags: 0x0800,
    ...dosNow(),
    internalAttributes: 0,
    externalAttributes: 0,
    localHeaderOffset: 0,
    ...template,
    method: 8,
    crc: 0,
    size: 0,
    compressedSize: 0,
  });
  const limit32 = (n: number, name: string) => {
    if (n > 0xfffffffe) throw new ZipFormatError(`entry ${name} grew past what a zip without ZIP64 holds`);
    return n;
  };

  /** Writes an entry whose sizes are known. */
  const whole = (entry: ZipEntry, data: Buffer) => {
    const name = Buffer.from(entry.name, 'utf8');
    const flags = entry.flags & ~0x0008; // sizes are in the local header: no data descriptor
    const sizes = { crc: entry.crc, compressed: data.length, size: entry.size };
    const at = offset;
    put(localHeader(entry, name, flags, sizes));
    put(data);
    centralRecord(entry, name, flags, at, sizes);
  };

  return {
    /** An entry of `from` (the archive `entry` belongs to), copied as it is. */
    copy(from: Buffer, entry: ZipEntry) {
      whole(entry, rawEntryData(from, entry));
    },
    /** A new entry (or one replaced: pass its old record as the template), deflated at once. */
    add(template: EntryTemplate, contents: Buffer) {
      whole({ ...deflatedEntry(template), crc: crc32(contents), size: contents.length }, deflateRawSync(contents));
    },
    /** A new entry deflated as `contents` yields it; memory holds one piece at a time. */
    async addStream(template: EntryTemplate, contents: AsyncIterable<Buffer>) {
      const entry = deflatedEntry(template);
      const name = Buffer.from(entry.name, 'utf8');
      const flags = entry.flags | 0x0008;
      const at = offset;
      put(localHeader(entry, name, flags, { crc: 0, compressed: 0, size: 0 }));
      const deflate = createDeflateRaw();
      let compressed = 0;
      deflate.on('data', (chunk: Buffer) => {
        put(chunk);
        compressed += chunk.length;
      });
      const done = new Promise<void>((resolve, reject) => {
        deflate.once('end', resolve);
        deflate.once('error', reject);
      });
      let crc = 0;
      let size = 0;
      try {
        for await (const piece of contents) {
          crc = crc32(piece, crc);
          size = limit32(size + piece.length, entry.name);
          if (!deflate.write(piece)) await once(deflate, 'drain');
        }
        deflate.end();
        await done;
      } catch (error) {
        deflate.destroy();
        throw error;
      }
      const sizes = { crc, compressed: limit32(compressed, entry.name), size };
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(DESCRIPTOR, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(sizes.compressed, 8);
      descriptor.writeUInt32LE(size, 12);
      put(descriptor);
      centralRecord(entry, name, flags, at, sizes);
    },
    /** The table of contents; the archive is complete after it. */
    finish() {
      const table = Buffer.concat(central);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(EOCD, 0);
      end.writeUInt16LE(count, 8);
      end.writeUInt16LE(count, 10);
      end.writeUInt32LE(table.length, 12);
      end.writeUInt32LE(offset, 16);
      put(table);
      put(end);
    },
  };
}

/**
 * Writes the archive again in memory: entries in `replace` get new contents (deflated), new ones in `add`
 * are appended, all others are copied byte for byte, compressed data included.
 */
export function rewriteZip(buf: Buffer, entries: ZipEntry[], replace: Map<string, Buffer>, add: Map<string, Buffer> = new Map()): Buffer {
  const parts: Buffer[] = [];
  const zip = createZipWriter((bytes) => parts.push(bytes));
  for (const entry of entries) {
    const contents = replace.get(entry.name);
    if (contents) zip.add(entry, contents);
    else zip.copy(buf, entry);
  }
  for (const [name, contents] of add) zip.add({ name }, contents);
  zip.finish();
  return Buffer.concat(parts);
}

/** A new archive from name → contents (tests and fixtures). */
export function writeZip(files: [string, Buffer | string][]): Buffer {
  const empty = Buffer.alloc(0);
  return rewriteZip(empty, [], new Map(), new Map(files.map(([n, c]) => [n, typeof c === 'string' ? Buffer.from(c, 'utf8') : c])));
}
