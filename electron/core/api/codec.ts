import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode } from '../../../shared/errors';
import { AppError, badRequest } from '../errors';
import { parseXmlBody, toXmlDocument, XmlSyntaxError } from './xml';

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

/** Decodes and parses a request body. Empty bodies are `undefined`. */
export function decodeBody(raw: Buffer, headers: IncomingHttpHeaders): unknown {
  if (raw.length === 0) return undefined;
  const charset = /charset=([^;]+)/i.exec(headers['content-type'] ?? '')?.[1]?.trim().replace(/"/g, '').toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError(400, { code: ErrorCode.notUtf8, message: 'Bad encoding', description: 'Only UTF-8 bodies are accepted' });
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new AppError(400, { code: ErrorCode.notUtf8, message: 'Bad encoding', description: 'The body is not valid UTF-8' });
  }
  if (requestFormat(headers) === 'xml') {
    try {
      return parseXmlBody(text);
    } catch (error) {
      throw badRequest(error instanceof XmlSyntaxError ? error.message : 'Malformed XML');
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Malformed JSON: ${(error as Error).message}`);
  }
}

/** Serializes a response body in the chosen format. */
export function encodeBody(value: unknown, format: WireFormat): { contentType: string; text: string } {
  return format === 'xml'
    ? { contentType: 'application/xml; charset=utf-8', text: toXmlDocument(value) }
    : { contentType: 'application/json; charset=utf-8', text: JSON.stringify(value) };
}
