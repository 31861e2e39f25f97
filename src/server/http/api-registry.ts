/**
 * Every operation of the API in one list, for `/api/openapi.json` and its tests: the endpoints
 * made with `defineEndpoint` (found by file, so a new endpoint is listed the moment it exists)
 * and, described here by hand, the routes that answer something other than the JSON envelope
 * (tus uploads, signed video streams, BOM exports, this description itself).
 */
import { z } from 'zod';
import { bomExportQuerySchema, cplExportQuerySchema } from '../../lib/contract/schemas/eda.ts';
import { EXAMPLE_IDS } from '../../lib/contract/schemas/examples.ts';
import { TUS_PATH } from '../services/media/index.ts';
import type { EndpointContract, EndpointDocs } from './endpoint.ts';

export type HttpMethod = 'get' | 'post' | 'head' | 'patch' | 'delete' | 'options';

/** One method of one path, as the document describes it. */
export interface ApiOperation {
  /** OpenAPI path: `/api/project/detail`, `/eda/{id}/bom.csv`. */
  path: string;
  method: HttpMethod;
  auth: EndpointContract['auth'];
  role?: EndpointContract['role'];
  docs: EndpointDocs;
  /** JSON envelope endpoints: the input (query for GET, JSON body for POST) and the `result`. */
  input?: z.ZodType | undefined;
  result?: z.ZodType;
  /** Hand-described routes: path parameters, query, request headers and the success answer. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  success?: { status: number; description: string; contentType?: string; schema?: z.ZodType; headers?: Record<string, string> };
  /** The source file that answers it (tests check every file is listed). */
  file: string;
}

interface EndpointModule {
  contract?: EndpointContract;
}

// Lazy: the endpoint modules are loaded when the document is first asked for, not when the server
// starts; and `/api/openapi.json` itself (not a `defineEndpoint`) is left out, so nothing imports itself.
// `[...path].ts` answers every unknown `/api/…` path with `unknown_endpoint`: no operation of its own.
const endpointModules = import.meta.glob<EndpointModule>([
  '../../pages/api/**/*.ts',
  '../../pages/sso/api/*.ts',
  '!../../pages/api/openapi.json.ts',
]);

/** `../../pages/api/project/detail.ts` → `/api/project/detail`. */
export function endpointPath(file: string): string {
  return file.replace(/^\.\.\/\.\.\/pages/, '').replace(/\.ts$/, '');
}

const idParam = z.object({ id: z.string().meta({ description: 'The project’s public id', example: EXAMPLE_IDS.project }) });

const tusHeaders = {
  'Tus-Resumable': z.literal('1.0.0'),
};

/** Routes that are not `defineEndpoint`s, described by hand (their answers are files, redirects or tus). */
export const HAND_DESCRIBED: ApiOperation[] = [
  {
    path: '/api/openapi.json',
    method: 'get',
    auth: 'none',
    file: 'src/pages/api/openapi.json.ts',
    docs: { summary: 'This description', description: 'The OpenAPI 3.1 document of the API, generated from the schemas the endpoints validate with.', tag: 'meta' },
    success: { status: 200, description: 'The OpenAPI document', contentType: 'application/json', schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).loose(), paths: z.record(z.string(), z.unknown()) }).loose() },
  },
  {
    path: '/api/docs',
    method: 'get',
    auth: 'none',
    file: 'src/pages/api/docs.astro',
    docs: { summary: 'The API reference', description: 'This document, readable (Scalar), served by the site itself.', tag: 'meta' },
    success: { status: 200, description: 'An HTML page', contentType: 'text/html' },
  },
  {
    path: '/eda/{id}/bom.csv',
    method: 'get',
    auth: 'none',
    file: 'src/pages/eda/[id]/bom.csv.ts',
    params: idParam,
    query: bomExportQuerySchema,
    docs: {
      summary: 'The BOM as a CSV upload',
      description: 'The project’s bill of materials in the column layout a distributor’s BOM upload takes (JLCPCB, LCSC, Mouser, DigiKey) or with every column (`plain`).',
      tag: 'eda',
      errors: ['project_not_found', 'not_found'],
      example: { format: 'jlc', boards: 5 },
    },
    success: { status: 200, description: 'A CSV file (`Content-Disposition: attachment`)', contentType: 'text/csv' },
  },
  {
    path: '/eda/{id}/fabrication.zip',
    method: 'get',
    auth: 'none',
    file: 'src/pages/eda/[id]/fabrication.zip.ts',
    params: idParam,
    docs: { summary: 'Every fabrication file in one zip', description: 'Gerbers, drill, BOM and placement files of the project.', tag: 'eda', errors: ['project_not_found', 'not_found'] },
    success: { status: 200, description: 'A zip file (`Content-Disposition: attachment`)', contentType: 'application/zip' },
  },
  {
    path: '/eda/{id}/cpl.csv',
    method: 'get',
    auth: 'none',
    file: 'src/pages/eda/[id]/cpl.csv.ts',
    params: idParam,
    query: cplExportQuerySchema,
    docs: {
      summary: 'The placements as JLCPCB’s CPL file',
      description:
        'The parts of the project’s first ready board as JLCPCB’s assembly placement file: `Designator, Mid X, Mid Y, Layer, Rotation`, positions in the board’s Gerber coordinates with their unit (`12.5mm`), `Top` or `Bottom`, the placement file’s rotation in degrees from 0 to 360.',
      tag: 'eda',
      errors: ['project_not_found', 'not_found'],
      example: { format: 'jlc' },
    },
    success: { status: 200, description: 'A CSV file (`Content-Disposition: attachment`)', contentType: 'text/csv' },
  },
  {
    path: '/eda/{id}/board-{boardId}-gerbers.zip',
    method: 'get',
    auth: 'none',
    file: 'src/pages/eda/[id]/board-[boardId]-gerbers.zip.ts',
    params: idParam.extend({ boardId: z.string().meta({ description: 'The board’s id (`boards[].id` in `eda/detail`)', example: '1' }) }),
    docs: {
      summary: 'One board’s Gerber zip',
      description: 'The Gerber and drill files of one ready board and nothing else: its Gerber zip as attached, its loose Gerber files zipped, or the Gerbers KiCad wrote from its design source. The address fabs such as Aisler and PCBWay fetch to open an order.',
      tag: 'eda',
      errors: ['project_not_found', 'not_found'],
    },
    success: { status: 200, description: 'A zip file (`Content-Disposition: attachment`); from a bucket, a redirect to it', contentType: 'application/zip' },
  },
  {
    path: TUS_PATH,
    method: 'post',
    auth: 'none',
    file: 'src/server/http/tus-upload.ts',
    headers: z.object({
      ...tusHeaders,
      'Upload-Length': z.string().meta({ description: 'The file’s size in bytes (as declared to `video/getVideoToken`)', example: '1048576' }),
      'Upload-Metadata': z.string().meta({ description: 'tus metadata, base64 values: `uploadToken <token>,filename <name>`', example: 'uploadToken dnUtMmM5ZTdhMWY0YjhkNmUzYTBmNWMxYjlk' }),
    }),
    docs: {
      summary: 'Create a video upload (tus)',
      description: 'The tus 1.0 creation request. The `uploadToken` of `video/getVideoToken` authorises it (no cookie needed). Then `PATCH` the bytes to the `Location` answered; `HEAD` tells where an interrupted upload stands.',
      tag: 'videos',
      errors: ['forbidden', 'too_large', 'bad_request'],
    },
    success: { status: 201, description: 'Created; `Location` is the upload’s address', headers: { Location: 'The upload’s address' } },
  },
  {
    path: `${TUS_PATH}/{uploadId}`,
    method: 'head',
    auth: 'none',
    file: 'src/server/http/tus-upload.ts',
    params: z.object({ uploadId: z.string() }),
    headers: z.object(tusHeaders),
    docs: { summary: 'Where an upload stands (tus)', description: '`Upload-Offset`: the bytes the server has.', tag: 'videos', errors: ['upload_not_found'] },
    success: { status: 200, description: 'The upload’s offset and length', headers: { 'Upload-Offset': 'Bytes received', 'Upload-Length': 'Bytes declared' } },
  },
  {
    path: `${TUS_PATH}/{uploadId}`,
    method: 'patch',
    auth: 'none',
    file: 'src/server/http/tus-upload.ts',
    params: z.object({ uploadId: z.string() }),
    headers: z.object({ ...tusHeaders, 'Upload-Offset': z.string().meta({ example: '0' }), 'Content-Type': z.literal('application/offset+octet-stream') }),
    docs: {
      summary: 'Send bytes of an upload (tus)',
      description: 'From `Upload-Offset` on; as many requests as the connection allows.',
      tag: 'videos',
      errors: ['upload_not_found', 'conflict', 'too_large'],
      body: { contentType: 'application/offset+octet-stream', schema: z.string().meta({ format: 'binary' }) },
    },
    success: { status: 204, description: 'Received; `Upload-Offset` is the new offset', headers: { 'Upload-Offset': 'Bytes received' } },
  },
  {
    path: `${TUS_PATH}/{uploadId}`,
    method: 'delete',
    auth: 'none',
    file: 'src/server/http/tus-upload.ts',
    params: z.object({ uploadId: z.string() }),
    headers: z.object(tusHeaders),
    docs: { summary: 'Abandon an upload (tus)', tag: 'videos', errors: ['upload_not_found', 'upload_used'] },
    success: { status: 204, description: 'Abandoned' },
  },
  {
    path: '/video/stream/{file}',
    method: 'get',
    auth: 'none',
    file: 'src/server/app.ts',
    params: z.object({ file: z.string().meta({ description: '`<video id>.mp4`' }) }),
    query: z.object({
      exp: z.string(),
      sig: z.string(),
      scope: z.enum(['owner']).optional().meta({ description: 'Signed with the rest: an address issued to the video’s owner or staff, which still plays it once hidden.' }),
    }),
    docs: {
      summary: 'Play a video',
      description:
        'The signed address `video/getVideoUrl` answers, with HTTP Range. An expired or forged signature is refused (403), an unknown video 404, and a video staff hid 404 too unless the address has `scope=owner`; both as plain text. Every request is checked: a browser keeps an answer at most five minutes.',
      tag: 'videos',
    },
    success: { status: 200, description: 'The MP4 (206 for a range)', contentType: 'video/mp4' },
  },
];

let cached: Promise<ApiOperation[]> | undefined;

/** Every operation of the API, endpoints first (by path), then the hand-described routes. */
export function listApiOperations(): Promise<ApiOperation[]> {
  cached ??= (async () => {
    const endpoints: ApiOperation[] = [];
    for (const [file, load] of Object.entries(endpointModules).sort(([a], [b]) => a.localeCompare(b))) {
      if (file.endsWith('/[...path].ts')) continue;
      const { contract } = await load();
      if (!contract) throw new Error(`${file} is no defineEndpoint: describe it in HAND_DESCRIBED`);
      for (const method of contract.methods) {
        endpoints.push({
          path: endpointPath(file),
          method: method === 'GET' ? 'get' : 'post',
          auth: contract.auth,
          role: contract.role,
          docs: contract.docs,
          input: contract.input,
          result: contract.result,
          file: `src/pages${endpointPath(file)}.ts`,
        });
      }
    }
    return [...endpoints, ...HAND_DESCRIBED];
  })();
  return cached;
}
