import path from 'node:path';
import { proxyTrustProblem, readProxyTrust, type ProxyTrust } from './http/client-address.ts';

/** Runtime configuration, read from the environment once per process (the README lists every variable). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  siteUrl: string | undefined;
  publicApiBase: string;
  ssoLoginUrl: string;
  ssoSiteId: string;
  ssoAllowedOrigins: string[];
  /** `ALLOWED_HOSTS`: hosts (`name` or `name:port`) a request may name for sign-in when `SITE_URL` is unset. */
  allowedHosts: string[];
  /**
   * `TRUST_PROXY`: the proxies in front whose `X-Forwarded-For`, `-Proto` and `X-Request-Id` are
   * believed, as Express's `trust proxy` has them (`src/server/http/client-address.ts`); null: none.
   */
  trustProxy: ProxyTrust | null;
  /** The S3-compatible bucket that holds stored files (`S3_BUCKET` set), else undefined: files stay on the disk. */
  s3: S3Config | undefined;
  /** What is wrong with the `S3_*` variables, in a sentence naming the variable, or null. */
  s3Problem: string | null;
  analyticsSrc: string | undefined;
  /** How donations are taken: Stripe Checkout, an external page, or not at all (`donationMode`). */
  donations: DonationConfig;
  /** What is wrong with the donation variables, in a sentence naming the variable, or null. */
  donationProblem: string | null;
  /** `SMTP_URL`: where account email is sent; unset, emails are written to the server log and sign-up asks for no confirmation. */
  smtpUrl: string | undefined;
  /** `MAIL_FROM`: the sender of account email. */
  mailFrom: string;
  seedDemo: boolean;
  production: boolean;
  /** The guest page cache: `PAGE_CACHE=0` turns it off; memory for pages in bytes. */
  pageCache: { enabled: boolean; maxBytes: number };
}

/** Donations: Stripe Checkout when `STRIPE_SECRET_KEY` is set, else the page at `DONATION_URL`. */
export interface DonationConfig {
  stripeSecretKey: string | undefined;
  /** `STRIPE_WEBHOOK_SECRET`: the signing secret (`whsec_…`) of the endpoint `POST /api/donate/webhook`. */
  stripeWebhookSecret: string | undefined;
  /** `STRIPE_API_BASE`: another Stripe-compatible API (stripe-mock, a test's own server); unset for Stripe itself. */
  stripeApiBase: URL | undefined;
  /** `DONATION_URL`: an external donation page (Open Collective, Afdian, …) the buttons link to without Stripe. */
  donationUrl: string | undefined;
}

/** Where stored files go when `S3_BUCKET` is set (`src/server/storage/s3.ts`). */
export interface S3Config {
  bucket: string;
  region: string;
  /** `S3_ENDPOINT`: another S3-compatible service (MinIO, R2, …); unset for AWS itself. */
  endpoint: string | undefined;
  /** Keys from `S3_ACCESS_KEY_ID`/`S3_SECRET_ACCESS_KEY`; unset, the SDK's own chain (an instance role, `AWS_*`). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Addresses as `endpoint/bucket/key` rather than `bucket.endpoint/key` (most S3-compatible servers want this). */
  forcePathStyle: boolean;
  /** The origin browsers fetch presigned addresses from (added to the pages' `media-src`). */
  browserOrigin: string;
}

const BOOLEAN = /^(1|true|0|false)$/;

/** Reads the `S3_*` variables: a configuration, nothing (no `S3_BUCKET`), or what is wrong with them. */
function readS3Config(env: NodeJS.ProcessEnv): { s3: S3Config | undefined; s3Problem: string | null } {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return { s3: undefined, s3Problem: null };
  const fail = (s3Problem: string) => ({ s3: undefined, s3Problem });
  // S3's own naming rules: a bucket name is also a host name label in virtual-hosted addresses.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    return fail(`S3_BUCKET must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens (got "${bucket}").`);
  }
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]{2,32}$/.test(region)) return fail(`S3_REGION must be a region name such as us-east-1 (got "${region}").`);
  let endpoint: URL | undefined;
  if (env.S3_ENDPOINT) {
    try {
      endpoint = new URL(env.S3_ENDPOINT);
    } catch {
      // reported below
    }
    if (!endpoint || (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') || endpoint.search || endpoint.hash) {
      return fail(`S3_ENDPOINT must be the http(s) address of the S3-compatible service, such as https://minio.example:9000 (got "${env.S3_ENDPOINT}").`);
    }
  }
  const keyId = env.S3_ACCESS_KEY_ID ?? '';
  const secret = env.S3_SECRET_ACCESS_KEY ?? '';
  if (Boolean(keyId) !== Boolean(secret)) {
    return fail(keyId ? 'S3_SECRET_ACCESS_KEY must be set with S3_ACCESS_KEY_ID.' : 'S3_ACCESS_KEY_ID must be set with S3_SECRET_ACCESS_KEY.');
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  if (pathStyle && !BOOLEAN.test(pathStyle)) return fail(`S3_FORCE_PATH_STYLE must be 1 or 0 (got "${env.S3_FORCE_PATH_STYLE}").`);
  // Other S3-compatible servers mostly answer path-style addresses only; AWS wants virtual hosts.
  const forcePathStyle = pathStyle ? pathStyle === '1' || pathStyle === 'true' : Boolean(endpoint);
  const base = endpoint ?? new URL(`https://s3.${region}.amazonaws.com`);
  const browserOrigin = forcePathStyle ? base.origin : `${base.protocol}//${bucket}.${base.host}`;
  return {
    s3: {
      bucket,
      region,
      endpoint: endpoint ? endpoint.href.replace(/\/$/, '') : undefined,
      credentials: keyId ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
      forcePathStyle,
      browserOrigin,
    },
    s3Problem: null,
  };
}

/** An http(s) address, or undefined when unset (`configProblem` names a malformed one). */
function readHttpUrl(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Reads `STRIPE_*` and `DONATION_URL`: the configuration, and what is wrong with it. */
function readDonationConfig(env: NodeJS.ProcessEnv): { donations: DonationConfig; donationProblem: string | null } {
  const donations: DonationConfig = {
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiBase: readHttpUrl(env.STRIPE_API_BASE),
    donationUrl: readHttpUrl(env.DONATION_URL)?.href,
  };
  let donationProblem: string | null = null;
  for (const name of ['DONATION_URL', 'STRIPE_API_BASE'] as const) {
    if (env[name] && !readHttpUrl(env[name])) donationProblem ??= `${name} must be an http(s) address, such as https://opencollective.com/copperhub (got "${env[name]}").`;
  }
  if (donations.stripeSecretKey && !donations.stripeWebhookSecret) {
    donationProblem ??= 'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: without it no payment would ever be recorded.';
  }
  return { donations, donationProblem };
}

function readList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the configuration from `env` (default: `process.env`). Pure, so tests can pass their own. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: Number(env.PORT ?? 4321),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    siteUrl: env.SITE_URL ? env.SITE_URL.replace(/\/$/, '') : undefined,
    publicApiBase: (env.PUBLIC_API_BASE ?? '').replace(/\/$/, ''),
    ssoLoginUrl: env.SSO_LOGIN_URL || '/sso/login',
    ssoSiteId: env.SSO_SITE_ID || 'copperhub',
    ssoAllowedOrigins: readList(env.SSO_ALLOWED_ORIGINS),
    allowedHosts: readList(env.ALLOWED_HOSTS).map((host) => host.toLowerCase()),
    trustProxy: readProxyTrust(env.TRUST_PROXY),
    ...readS3Config(env),
    analyticsSrc: env.ANALYTICS_SRC || undefined,
    ...readDonationConfig(env),
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailFrom: env.MAIL_FROM?.trim() || 'Copperhub <no-reply@copperhub.invalid>',
    seedDemo: env.SEED_DEMO !== '0' && env.SEED_DEMO !== 'false',
    production: env.NODE_ENV === 'production',
    pageCache: {
      enabled: env.PAGE_CACHE !== '0' && env.PAGE_CACHE !== 'false',
      maxBytes: Math.max(1, Number(env.PAGE_CACHE_MB) || 64) * 1024 * 1024,
    },
  };
}

/**
 * What keeps this configuration from serving safely, in one sentence, or null. A real deployment
 * (production without demo content) must name its public address: sign-in codes are sent only
 * there, never to whatever `Host` a request claims.
 */
export function configProblem(config: AppConfig): string | null {
  if (config.s3Problem) return config.s3Problem;
  const proxyProblem = config.trustProxy && proxyTrustProblem(config.trustProxy);
  if (proxyProblem) return proxyProblem;
  if (config.donationProblem) return config.donationProblem;
  if (config.smtpUrl && !/^smtps?:\/\/[^\s]+$/.test(config.smtpUrl)) return 'SMTP_URL must be an smtp:// or smtps:// address, such as smtps://user:password@mail.example:465.';
  if (config.siteUrl) {
    let url: URL | undefined;
    try {
      url = new URL(config.siteUrl);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
      return `SITE_URL must be the site's public origin, such as https://copperhub.example (got "${config.siteUrl}").`;
    }
  } else if (config.production && !config.seedDemo) {
    return 'SITE_URL must be set to the site\'s public address (for example SITE_URL=https://copperhub.example) when running in production with SEED_DEMO=0: sign-in codes are sent only to it.';
  }
  return null;
}

let cached: AppConfig | undefined;

/** The process-wide configuration. */
export function getConfig(): AppConfig {
  cached ??= readConfig();
  return cached;
}

/**
 * V8's heap bound for a server process, in MB: a margin for renders in flight and the site's own
 * objects, and room for the page cache's budget (its marked pages are strings on the heap; its
 * bodies are buffers outside it, and V8 counts those towards collecting too). Without a bound V8
 * grows its heap under load and keeps it: after `npm run bench`'s load tests the process held
 * 400 MB more than at start; with this one it stays within the bench's stated bound and serves as
 * fast (docs/performance.md, finding 8).
 */
export function serverHeapMb(config: AppConfig): number {
  return 256 + Math.ceil((1.25 * config.pageCache.maxBytes) / 2 ** 20);
}

/**
 * The young generation's bound for a server process, in MB per semi-space. Node 24 lets it grow to
 * 64 MB: more than the room the heap bound leaves above what the server keeps, so V8 kept marking
 * the old generation (a mark-compact every 0.3–0.5 s of uncached renders, eleven to thirteen in 400
 * one at a time) and the process held 130 MB more from its start. At 32 MB collections of the young
 * take most of their place, at the same speed (docs/performance.md, finding 13).
 */
export const SERVER_SEMI_SPACE_MB = 32;

/**
 * How far V8 lets the old generation grow past what it kept at its last mark-compact before it
 * marks again, in percent. Left to itself under our heap bound V8 allowed 10–25 %: with about 60
 * MB kept, a mark-compact every 0.4 s of uncached renders, each with 20–25 ms of marking steps
 * spread over the renders around it and a pause of 4–8 ms. At 50 % there are four in 400 renders
 * instead of seven and half the marking, and a crawler's walk of 10,000 pages has its p99 about 10
 * ms lower; the process holds 10–25 MB more at the walk's peak. 100 % (with 16 MB semi-spaces)
 * halved the mark-compacts again, but after the bench's load tests the process held 40 MB more,
 * and its walk went past the bench's bound (docs/performance.md, finding 14). Node takes this flag
 * on its command line only, not in `NODE_OPTIONS`.
 */
export const SERVER_HEAP_GROWING_PERCENT = 50;

/**
 * The Node flags a server process starts with (`npm start`, the bench): the heap bound, the young
 * generation's and the old generation's growth, each unless the operator set one of their own in
 * `NODE_OPTIONS` or on the command line.
 */
export function serverNodeFlags(env: NodeJS.ProcessEnv = process.env, execArgv: string[] = process.execArgv): string[] {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  const own = (name: string) => given.some((flag) => flag.startsWith(name));
  return [
    ...(own('--max-old-space-size') ? [] : [`--max-old-space-size=${serverHeapMb(readConfig(env))}`]),
    ...(own('--max-semi-space-size') ? [] : [`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`]),
    ...(own('--heap-growing-percent') ? [] : [`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`]),
  ];
}
