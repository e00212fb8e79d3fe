import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode } from '../../../shared/errors';
import { said, type MessageParam } from '../../../shared/messages';
import { AppError, badRequest } from '../errors';
import { checkInputShape, nestingError } from '../validation';
import type { BodyParser, ParsedText } from './body-parser';
import { fromXmlDocument, parseXmlTree, toXmlDocument, XmlSyntaxError } from './xml';

export type WireFormat = 'json' | 'xml';

const isXml = (mediaType: string | undefined) => !!mediaType && /\b(application|text)\/([\w.+-]*\+)?xml\b/i.test(mediaType);

/** The format of the request body, from Content-Type (JSON when absent). */
export function requestFormat(headers: IncomingHttpHeaders): WireFormat {
  return isXml(headers['content-type']) ? 'xml' : 'json';
}

/** The format of the answer: what Accept asks for first, else the request's own format. */
export function responseFormat(headers: IncomingHttpHeaders): WireFormat {
  const accept = headers.accept ?? '';
  const xmlAt = accept.search(/(application|text)\/([\w.+-]*\+)?xml/i);
  const jsonAt = accept.search(/application\/([\w.+-]*\+)?json/i);
  if (xmlAt >= 0 && (jsonAt < 0 || xmlAt < jsonAt)) return 'xml';
  if (jsonAt >= 0) return 'json';
  return requestFormat(headers);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body that is not JSON or XML: the interface's "Malformed JSON: …", said by key in the window. */
const malformed = (format: WireFormat, detail: MessageParam) => badRequest(said(format === 'xml' ? 'api.malformedXml' : 'api.malformedJson', { detail }));

/** Decodes and parses a body's text where it is (small bodies, and large ones where no thread can start). */
export function parseText(bytes: Uint8Array, format: WireFormat): ParsedText {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: 'encoding' };
  }
  try {
    return { ok: true, value: format === 'xml' ? parseXmlTree(text) : JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: 'syntax', detail: error instanceof XmlSyntaxError ? error.detail : (error as Error).message };
  }
}

/**
 * Decodes and parses a request body (large ones on the body parser's threads). Empty bodies are `undefined`;
 * one nested deeper than MAX_INPUT_DEPTH is refused before anything walks it.
 */
export async function decodeBody(raw: Uint8Array | StreamedBody, headers: IncomingHttpHeaders, parser?: BodyParser, file?: BodyFile): Promise<unknown> {
  if (raw.length === 0) return undefined;
  const charset = /charset=([^;]+)/i.exec(headers['content-type'] ?? '')?.[1]?.trim().replace(/"/g, '').toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError(400, { code: ErrorCode.notUtf8, message: 'Bad encoding', description: 'Only UTF-8 bodies are accepted' });
  }
  const format = requestFormat(headers);
  const keys = fileKeys(file);
  const parsed = 'parsed' in raw ? await raw.parsed : parser ? await parser.parse(raw, format, keys) : parseText(raw, format);
  if (!parsed.ok && parsed.problem === 'encoding') {
    throw new AppError(400, { code: ErrorCode.notUtf8, message: 'Bad encoding', description: 'The body is not valid UTF-8' });
  }
  if (!parsed.ok && parsed.problem === 'depth') throw nestingError([]);
  if (!parsed.ok) throw malformed(format, parsed.detail);
  checkInputShape(parsed.value);
  let value: unknown;
  if (format === 'json') value = parsed.value;
  else {
    try {
      value = fromXmlDocument(parsed.value as Record<string, unknown>);
    } catch (error) {
      throw error instanceof XmlSyntaxError ? malformed('xml', error.detail) : badRequest('Malformed XML');
    }
  }
  if (parsed.file && file && keys) {
    // the thread left '' in the text's place: the token of the bytes goes there
    let node = value as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
    node[keys[keys.length - 1]] = file.hold(Buffer.from(parsed.file.buffer, parsed.file.byteOffset, parsed.file.byteLength));
  }
  return value;
}

/** A body that went to a body-parsing thread as it arrived (BodyParser.receive): its length and its parse. */
export interface StreamedBody {
  length: number;
  parsed: Promise<ParsedText>;
}

/** The keys of a route's base64 file field in the request value. */
export const fileKeys = (file?: Pick<BodyFile, 'field'>) => file?.field.split('.');

/** A route's base64 file field (Route.bodyFile) and where its bytes are held for the request (held-bytes.ts). */
export interface BodyFile {
  /** Dot path in the request value: `file.base64`. */
  field: string;
  /** Holds the bytes for the request; the token stands in the value where the text was. */
  hold(bytes: Buffer): string;
}

/** Serializes a response body in the chosen format. */
export function encodeBody(value: unknown, format: WireFormat): { contentType: string; text: string } {
  return format === 'xml'
    ? { contentType: 'application/xml; charset=utf-8', text: toXmlDocument(value) }
    : { contentType: 'application/json; charset=utf-8', text: JSON.stringify(value) };
}
