import path from 'node:path';

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
  /** `TRUST_PROXY=1`: the site runs behind a proxy whose `X-Forwarded-Proto` is believed. */
  trustProxy: boolean;
  s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string } | undefined;
  analyticsSrc: string | undefined;
  donationWebhookSecret: string | undefined;
  seedDemo: boolean;
  production: boolean;
  /** The guest page cache: `PAGE_CACHE=0` turns it off; memory for pages in bytes. */
  pageCache: { enabled: boolean; maxBytes: number };
}

function readList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the configuration from `env` (default: `process.env`). Pure, so tests can pass their own. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const s3Ready = env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY;
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
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    s3: s3Ready
      ? {
          endpoint: env.S3_ENDPOINT!,
          bucket: env.S3_BUCKET!,
          accessKeyId: env.S3_ACCESS_KEY_ID!,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
          region: env.S3_REGION || 'us-east-1',
        }
      : undefined,
    analyticsSrc: env.ANALYTICS_SRC || undefined,
    donationWebhookSecret: env.DONATION_WEBHOOK_SECRET || undefined,
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
