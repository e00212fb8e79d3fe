import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Just enough ZIP for xlsx files: read the central directory (to check a file before any
 * decompression: sizes, ratios, encryption), inflate one small entry, and write the archive back with
 * some entries replaced and every other entry copied byte for byte (the errors file).
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

/**
 * Writes the archive again: entries in `replace` get new contents (deflated), new ones in `add` are
 * appended, all others are copied byte for byte, compressed data included.
 */
export function rewriteZip(buf: Buffer, entries: ZipEntry[], replace: Map<string, Buffer>, add: Map<string, Buffer> = new Map()): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;

  const emit = (entry: ZipEntry, data: Buffer) => {
    const name = Buffer.from(entry.name, 'utf8');
    const flags = entry.flags & ~0x0008; // sizes are in the local header now: no data descriptor
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(entry.versionNeeded, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(entry.time, 10);
    local.writeUInt16LE(entry.date, 12);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL, 0);
    header.writeUInt16LE(entry.versionMadeBy, 4);
    header.writeUInt16LE(entry.versionNeeded, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt16LE(entry.time, 12);
    header.writeUInt16LE(entry.date, 14);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(0, 30);
    header.writeUInt16LE(0, 32);
    header.writeUInt16LE(0, 34);
    header.writeUInt16LE(entry.internalAttributes, 36);
    header.writeUInt32LE(entry.externalAttributes >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  };

  const fresh = (template: Partial<ZipEntry> & { name: string }, contents: Buffer) => {
    const now = new Date();
    const dosTime = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
    const dosDate = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
    emit(
      {
        versionMadeBy: 20,
        versionNeeded: 20,
        flags: 0x0800,
        time: dosTime,
        date: dosDate,
        internalAttributes: 0,
        externalAttributes: 0,
        localHeaderOffset: 0,
        ...template,
        method: 8,
        crc: crc32(contents),
        size: contents.length,
        compressedSize: 0,
      },
      deflateRawSync(contents),
    );
  };

  for (const entry of entries) {
    const contents = replace.get(entry.name);
    if (contents) fresh(entry, contents);
    else emit(entry, rawEntryData(buf, entry));
  }
  for (const [name, contents] of add) fresh({ name }, contents);

  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  const count = entries.length + add.size;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

/** A new archive from name → contents (tests and fixtures). */
export function writeZip(files: [string, Buffer | string][]): Buffer {
  const empty = Buffer.alloc(0);
  return rewriteZip(empty, [], new Map(), new Map(files.map(([n, c]) => [n, typeof c === 'string' ? Buffer.from(c, 'utf8') : c])));
}
