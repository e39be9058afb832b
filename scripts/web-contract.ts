// The contract as the web app ships it (ADR 0032). The contract's endpoint modules
// (src/shared/contract/endpoints/*.ts) build zod schemas for every request and answer, with the summaries
// and descriptions the OpenAPI document needs. The web app reads four things of an endpoint: its method,
// path, whether it takes a form, and the shape of its answer, which `callApi` checks. Shipping zod for that
// cost the feed's first load about 35 KB of gzip (zod and the schemas' code). So, for web modules, this
// plugin replaces each endpoint module with one generated from it when the app is built: the same exports,
// each endpoint reduced to those four, and its answer checked by `wireCheck` (src/web/lib/wire-check.ts)
// against the JSON Schema that zod itself writes for the response schema's output. The live topics'
// documents (contract/topics.ts) are generated the same way, for the realtime client. Nothing is written by
// hand twice: the generated module is a function of the contract, made anew on every build and test run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import { z } from 'zod';
import { wireKeywords } from '../src/web/lib/wire-check.js';

const virtualPrefix = '\0hearth-web-contract:';

/** The fields of an endpoint the web app reads (src/web/lib/api-client.ts). */
interface WebEndpoint {
  id: string;
  method: string;
  path: string;
  status: number;
  form?: { files: readonly string[] };
  response: unknown;
}

type Json = null | boolean | number | string | RegExp | Json[] | { [key: string]: Json };

function isEndpoint(value: unknown): value is WebEndpoint & { response: z.ZodType } {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.id === 'string' &&
    typeof candidate.method === 'string' &&
    typeof candidate.path === 'string' &&
    candidate.response instanceof z.ZodType
  );
}

/** An export that is a group of endpoints (`postEndpoints`), or null for anything else. */
function endpointGroup(
  value: unknown,
): Record<string, WebEndpoint & { response: z.ZodType }> | null {
  if (typeof value !== 'object' || value === null) return null;
  const entries = Object.values(value);
  return entries.length > 0 && entries.every(isEndpoint)
    ? (value as Record<string, WebEndpoint & { response: z.ZodType }>)
    : null;
}

/**
 * The shape of what a response schema accepts, as zod writes it in JSON Schema (output side), with each
 * pattern as the RegExp the contract wrote, flags and all. Throws on anything `wireCheck` cannot check to
 * the letter: a computed output (a transform or a default would make zod's result differ from the JSON),
 * or a keyword it does not know.
 */
export function wireShapeOf(schema: z.ZodType, where: string): Json {
  const computed = new Set(['pipe', 'transform', 'default', 'prefault', 'catch', 'custom']);
  const patterns: RegExp[] = [];
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def;
      if (computed.has(def.type)) {
        throw new Error(`${where}: a ${def.type} in an answer needs zod to read it`);
      }
      // zod writes `additionalProperties: false` for an object that drops undeclared fields and for a
      // strict one that refuses them alike; wireCheck tells them apart as zod does: `false` refuses, and
      // an object without the keyword drops them.
      if (def.type === 'object' && def.catchall?._zod.def.type !== 'never') {
        if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      }
      for (const check of def.checks ?? []) {
        // A refinement is code JSON Schema cannot carry: the web would accept what zod refuses. An
        // overwrite (trim, toLowerCase) changes the value, which a check that only looks cannot do.
        if (check._zod.def.check === 'custom')
          throw new Error(`${where}: a refinement in an answer`);
        if (check._zod.def.check === 'overwrite')
          throw new Error(`${where}: an overwrite in an answer`);
        const pattern: unknown = (check._zod.def as { pattern?: unknown }).pattern;
        if (pattern instanceof RegExp) patterns.push(pattern);
      }
    },
  });
  const { $schema: _dialect, ...shape } = converted;
  const known = new Set<string>(wireKeywords);
  const walk = (value: unknown, at: string): Json => {
    if (Array.isArray(value)) return value.map((item, index) => walk(item, `${at}/${index}`));
    if (value === null || typeof value !== 'object') return value as Json;
    const result: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!known.has(key)) throw new Error(`${where}: ${at}: wireCheck does not know "${key}"`);
      if (key === 'pattern') {
        const regex = patterns.find((candidate) => candidate.source === item);
        if (!regex) throw new Error(`${where}: ${at}: no RegExp for the pattern ${String(item)}`);
        result[key] = new RegExp(regex.source, regex.flags.replace(/[gy]/g, ''));
      } else if (key === 'properties') {
        result[key] = Object.fromEntries(
          Object.entries(item as Record<string, unknown>).map(([name, property]) => [
            name,
            walk(property, `${at}/${name}`),
          ]),
        );
      } else {
        result[key] = walk(item, `${at}/${key}`);
      }
    }
    return result;
  };
  return walk(shape, '');
}

/** A generated module's code and the shapes it names. */
interface Piece {
  code: string;
  shapes: Set<string>;
}

/**
 * Writes values as JavaScript, each object or array that occurs more than once (a user document in a post,
 * a comment and a notification) as one shared shape, so the code names it once.
 */
class ShapeWriter {
  readonly #counts = new Map<string, number>();
  readonly #names = new Map<string, string>();
  /** The shared shapes by name, each a module of its own. */
  readonly shapes = new Map<string, Piece>();

  /** Counts the occurrences of every object and array in `value`; call for every value before `write`. */
  count(value: Json): void {
    if (value === null || typeof value !== 'object' || value instanceof RegExp) return;
    const key = this.#literal(value);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    for (const item of Object.values(value)) this.count(item);
  }

  /** The JavaScript expression of `value` (a literal, or the name of a shared shape), and the shapes it names. */
  write(value: Json): Piece {
    const shapes = new Set<string>();
    return { code: this.#write(value, shapes), shapes };
  }

  #write(value: Json, used: Set<string>): string {
    if (value instanceof RegExp) return String(value);
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    const key = this.#literal(value);
    const known = this.#names.get(key);
    if (known) {
      used.add(known);
      return known;
    }
    const own = new Set<string>();
    const code = Array.isArray(value)
      ? `[${value.map((item) => this.#write(item, own)).join(',')}]`
      : `{${Object.entries(value)
          .map(([name, item]) => `${JSON.stringify(name)}:${this.#write(item, own)}`)
          .join(',')}}`;
    if ((this.#counts.get(key) ?? 0) < 2 || code.length < 24) {
      for (const name of own) used.add(name);
      return code;
    }
    const name = `s${this.#names.size}`;
    this.#names.set(key, name);
    this.shapes.set(name, { code, shapes: own });
    used.add(name);
    return name;
  }

  #literal(value: Json): string {
    return JSON.stringify(value, (_key, item: unknown) =>
      item instanceof RegExp ? `/${item.source}/${item.flags}` : item,
    );
  }
}

/**
 * The generated modules by id. Each endpoint and each shared shape is a module of its own, and a group
 * (`postEndpoints`) is a namespace of its endpoints' modules: the bundler resolves `postEndpoints.getFeed`
 * to the one module, so a page's chunk holds the endpoints and shapes that page calls, no others.
 */
export type WebContract = Map<string, string>;

const ids = {
  file: (file: string) => `${virtualPrefix}${file}`,
  group: (file: string, group: string) => `${virtualPrefix}group:${file}:${group}`,
  endpoint: (file: string, group: string, key: string) =>
    `${virtualPrefix}endpoint:${file}:${group}.${key}`,
  shape: (name: string) => `${virtualPrefix}shape:${name}`,
};

function importsOf(shapes: Set<string>): string[] {
  return [...shapes].map(
    (name) => `import { shape as ${name} } from ${JSON.stringify(ids.shape(name))};`,
  );
}

/** A live topic as the web app ships it: the check of its document (contract/topics.ts). */
interface WebTopic {
  document: Json;
  audience: string;
}

/** Generates the web's endpoint modules for every file of `endpointsDir`, and its topics module. */
export async function generateWebContract(
  endpointsDir: string,
  checkModule: string,
  topicsFile: string,
): Promise<WebContract> {
  const files = readdirSync(endpointsDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(endpointsDir, file));
  const loaded: { file: string; groups: [string, Record<string, WebEndpoint>][] }[] = [];
  for (const file of files) {
    const exports = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<
      string,
      unknown
    >;
    const groups: [string, Record<string, WebEndpoint>][] = [];
    for (const [name, value] of Object.entries(exports)) {
      const group = endpointGroup(value);
      if (!group) continue;
      const web: Record<string, WebEndpoint> = {};
      for (const [key, endpoint] of Object.entries(group)) {
        web[key] = {
          id: endpoint.id,
          method: endpoint.method,
          path: endpoint.path,
          status: endpoint.status,
          ...(endpoint.form ? { form: { files: endpoint.form.files } } : {}),
          response: wireShapeOf(endpoint.response, `${path.basename(file)} ${endpoint.id}`),
        };
      }
      groups.push([name, web]);
    }
    loaded.push({ file, groups });
  }
  // The realtime client checks each frame's document against its topic's shape, as the API client checks
  // answers: the same generated shapes, so zod stays out of the socket's code too.
  const topicExports = (await tsImport(pathToFileURL(topicsFile).href, import.meta.url)) as {
    topics: Record<string, { document: z.ZodType; audience: string }>;
  };
  const topics: [string, WebTopic][] = Object.entries(topicExports.topics).map(([kind, topic]) => [
    kind,
    { document: wireShapeOf(topic.document, `topics.ts ${kind}`), audience: topic.audience },
  ]);
  const writer = new ShapeWriter();
  for (const { groups } of loaded) {
    for (const [, group] of groups) {
      for (const endpoint of Object.values(group)) writer.count(endpoint.response as Json);
    }
  }
  for (const [, topic] of topics) writer.count(topic.document);
  const modules: WebContract = new Map();
  for (const { file, groups } of loaded) {
    modules.set(
      ids.file(file),
      groups
        .map(([name]) => `export * as ${name} from ${JSON.stringify(ids.group(file, name))};`)
        .join('\n'),
    );
    for (const [name, group] of groups) {
      const reexports: string[] = [];
      for (const [key, endpoint] of Object.entries(group)) {
        const { response, ...rest } = endpoint;
        const check = writer.write(response as Json);
        const fields = Object.entries(rest)
          .map(([field, value]) => `${field}:${JSON.stringify(value)}`)
          .join(',');
        const id = ids.endpoint(file, name, key);
        modules.set(
          id,
          [
            `import { wireCheck } from ${JSON.stringify(checkModule)};`,
            ...importsOf(check.shapes),
            `export const endpoint = {${fields},response:wireCheck(${check.code})};`,
          ].join('\n'),
        );
        reexports.push(`export { endpoint as ${key} } from ${JSON.stringify(id)};`);
      }
      modules.set(ids.group(file, name), reexports.join('\n'));
    }
  }
  const topicPieces = topics.map(([kind, topic]) => {
    const check = writer.write(topic.document);
    return {
      shapes: check.shapes,
      code: `${JSON.stringify(kind)}:{document:wireCheck(${check.code}),audience:${JSON.stringify(topic.audience)}}`,
    };
  });
  modules.set(
    ids.file(topicsFile),
    [
      `import { wireCheck } from ${JSON.stringify(checkModule)};`,
      ...importsOf(new Set(topicPieces.flatMap((piece) => [...piece.shapes]))),
      `export const topics = {${topicPieces.map((piece) => piece.code).join(',')}};`,
    ].join('\n'),
  );
  for (const [name, shape] of writer.shapes) {
    modules.set(
      ids.shape(name),
      [...importsOf(shape.shapes), `export const shape = ${shape.code};`].join('\n'),
    );
  }
  return modules;
}

export interface WebContractOptions {
  /** src/shared/contract/endpoints */
  endpointsDir: string;
  /** src/web: only modules under it get the generated endpoints; the server and its tests keep zod's. */
  webDir: string;
  /** src/web/lib/wire-check.ts */
  checkModule: string;
  /** src/shared/contract/topics.ts: web modules get its `topics`, each document checked without zod. */
  topicsFile: string;
}

/**
 * The Vite plugin: web modules that import an endpoint module, or the topics module, get the generated one.
 */
export function webContract({
  endpointsDir,
  webDir,
  checkModule,
  topicsFile,
}: WebContractOptions): Plugin {
  let generated: Promise<WebContract> | null = null;
  const generate = () => (generated ??= generateWebContract(endpointsDir, checkModule, topicsFile));
  const inside = (file: string, dir: string) => !path.relative(dir, file).startsWith('..');
  return {
    name: 'hearth:web-contract',
    enforce: 'pre',
    buildStart() {
      generated = null;
      for (const file of readdirSync(endpointsDir))
        this.addWatchFile(path.join(endpointsDir, file));
    },
    async resolveId(source, importer) {
      if (source.startsWith(virtualPrefix)) return source;
      if (!importer || importer.startsWith('\0') || !inside(importer, webDir)) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      if (!resolved || resolved.external) return null;
      const file = resolved.id.split('?')[0] ?? '';
      if (file === topicsFile) return ids.file(file);
      if (path.dirname(file) !== endpointsDir || !file.endsWith('.ts')) return null;
      return ids.file(file);
    },
    // In development, a change to the shared code the contract is made of (an endpoint or a schema)
    // makes the modules anew, and the page reloads with them.
    handleHotUpdate({ file, server }) {
      if (!inside(file, path.dirname(path.dirname(endpointsDir)))) return;
      generated = null;
      for (const module of server.moduleGraph.idToModuleMap.values()) {
        if (module.id?.startsWith(virtualPrefix)) server.moduleGraph.invalidateModule(module);
      }
      server.ws.send({ type: 'full-reload' });
    },
    async load(id) {
      if (!id.startsWith(virtualPrefix)) return null;
      const code = (await generate()).get(id);
      if (code === undefined)
        throw new Error(`web contract: nothing is generated as ${id.slice(1)}`);
      return code;
    },
  };
}
