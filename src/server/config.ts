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
  s3: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string } | undefined;
  analyticsSrc: string | undefined;
  donationWebhookSecret: string | undefined;
  seedDemo: boolean;
  production: boolean;
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
  };
}

let cached: AppConfig | undefined;

/** The process-wide configuration. */
export function getConfig(): AppConfig {
  cached ??= readConfig();
  return cached;
}
