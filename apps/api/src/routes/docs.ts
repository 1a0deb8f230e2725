/** GET /docs: a self-contained API reference rendered from the OpenAPI document (no scripts, no CDN). */

import { h } from '../pages/h.ts';
import { layout } from '../pages/layout.ts';

interface Op {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}

export function docsPage(document: unknown): string {
  const doc = document as { paths?: Record<string, Record<string, Op>> };
  const ops = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const body = h`<h1>API reference</h1><p class="sub">The machine-readable document is at <a href="/openapi.json">/openapi.json</a>. Send keys as <code>Authorization: Bearer &lt;key&gt;</code>; errors are <code>{"error": {"code", "message", "details"}}</code>.</p>
${ops.map(
  ({
    path,
    method,
    op,
  }) => h`<div class="card"><h2 style="margin-top:0"><code>${method} ${path}</code>${op.security?.length ? h` <span class="badge b-queued">key</span>` : ''}</h2>
<p>${op.summary ?? ''}</p>${op.description ? h`<p class="muted">${op.description}</p>` : ''}
${op.parameters?.length ? h`<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th></tr></thead><tbody>${op.parameters.map((p) => h`<tr><td><code>${p.name}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`)}</tbody></table>` : ''}
${op.requestBody?.content?.['application/json']?.schema ? h`<details><summary>Request body schema</summary><pre>${JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)}</pre></details>` : ''}
<p class="muted">Responses: ${Object.entries(op.responses ?? {})
    .map(([code, r]) => `${code} ${r.description ?? ''}`)
    .join(' · ')}</p></div>`,
)}`;
  return layout('API reference', body);
}
