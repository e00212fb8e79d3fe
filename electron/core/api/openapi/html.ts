import type { OpenApiDocument } from './document';
import { errorCodes, generalSections, type Operation, type ParamDoc, type Tag } from './operations';

/**
 * The reference as one self-contained HTML page (`GET /docs`): rendered on the server from the same
 * operations and the same generated schemas as /openapi.json. No scripts and nothing loaded from
 * elsewhere (the server's CSP allows inline styles only); navigation is plain anchors.
 */

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` and **bold** of the descriptions; everything else is text. */
const inline = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The CommonMark subset the descriptions use: paragraphs, `- ` lists, pipe tables. */
export function markdown(text: string): string {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; ) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
    } else if (line.startsWith('- ')) {
      const items: string[] = [];
      // One list, also when its entries are separated by blank lines.
      for (;;) {
        while (i < lines.length && lines[i].startsWith('- ')) items.push(`<li>${inline(lines[i++].slice(2))}</li>`);
        let next = i;
        while (next < lines.length && lines[next].trim() === '') next++;
        if (next === i || next >= lines.length || !lines[next].startsWith('- ')) break;
        i = next;
      }
      out.push(`<ul>${items.join('')}</ul>`);
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++].split('|').slice(1, -1).map((c) => c.trim()));
      const [head, , ...body] = rows;
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${body
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i].trim() !== '' && !lines[i].startsWith('- ') && !lines[i].startsWith('|')) para.push(lines[i++]);
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

// ---- schemas as field tables ---------------------------------------------------------------------

const refName = (ref: string) => ref.replace('#/components/schemas/', '');
const schemaLink = (name: string) => `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
const decimalText = '^-?\\d+(\\.\\d+)?$';

/** A short type: `string`, `integer | null`, `array of Point`, `1 | 2`. */
function typeOf(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).filter((k) => k !== 'description' && k !== 'xml').length === 0) return 'any';
  if (typeof schema.$ref === 'string') return schemaLink(refName(schema.$ref));
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ');
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) return [...new Set(alternatives.map(typeOf))].join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  return types
    .map((t) => {
      if (t === 'array') return `array of ${typeOf(schema.items as Json)}`;
      if (t === 'string' && schema.pattern === decimalText) return 'decimal text';
      if (t === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return `map of ${typeOf(schema.additionalProperties as Json)}`;
      }
      return t;
    })
    .join(' | ');
}

/** Bounds, patterns and defaults, in words. */
function constraintsOf(schema: Json): string[] {
  const notes: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min !== undefined && max !== undefined) notes.push(`${min}–${max}${unit}`);
    else if (min !== undefined) notes.push(`≥ ${min}${unit}`);
    else if (max !== undefined) notes.push(`≤ ${max}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  if (schema.exclusiveMinimum !== undefined) notes.push(`> ${schema.exclusiveMinimum}`);
  range(schema.minItems, schema.maxItems, ' entries');
  if (typeof schema.pattern === 'string' && schema.pattern !== decimalText) notes.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.default !== undefined) notes.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  for (const alternative of ((schema.anyOf ?? []) as Json[])) if (alternative.type !== 'null') notes.push(...constraintsOf(alternative));
  return [...new Set(notes)];
}

/** A description and its constraints, the constraints set apart. */
const notesOf = (description: string, constraints: string[]) =>
  [description, constraints.length ? `<span class="constraints">${constraints.join(' · ')}</span>` : ''].filter(Boolean).join(' ');

/** The object schema a field's children come from, if it has inline ones. */
function childObject(schema: Json): Json | undefined {
  if (schema.type === 'object' && schema.properties) return schema;
  if (schema.type === 'array' && schema.items && (schema.items as Json).type === 'object') return childObject(schema.items as Json);
  const alternatives = (schema.anyOf ?? []) as Json[];
  const object = alternatives.find((a) => a.type === 'object' && a.properties);
  return object ? childObject(object) : undefined;
}

function fieldRows(schema: Json, prefix: string, depth: number): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const notes = notesOf(field.description ? inline(String(field.description)) : '', constraintsOf(field));
    const row = `<tr><td class="field" style="padding-left:${0.5 + depth * 1.1}rem"><code>${escapeHtml(path)}</code></td><td>${typeOf(field)}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${notes}</td></tr>`;
    const child = childObject(field);
    const isArray = field.type === 'array' || ((field.anyOf ?? []) as Json[]).some((a) => a.type === 'array');
    return child ? [row, ...fieldRows(child, `${path}${isArray ? '[]' : ''}.`, depth + 1)] : [row];
  });
}

function schemaTable(schema: Json): string {
  const object = childObject(schema);
  if (!object) return `<p>Type: ${typeOf(schema)}${schema.description ? ` — ${inline(String(schema.description))}` : ''}</p>`;
  const rows = fieldRows(object, schema.type === 'array' ? '[].' : '', 0);
  return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

// ---- operations -----------------------------------------------------------------------------------

const methodBadge = (method: string) => `<span class="method ${method.toLowerCase()}">${method}</span>`;

function paramsTable(params: ParamDoc[], doc: OpenApiDocument, op: Operation): string {
  const documented = (((doc.paths as Record<string, Json>)[op.path][op.method.toLowerCase()] as Json).parameters ?? []) as Json[];
  const rows = params.map((p) => {
    const schema = documented.find((d) => d.name === p.name)?.schema as Json;
    const notes = notesOf(inline(p.description), [...constraintsOf(schema), ...(p.example ? [`e.g. <code>${escapeHtml(p.example)}</code>`] : [])]);
    return `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${typeOf(schema)}</td><td>${p.in === 'path' || p.required ? 'yes' : ''}</td><td>${notes}</td></tr>`;
  });
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const formatNames = { json: 'JSON', xml: 'XML', html: 'HTML', file: 'PDF or ZPL' } as const;

function operationSection(op: Operation, doc: OpenApiDocument): string {
  const parts = [
    `<section class="operation" id="${op.id}">`,
    `<h3>${methodBadge(op.method)} <code class="path">${escapeHtml(op.path)}</code></h3>`,
    `<p class="summary">${escapeHtml(op.summary)} <span class="ru" lang="ru">${escapeHtml(op.summaryRu)}</span></p>`,
    `<p class="meta">${op.public ? 'Public, no token' : 'Token required'} · ${op.formats.map((f) => formatNames[f]).join(', ')} · also <code>/v1${escapeHtml(op.path)}</code></p>`,
    markdown(op.description),
  ];
  if (op.params?.length) parts.push('<h4>Parameters</h4>', paramsTable(op.params, doc, op));
  if (op.body) {
    parts.push(`<h4>Request body: ${schemaLink(op.body.name)}</h4>`, `<p>${inline(op.body.description)}</p>`);
    if (op.body.example !== undefined) parts.push(`<details><summary>Example</summary><pre>${escapeHtml(JSON.stringify(op.body.example, null, 2))}</pre></details>`);
  }
  const answers = [op.response, ...(op.alternatives ?? [])];
  parts.push(`<h4>Answer 200: ${answers.map((r) => schemaLink(r.name)).join(' or ')}</h4>`, `<p>${answers.map((r) => inline(r.description)).join(' ')}</p>`);
  if (op.response.example !== undefined) parts.push(`<details><summary>Example</summary><pre>${escapeHtml(JSON.stringify(op.response.example, null, 2))}</pre></details>`);
  if (op.errors.length) {
    const rows = op.errors.map((e) => `<tr><td>${e.status}</td><td><code>${e.code}</code></td><td>${inline(e.when)}</td></tr>`);
    parts.push('<h4>Errors</h4>', `<table><thead><tr><th>HTTP</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

const style = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5c6475; --line: #dde1e8; --bg-soft: #f5f7fa; --accent: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Consolas, "Liberation Mono", monospace; }
code { background: var(--bg-soft); padding: 0 .25em; border-radius: 3px; }
pre { background: var(--bg-soft); padding: .75rem; overflow: auto; border-radius: 6px; }
.layout { display: grid; grid-template-columns: 21rem 1fr; min-height: 100vh; }
nav { position: sticky; top: 0; height: 100vh; overflow: auto; padding: 1.25rem 1rem; border-right: 1px solid var(--line); background: var(--bg-soft); font-size: 13.5px; }
nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 1.2rem 0 .4rem; }
nav ul { list-style: none; margin: 0; padding: 0; } nav li { margin: .15rem 0; white-space: nowrap; }
nav .method { font-size: 10px; min-width: 3.4em; }
main { padding: 2rem 3rem 4rem; max-width: 72rem; }
header h1 { margin: 0 0 .25rem; font-size: 1.8rem; }
header p { margin: .25rem 0; color: var(--muted); }
h2.chapter { margin-top: 2.5rem; padding-top: 1rem; border-top: 2px solid var(--line); }
section.operation { margin: 2rem 0; padding-top: 1.25rem; border-top: 1px solid var(--line); }
section.operation h3 { margin: 0; font-size: 1.15rem; display: flex; align-items: center; gap: .6rem; }
code.path { background: none; font-size: 1.05rem; font-weight: 600; padding: 0; }
.summary { font-size: 1.05rem; margin: .35rem 0 0; } .ru { color: var(--muted); margin-left: .5rem; }
.meta { color: var(--muted); font-size: 13px; margin: .2rem 0 .8rem; }
h4 { margin: 1.2rem 0 .4rem; font-size: .95rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: 13.5px; }
th, td { border: 1px solid var(--line); padding: .35rem .55rem; text-align: left; vertical-align: top; }
th { background: var(--bg-soft); font-weight: 600; }
table.fields td.field { white-space: nowrap; }
.method { display: inline-block; min-width: 4.2em; text-align: center; padding: .1em .45em; border-radius: 4px; font: 600 12px/1.6 ui-monospace, monospace; color: #fff; }
.method.get { background: #2f7d4a; } .method.post { background: #1f5fbf; } .method.put { background: #a0640c; } .method.delete { background: #b3261e; }
details summary { cursor: pointer; color: var(--accent); }
.constraints { color: var(--muted); font-size: 12.5px; }
.schema { margin: 1.5rem 0; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } nav { position: static; height: auto; } main { padding: 1.25rem; } }
`;

/** The whole page. */
export function renderDocsPage(doc: OpenApiDocument, operations: Operation[]): string {
  const tags = [...new Set(operations.map((o) => o.tag))] as Tag[];
  const tagInfo = new Map(doc.tags.map((t) => [t.name, t.description]));
  const schemas = doc.components.schemas as Record<string, Json>;
  const codesTable = ['| Code | HTTP | Meaning |', '|---|---|---|', ...errorCodes.map((c) => `| \`${c.code}\` | ${c.status} | ${c.meaning} |`)].join('\n');

  const nav = [
    '<h2>General</h2><ul>',
    ...generalSections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`),
    '</ul>',
    ...tags.flatMap((tag) => [
      `<h2>${tag}</h2><ul>`,
      ...operations.filter((o) => o.tag === tag).map((o) => `<li><a href="#${o.id}">${methodBadge(o.method)} ${escapeHtml(o.path)}</a></li>`),
      '</ul>',
    ]),
    '<h2>Schemas</h2><ul>',
    ...Object.keys(schemas)
      .sort()
      .map((name) => `<li><a href="#schema-${name}">${name}</a></li>`),
    '</ul>',
  ].join('\n');

  const body = [
    '<header>',
    `<h1>${escapeHtml(doc.info.title)}</h1>`,
    '<p lang="ru">Справочник локального интерфейса ShipDesk: пункты выдачи, тарифы, заказы, статусы, калькулятор, загрузка из Excel.</p>',
    '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Every path below is also served under <code>/v1</code>.</p>',
    '</header>',
    ...generalSections.map((s) => `<section id="${s.id}"><h2 class="chapter">${escapeHtml(s.title)}</h2>${markdown(s.body)}${s.id === 'errors' ? markdown(codesTable) : ''}</section>`),
    ...tags.flatMap((tag) => [
      `<h2 class="chapter" id="tag-${tag}">${tag}</h2>`,
      `<p>${inline(tagInfo.get(tag) ?? '')}</p>`,
      ...operations.filter((o) => o.tag === tag).map((o) => operationSection(o, doc)),
    ]),
    '<h2 class="chapter" id="schemas">Schemas</h2>',
    '<p>Requests are described as the server takes them (numbers may be decimal text, blanks are "not given"); answers as it writes them. Answers may gain fields: ignore the ones you do not know.</p>',
    ...Object.keys(schemas)
      .sort()
      .map((name) => {
        const schema = schemas[name];
        return `<div class="schema" id="schema-${name}"><h3>${name}</h3>${schema.description ? `<p>${inline(String(schema.description))}</p>` : ''}${schemaTable(schema)}</div>`;
      }),
  ].join('\n');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ShipDesk local interface — reference</title>
<style>${style}</style>
</head>
<body>
<div class="layout">
<nav aria-label="Contents">${nav}</nav>
<main>${body}</main>
</div>
</body>
</html>
`;
}
