import { describe, expect, it } from 'vitest';
import { configProblem, readConfig } from '../../src/server/config.ts';

describe('configuration', () => {
  it('reads ALLOWED_HOSTS as a lower-case list and TRUST_PROXY as hops or addresses', () => {
    const config = readConfig({ ALLOWED_HOSTS: ' Copperhub.Example, lab.example:8080 ,', TRUST_PROXY: '1' });
    expect(config.allowedHosts).toEqual(['copperhub.example', 'lab.example:8080']);
    expect(config.trustProxy).toEqual({ hops: 1 });
    expect(readConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual({ hops: 1 });
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(readConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ' }).trustProxy).toEqual({ addresses: ['10.0.0.5', '10.1.0.0/16'] });
    expect(readConfig({}).trustProxy).toBeNull();
    expect(readConfig({ TRUST_PROXY: '0' }).trustProxy).toBeNull();
    expect(configProblem(readConfig({ TRUST_PROXY: 'nginx.local' }))).toMatch(/^TRUST_PROXY must be .*nginx\.local/);
    expect(configProblem(readConfig({ TRUST_PROXY: '10.0.0.5,10.1.0.0/16' }))).toBeNull();
    expect(readConfig({}).allowedHosts).toEqual([]);
  });

  it('stops a production start without demo content and without SITE_URL, in one sentence', () => {
    const problem = configProblem(readConfig({ NODE_ENV: 'production', SEED_DEMO: '0' }));
    expect(problem).toMatch(/^SITE_URL must be set .*SEED_DEMO=0.*\.$/);
    expect(problem).not.toContain('\n');
    expect(configProblem(readConfig({ NODE_ENV: 'production', SEED_DEMO: '0', SITE_URL: 'https://copperhub.example' }))).toBeNull();
  });

  it('lets the demo and development start without SITE_URL', () => {
    expect(configProblem(readConfig({ NODE_ENV: 'production' }))).toBeNull();
    expect(configProblem(readConfig({ NODE_ENV: 'development', SEED_DEMO: '0' }))).toBeNull();
  });

  it('refuses a SITE_URL that is not an origin', () => {
    for (const value of ['copperhub.example', 'ftp://copperhub.example', 'https://copperhub.example/shop', 'https://copperhub.example/?x=1']) {
      expect(configProblem(readConfig({ SITE_URL: value })), value).toMatch(/^SITE_URL must be the site's public origin/);
    }
  });

  it('reads the donation settings, and stops the start on ones that cannot work, naming the variable', () => {
    expect(readConfig({}).donations).toEqual({ stripeSecretKey: undefined, stripeWebhookSecret: undefined, stripeApiBase: undefined, donationUrl: undefined });
    const stripe = readConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', DONATION_URL: 'https://opencollective.com/copperhub' });
    expect(stripe.donations).toMatchObject({ stripeSecretKey: 'sk_live_x', stripeWebhookSecret: 'whsec_x', donationUrl: 'https://opencollective.com/copperhub' });
    expect(configProblem(stripe)).toBeNull();
    expect(configProblem(readConfig({ STRIPE_SECRET_KEY: 'sk_live_x' }))).toMatch(/^STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY/);
    expect(configProblem(readConfig({ DONATION_URL: 'opencollective.com/copperhub' }))).toMatch(/^DONATION_URL must be an http\(s\) address/);
    expect(configProblem(readConfig({ DONATION_URL: 'javascript:alert(1)' }))).toMatch(/^DONATION_URL must be/);
    expect(readConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }).donations.stripeApiBase?.port).toBe('12111');
  });

  it('sends account email with SMTP_URL, logs it without, and stops the start on an address that is not SMTP', () => {
    expect(readConfig({})).toMatchObject({ smtpUrl: undefined, mailFrom: 'Copperhub <no-reply@copperhub.invalid>' });
    const mail = readConfig({ SMTP_URL: ' smtps://user:secret@mail.example:465 ', MAIL_FROM: 'Lab <lab@example.com>' });
    expect(mail).toMatchObject({ smtpUrl: 'smtps://user:secret@mail.example:465', mailFrom: 'Lab <lab@example.com>' });
    expect(configProblem(mail)).toBeNull();
    expect(configProblem(readConfig({ SMTP_URL: 'https://mail.example' }))).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/);
  });

  it('keeps files on the disk without S3_BUCKET, and in the bucket with it', () => {
    expect(readConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toBeUndefined();
    const minio = readConfig({ S3_BUCKET: 'copperhub-files', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' });
    expect(minio.s3).toEqual({
      bucket: 'copperhub-files',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      browserOrigin: 'http://127.0.0.1:9000',
    });
    expect(configProblem(minio)).toBeNull();
    // AWS itself: virtual-hosted addresses and the SDK's own credentials (an instance role).
    const aws = readConfig({ S3_BUCKET: 'copperhub-files', S3_REGION: 'eu-west-1' }).s3;
    expect(aws).toMatchObject({ forcePathStyle: false, credentials: undefined, browserOrigin: 'https://copperhub-files.s3.eu-west-1.amazonaws.com' });
    expect(readConfig({ S3_BUCKET: 'copperhub-files', S3_ENDPOINT: 'https://r2.example', S3_FORCE_PATH_STYLE: '0' }).s3?.browserOrigin).toBe('https://copperhub-files.r2.example');
  });

  it('stops the start on S3 settings that cannot work, naming the variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
      [{ S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
      [{ S3_BUCKET: 'ok-bucket', S3_REGION: 'Europe West' }, 'S3_REGION'],
      [{ S3_BUCKET: 'ok-bucket', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY'],
      [{ S3_BUCKET: 'ok-bucket', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID'],
      [{ S3_BUCKET: 'ok-bucket', S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
    ];
    for (const [env, variable] of cases) {
      const problem = configProblem(readConfig(env));
      expect(problem, variable).toMatch(new RegExp(`^${variable} must`));
      expect(problem).not.toContain('\n');
    }
  });
});
