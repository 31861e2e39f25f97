import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listApiOperations } from '../../src/server/http/api-registry.ts';
import type { EndpointContract } from '../../src/server/http/endpoint.ts';
import { buildOpenApiDocument, toJsonSchema } from '../../src/server/http/openapi.ts';
import { TUS_PATH } from '../../src/server/services/media/index.ts';
import { designSourceSchema } from '../../src/lib/contract/schemas/eda.ts';

type Json = Record<string, any>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const document = (await buildOpenApiDocument()) as Json;
const endpointFiles = [...filesUnder('src/pages/api'), ...filesUnder('src/pages/sso/api')].filter((file) => file.endsWith('.ts') && !file.endsWith('[...path].ts') && !file.endsWith('openapi.json.ts'));

describe('the OpenAPI document lists every endpoint', () => {
  it.each(endpointFiles)('%s, with the methods it answers', async (file) => {
    const module = (await import(path.resolve(file))) as Record<string, unknown>;
    const routePath = `/${file.replace(/^src\/pages\//, '').replace(/\.ts$/, '')}`;
    const answered = ['GET', 'POST'].filter((method) => typeof module[method] === 'function').map((method) => method.toLowerCase());
    expect(answered.length).toBeGreaterThan(0);
    expect(Object.keys(document.paths[routePath] ?? {}).sort()).toEqual(answered.sort());
  });

  it('lists the routes that are not defineEndpoints: exports, tus, video streams, this document and its page', () => {
    const others = ['/eda/{id}/bom.csv', '/eda/{id}/fabrication.zip', '/eda/{id}/cpl.csv', '/eda/{id}/board-{boardId}-gerbers.zip', TUS_PATH, `${TUS_PATH}/{uploadId}`, '/video/stream/{file}', '/api/openapi.json', '/api/docs'];
    for (const route of others) expect(Object.keys(document.paths), route).toContain(route);
    for (const file of filesUnder('src/pages/eda/[id]')) expect(Object.keys(document.paths)).toContain(`/eda/{id}/${path.basename(file, '.ts').replace(/\[(\w+)\]/g, '{$1}')}`);
    expect(Object.keys(document.paths[`${TUS_PATH}/{uploadId}`]).sort()).toEqual(['delete', 'head', 'patch']);
  });

  it('has a summary, a tag, an auth note and its error keys for every operation', () => {
    for (const [route, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.summary, `${method} ${route}`).toBeTruthy();
        expect(operation.tags, `${method} ${route}`).toHaveLength(1);
        expect(['required', 'optional', 'none'], `${method} ${route}`).toContain(operation['x-auth']);
        const errorStatuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
        expect(errorStatuses.length, `${method} ${route}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('the document’s schemas are the endpoints’ own', () => {
  it.each(endpointFiles)('%s', async (file) => {
    const { contract } = (await import(path.resolve(file))) as { contract: EndpointContract };
    const item = document.paths[`/${file.replace(/^src\/pages\//, '').replace(/\.ts$/, '')}`];
    const components: Json = {};
    if (contract.input && item.post) {
      expect(item.post.requestBody.content['application/json'].schema).toEqual(toJsonSchema(contract.input, 'input', components));
    }
    if (contract.input && item.get) {
      const fresh = toJsonSchema(contract.input, 'input', components);
      const documented = Object.fromEntries(item.get.parameters.map((parameter: Json) => [parameter.name, parameter.schema]));
      expect(documented).toEqual(fresh.properties);
      for (const parameter of item.get.parameters) expect(parameter.required).toBe(((fresh.required ?? []) as string[]).includes(parameter.name));
    }
    if (!contract.docs.file) {
      const envelope = toJsonSchema(z.object({ retCode: z.literal(0), result: contract.result }), 'output', components);
      for (const operation of Object.values(item) as Json[]) expect(operation.responses['200'].content['application/json'].schema).toEqual(envelope);
    }
    // Every named schema the fresh conversion refers to is the document's, unchanged.
    for (const [name, schema] of Object.entries(components)) expect(document.components.schemas[name], name).toEqual(schema);
  });

  it('documents a request example that the endpoint’s own schema accepts', async () => {
    for (const operation of await listApiOperations()) {
      if (!operation.input || !operation.docs.example) continue;
      expect(operation.input.safeParse(operation.docs.example).success, `${operation.method} ${operation.path}`).toBe(true);
    }
  });

  it('documents eda/detail’s design source with an example its own schema accepts', () => {
    const source = document.components.schemas.DesignSource as Json;
    expect(source.examples).toHaveLength(1);
    expect(designSourceSchema.safeParse(source.examples[0]).success).toBe(true);
    const detail = document.paths['/api/eda/detail'].get.responses['200'].content['application/json'].schema as Json;
    expect(JSON.stringify(detail)).toContain('EdaDetail');
    expect(Object.keys((document.components.schemas.EdaDetail as Json).properties)).toContain('source');
  });
});
