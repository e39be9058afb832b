import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  endpointTags,
  pathParameterNames,
  routePath,
  type Endpoint,
} from '../../shared/contract/endpoint.js';
import { endpointList } from '../../shared/contract/index.js';
import { realtimePath } from '../../shared/realtime.js';
import { createTestApp, databaseTargets, type TestApp } from '../test/harness.js';
import { apiDocsPath, openApiPath } from './openapi.js';

// ADR 0012: every endpoint is defined once, in the registry, and the server serves exactly those.

function convert(schema: z.ZodType, io: 'input' | 'output') {
  // `unrepresentable: 'throw'`: a schema the OpenAPI document could not describe fails here.
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' });
}

/** Every schema of an endpoint, with the side of it a request or an answer uses. */
function schemasOf(endpoint: Endpoint): [string, z.ZodType, 'input' | 'output'][] {
  const schemas: [string, z.ZodType, 'input' | 'output'][] = [];
  if (endpoint.params) schemas.push(['params', endpoint.params, 'input']);
  if (endpoint.query) schemas.push(['query', endpoint.query, 'input']);
  if (endpoint.body) schemas.push(['body', endpoint.body, 'input']);
  if (endpoint.form) schemas.push(['form', endpoint.form.fields, 'input']);
  schemas.push(['response', endpoint.response, 'output']);
  for (const [status, schema] of Object.entries(endpoint.otherResponses ?? {})) {
    schemas.push([`response ${status}`, schema, 'output']);
  }
  return schemas;
}

/** A route as Fastify lists it: method and path in its own syntax (`/api/posts/:postId`). */
interface Route {
  method: string;
  url: string;
}

/**
 * Reads `printRoutes({ commonPrefix: false })`: a tree whose lines are path fragments, indented four
 * columns per level, each followed by its methods in parentheses.
 */
function parseRouteTree(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const url = `${stack.join('')}${match[2] ?? ''}`;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(',')) {
      if (method.trim()) routes.push({ method: method.trim(), url });
    }
  }
  return routes;
}

/** API paths served outside the registry: the socket, and the reference documenting the registry. */
function outsideRegistry({ method, url }: Route): boolean {
  if (method !== 'GET') return false;
  return (
    url === realtimePath ||
    url === openApiPath ||
    url === apiDocsPath ||
    url.startsWith(`${apiDocsPath}/`)
  );
}

describe('the endpoint registry', () => {
  it('has unique, camelCase operation ids', () => {
    const ids = endpointList.map((endpoint) => endpoint.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('has one endpoint per method and path', () => {
    const routes = endpointList.map((endpoint) => `${endpoint.method} ${routePath(endpoint.path)}`);
    const seen = new Set<string>();
    for (const route of routes) {
      expect(seen.has(route), route).toBe(false);
      seen.add(route);
    }
  });

  it('names in each path exactly the fields of its params schema', () => {
    for (const endpoint of endpointList) {
      const inPath = pathParameterNames(endpoint.path).sort();
      const inSchema = Object.keys(endpoint.params?.shape ?? {}).sort();
      expect(inSchema, endpoint.id).toEqual(inPath);
      // A path with braces that are not parameters would never match a request.
      expect(endpoint.path.replace(/\{[A-Za-z][A-Za-z0-9]*\}/g, ''), endpoint.id).not.toMatch(
        /[{}]/,
      );
    }
  });

  it('keeps paths under /api, clear of the socket and the reference', () => {
    for (const endpoint of endpointList) {
      expect(endpoint.path, endpoint.id).toMatch(/^\/api\/[a-z0-9/{}A-Z._-]+$/);
      expect(outsideRegistry({ method: 'GET', url: routePath(endpoint.path) }), endpoint.id).toBe(
        false,
      );
    }
  });

  it('uses only known tags, and every tag', () => {
    const used = new Set(endpointList.map((endpoint) => endpoint.tag));
    expect([...used].sort()).toEqual([...endpointTags].sort());
  });

  it('gives 204 answers no body, and GET and DELETE requests none either', () => {
    for (const endpoint of endpointList) {
      expect(endpoint.status === 204, endpoint.id).toBe(endpoint.response instanceof z.ZodNull);
      if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
        expect(endpoint.body ?? endpoint.form, endpoint.id).toBeUndefined();
      }
      expect(endpoint.body && endpoint.form, endpoint.id).toBeFalsy();
    }
  });

  it('keeps form file fields apart from its text fields', () => {
    for (const endpoint of endpointList) {
      const form = endpoint.form;
      if (!form) continue;
      expect(new Set(form.files).size, endpoint.id).toBe(form.files.length);
      for (const file of form.files) {
        expect(Object.keys(form.fields.shape), endpoint.id).not.toContain(file);
      }
    }
  });

  it("converts every endpoint's schemas to JSON Schema", () => {
    for (const endpoint of endpointList) {
      for (const [part, schema, io] of schemasOf(endpoint)) {
        expect(() => convert(schema, io), `${endpoint.id} ${part}`).not.toThrow();
      }
      if (endpoint.params) {
        expect(convert(endpoint.params, 'input').type, endpoint.id).toBe('object');
      }
      if (endpoint.query) {
        expect(convert(endpoint.query, 'input').type, `${endpoint.id} query`).toBe('object');
      }
    }
  });
});

describe('the server', () => {
  let t: TestApp;
  let routes: Route[];
  beforeAll(async () => {
    const [sqlite] = databaseTargets;
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite);
    routes = parseRouteTree(t.app.printRoutes({ commonPrefix: false }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists its routes in a form this test reads', () => {
    // Guards the parser: were Fastify to print routes differently, the next test would see nothing.
    expect(routes).toContainEqual({ method: 'GET', url: '/robots.txt' });
    expect(routes).toContainEqual({ method: 'GET', url: realtimePath });
    expect(routes).toContainEqual({ method: 'GET', url: openApiPath });
  });

  it('serves exactly the endpoints of the registry under /api', () => {
    const served = routes
      // HEAD routes come with every GET route.
      .filter(({ method, url }) => method !== 'HEAD' && (url === '/api' || url.startsWith('/api/')))
      .filter((route) => !outsideRegistry(route))
      .map(({ method, url }) => `${method} ${url}`)
      .sort();
    const registered = endpointList
      .map((endpoint) => `${endpoint.method} ${routePath(endpoint.path)}`)
      .sort();
    expect(served).toEqual(registered);
  });
});
